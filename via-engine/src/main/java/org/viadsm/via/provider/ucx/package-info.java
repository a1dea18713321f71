/**
 * The {@code ucx} provider: NICs over UCX, on one host or across hosts. Address {@code ucx:<host>:<port>}, where
 * the NIC's UCX listener sets up its VIs' connections (port 0 picks a free port; {@code Nic.address()} reports it).
 * <p>
 * Data path: RDMA Write is a UCX put (flushed at the reliable-reception level), RDMA Read a get, atomics
 * {@code ucp_atomic_op_nbx} through the FFM API, all one-sided on memory that UCX allocates
 * ({@code allocateMemory}; only that memory may be registered), and checked at the initiator against its mirror of
 * the target's registration table, which the target keeps current with one-sided puts before each
 * {@code registerMemory} and {@code deregisterMemory} returns. Send and RDMA Write with immediate data are active
 * messages that the target's engine code performs (with the same checks as every provider) when a thread of the
 * target makes progress; the reliable-reception level waits for its acknowledgement.
 * <p>
 * Threads: none over shared memory and RDMA, where UCX needs no target thread for one-sided operations; the
 * caller's waits make progress. Over TCP UCX emulates one-sided operations in software, so a NIC starts a progress
 * thread once it connects to a peer on another host, or when {@code UCX_TLS} names no shared-memory transport
 * ({@code viadsm.ucx.progress.thread=auto|true|false}). Threads of one process make progress on all of its ucx
 * NICs, as a real NIC moves data without the host.
 * <p>
 * Failures: each connection keeps a control endpoint with UCX's peer error handling, so a peer whose process dies
 * puts the VI in the error state; links between NICs that both run a progress thread carry heartbeats as well, so
 * a link that goes down does too, within {@code viadsm.ucx.peer.timeout.ns}. NIC atomics on RDMA hardware are not
 * coherent with the target CPU's atomics; the DSM updates words that peers update remotely only through the NIC.
 * <p>
 * Close: every endpoint is closed once, and the worker is destroyed only once UCX has finished with it (UCX 1.13
 * aborts the process destroying a worker whose connection is still being wired up), within a bound after which the
 * close returns, says so on standard error, and leaves the worker to a thread of its own ({@code WorkerRelease}).
 * <p>
 * Needs the UCX library ({@code apt install libucx0}); without it, opening a ucx NIC fails with one line saying so.
 */
package org.viadsm.via.provider.ucx;
