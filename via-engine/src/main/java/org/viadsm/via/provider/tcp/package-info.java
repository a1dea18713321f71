/**
 * The {@code tcp} provider: NICs on any hosts, reached over TCP. Address {@code tcp:<host>:<port>}; port 0 picks a
 * free port, and {@code Nic.address()} reports the one bound. Open a NIC on the host name or IP address its peers
 * use, since peer-to-peer requests are matched by that address.
 * <p>
 * Connections: one TCP connection per connected VI, opened by the requester and set up by a handshake on it
 * (request, accept or refusal, confirmation); a connection to a NIC that does not listen yet is retried until the
 * request's timeout. Framing: every frame has a fixed header (length, type, flags, VI ids, sequence number,
 * operation fields; see {@code FrameLayout}); a frame's length is checked against the connection's negotiated
 * maximum transfer size as soon as its header arrives, and a malformed, unknown or oversized frame breaks that
 * connection only.
 * <p>
 * Threads: one engine thread per NIC, an Agrona agent blocking in a selector, serves every socket: it performs
 * the peers' RDMA, atomics and Sends on this NIC with the engine's target-side checks, answers connection
 * requests, and completes this NIC's descriptors when responses arrive. Posting threads write their own frames
 * without blocking (what the socket does not take is flushed by the engine thread), and a thread waiting on a
 * queue reads the NIC's sockets itself during its spin phase, so that a ping-pong needs no thread wake-up;
 * meanwhile the engine thread sleeps (see {@link org.viadsm.via.TcpSettings#pollLeaseNs()}). A frame is handled
 * under its connection's lock by whichever of these threads reads it.
 * <p>
 * Failure detection is the socket itself: a peer that disconnects, closes its NIC or dies closes its connections,
 * which puts the VIs in the error state with {@code CONNECTION_LOST}; keep-alive is on for peers that vanish.
 */
package org.viadsm.via.provider.tcp;
