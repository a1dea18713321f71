package org.viadsm.via;

import java.nio.ByteBuffer;

import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * An emulated VI NIC, after VIPL's {@code VipOpenNic}: it owns protection tags, registered memory, completion
 * queues and VIs, and it listens for connection requests at its address.
 * <p>
 * Providers are chosen by the address scheme, as M-VIA loads device plugins:
 * <ul>
 * <li>{@code jvm:<name>}: NICs in one JVM (nodes as threads).</li>
 * <li>{@code shm:<name>}: processes on one host; registered memory lives in sparse files under {@code /dev/shm},
 * and RDMA and atomics are performed by the initiator on the target's mapped memory, with no target thread.</li>
 * <li>{@code tcp:<host>:<port>}: hosts over TCP; port 0 picks a free port, and {@link #address()} tells which.</li>
 * </ul>
 * Threading model of the {@code jvm} and {@code shm} providers: progress is driven by the caller and there is no
 * engine thread. {@code postSend} executes the operation on the posting thread, directly on the target NIC's
 * shared state and registered memory after checking its registration table, and completes the descriptor at both
 * ends (receive queue and completion queue at the target, send queue and completion queue locally) before it
 * returns; no target thread takes part. Waits spin briefly, then park; long waits check that the peers of the NIC's
 * connected VIs are still alive. Asynchronous errors are handed to the {@link AsyncErrorHandler} on the owner's
 * next call into the NIC.
 * <p>
 * Threading model of the {@code tcp} provider: one TCP connection per connected VI and one engine thread per NIC,
 * which serves the peers' operations on this NIC (checks, RDMA, atomics, Sends into posted receives, connection
 * requests) and completes this NIC's descriptors when their responses arrive; {@code postSend} writes the request
 * from the posting thread without blocking, and a waiting thread reads the NIC's sockets itself before it would
 * park, so descriptors complete asynchronously, as VIA's do. Peer-to-peer requests to a NIC that does not listen
 * yet are retried until their timeout.
 * <p>
 * <b>Note:</b> control calls (tags, registration, queues, VIs, connections) are thread-safe. Closing the NIC
 * destroys everything it owns, releases its memory and files, and breaks its connections; threads waiting on its
 * queues return, but other calls must not race {@link #close()}.
 */
public interface Nic extends AutoCloseable
{
    /**
     * Opens the NIC at {@code address} with the provider its scheme names and the settings of a new
     * {@link NicContext} (system properties, environment variables, defaults).
     *
     * @param address a provider address, e.g. {@code shm:node0}.
     * @return the open NIC.
     * @throws IllegalArgumentException if no provider serves the scheme, the address is malformed, or a setting is
     *                                  malformed (naming it).
     * @throws ViaException             if the provider cannot open the NIC (address in use, no shared memory).
     */
    static Nic open(final String address)
    {
        return open(address, new NicContext());
    }

    /**
     * Opens the NIC at {@code address} with the provider its scheme names, concluding {@code context} first.
     *
     * @param address a provider address, e.g. {@code shm:node0}.
     * @param context the NIC's settings; concluded here if it is not yet, and kept by the NIC.
     * @return the open NIC.
     * @throws IllegalArgumentException if no provider serves the scheme, the address is malformed, or a setting is
     *                                  malformed or out of range (naming it); nothing is left behind.
     * @throws ViaException             if the provider cannot open the NIC (address in use, no shared memory).
     */
    static Nic open(final String address, final NicContext context)
    {
        return NicProviders.open(address, context);
    }

    /**
     * The address peers use to reach this NIC.
     *
     * @return the provider address.
     */
    String address();

    /**
     * The settings the NIC was opened with.
     *
     * @return the concluded context.
     */
    NicContext context();

    /**
     * What the NIC can do, as {@code VipQueryNic} reports.
     *
     * @return the attributes.
     */
    NicAttributes attributes();

    /**
     * Creates a protection tag.
     *
     * @return a new tag.
     */
    ProtectionTag createPtag();

    /**
     * Destroys a protection tag.
     *
     * @param ptag a tag of this NIC.
     * @throws IllegalStateException    if a VI or a memory registration still uses it.
     * @throws IllegalArgumentException if the tag belongs to another NIC or was destroyed.
     */
    void destroyPtag(ProtectionTag ptag);

    /**
     * Allocates zeroed off-heap memory that this NIC can register and that peers can reach: sparse (untouched
     * pages cost nothing) and page-aligned. Released by {@link #freeMemory(ByteBuffer)} or by closing the NIC;
     * the buffer must not be used after that.
     *
     * @param length bytes.
     * @return a direct buffer of {@code length} bytes.
     * @throws ViaException with {@link ViaError#ERROR_RESOURCE} if the memory cannot be had.
     */
    ByteBuffer allocateMemory(int length);

    /**
     * Releases memory from {@link #allocateMemory(int)}.
     *
     * @param buffer the buffer allocateMemory returned.
     * @throws IllegalArgumentException if the buffer did not come from this NIC.
     * @throws IllegalStateException    if part of it is still registered.
     */
    void freeMemory(ByteBuffer buffer);

    /**
     * Registers memory, as {@code VipRegisterMem} does: from the buffer's first byte to its capacity (register a
     * {@link ByteBuffer#slice()} for part of a buffer).
     *
     * @param buffer     a direct, writable buffer (the NIC writes into registered memory: receives, RDMA Writes,
     *                   atomics); for the shm provider it must lie within memory from
     *                   {@link #allocateMemory(int)}, which peers can map.
     * @param attributes ptag and RDMA enable bits.
     * @return the registered region.
     * @throws IllegalArgumentException if the buffer is not direct, is read-only, is not reachable by this provider,
     *                                  or the ptag belongs to another NIC.
     * @throws ViaException             with {@link ViaError#ERROR_RESOURCE} past the registration limits.
     */
    MemoryRegion registerMemory(ByteBuffer buffer, MemoryAttributes attributes);

    /**
     * Deregisters memory, as {@code VipDeregisterMem} does; its handle fails every later protection check.
     *
     * @param region a region of this NIC.
     * @throws IllegalArgumentException if the region belongs to another NIC or is already deregistered.
     */
    void deregisterMemory(MemoryRegion region);

    /**
     * Creates a completion queue.
     *
     * @param capacity entries it can hold.
     * @return the queue.
     * @throws IllegalArgumentException if the capacity is not positive or above the NIC's limit.
     */
    CompletionQueue createCq(int capacity);

    /**
     * Creates a VI, as {@code VipCreateVi} does.
     *
     * @param attributes reliability, ptag, transfer size and RDMA enable bits; copied.
     * @param sendCq     completion queue for the send queue, or null.
     * @param recvCq     completion queue for the receive queue, or null.
     * @return an idle VI.
     * @throws IllegalArgumentException if the ptag is missing or foreign, the reliability level unsupported, RDMA
     *                                  Read asked for at the unreliable level, or the transfer size too large.
     * @throws ViaException             with {@link ViaError#ERROR_RESOURCE} past the VI limit.
     */
    Vi createVi(ViAttributes attributes, CompletionQueue sendCq, CompletionQueue recvCq);

    /**
     * Server side of client/server connection: waits for a connection request with the given discriminator, as
     * {@code VipConnectWait} does.
     * <p>
     * A request whose client gave up (its {@link Vi#connectRequest} timed out) is withdrawn. Where NICs reach each
     * other's shared areas ({@code jvm}, {@code shm}) the withdrawal is done when the client's call returns, and
     * this wait never returns the request. Where it travels as a message ({@code tcp}, {@code ucx}) it may arrive
     * after this wait took the request; answering that request then fails as {@link ConnectRequest#accept(Vi)}
     * says, with {@link ViaError#NOT_REACHABLE}, and leaves the VI idle.
     *
     * @param discriminator the discriminator clients ask for.
     * @param timeoutNs     longest wait.
     * @return the request, to be accepted or rejected.
     * @throws ViaException with {@link ViaError#TIMEOUT} if no request came in time.
     */
    ConnectRequest connectWait(long discriminator, long timeoutNs);

    /**
     * Sets the handler of asynchronous errors; the default ignores them (VI state and descriptor status still tell).
     *
     * @param handler the handler, or null for the default.
     */
    void errorHandler(AsyncErrorHandler handler);

    /**
     * Whether the NIC is closed.
     *
     * @return true once closed.
     */
    boolean isClosed();

    /**
     * Closes the NIC and everything it owns; idempotent. Waits in progress return; other calls in progress on other
     * threads finish or fail. The NIC's memory (mappings, files) is released once no call is in progress: before
     * this method returns if none is, else when the last one returns (from an {@link AsyncErrorHandler}, when the
     * call that ran the handler returns).
     */
    @Override
    void close();
}
