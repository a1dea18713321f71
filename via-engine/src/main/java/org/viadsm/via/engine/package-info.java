/**
 * The provider toolkit: the machinery every emulated NIC shares, not user API.
 * <p>
 * A NIC's target-side state (header, registration table, VI records with their receive rings, completion queue
 * rings, the asynchronous-error ring and the connection-request ring) lives in one {@link
 * org.viadsm.via.engine.NicArea}, laid out by the {@code *Layout} classes, so that an initiator that can reach the
 * area (a peer thread in the same JVM, a peer process mapping the same file, or a provider's engine thread acting
 * for a remote initiator) performs Send, RDMA and atomics on it with the same code. A provider makes its NICs as
 * {@link org.viadsm.via.engine.EngineNic}s with its own {@link org.viadsm.via.engine.NicTransport}, the SPI that
 * says how peers, their memory and sleeping waiters are reached, and subclasses {@link
 * org.viadsm.via.engine.PeerNic} for the peers it reaches.
 * <p>
 * A VI is its two work queues (a send queue and a receive queue, each with the wait of the thread that takes its
 * descriptors back) and its connection state machine, {@link org.viadsm.via.engine.ViConnection}, which is also
 * the provider's handle on the VI: a provider that carries a VI's operations itself (a {@link
 * org.viadsm.via.engine.ViTransport}) completes them, and drives the connection, through it. Connection set-up
 * takes the same steps for every provider ({@link org.viadsm.via.engine.Connector}); a provider says only how its
 * requests travel ({@link org.viadsm.via.engine.ConnectAttempt}). Everything else here is package-private.
 * <p>
 * Shared words follow the publish pattern: a writer fills a record, then stores its status or length word with
 * release semantics; a reader loads that word with acquire semantics before reading the record.
 */
package org.viadsm.via.engine;
