package org.viadsm.via.engine;

import java.nio.ByteBuffer;

import org.viadsm.via.NicContext;

/**
 * The provider SPI: what a provider plugs into the engine's {@link EngineNic} to make a NIC of its kind. The engine
 * owns the NIC's shared area, its queues, registration, waits, failure detection and the target-side checks; a
 * transport says how the NIC reaches its peers and their memory, how its waiters are woken and, for providers that
 * reach peers only through messages, how VIs connect and how the caller's thread makes progress. Its roles:
 * <ul>
 * <li><b>Reach</b>: {@link #resolvePeer(String)}, the peer's area and memory as an initiator on this host sees
 * them.</li>
 * <li><b>Memory</b>: {@link #mapMemory}, {@link #unmapMemory}, {@link #registersForeignMemory()} and
 * {@link #onRegistrationChanged(int)}; the defaults map memory private to this process, for providers whose peers
 * never map it.</li>
 * <li><b>Connections</b>: {@link #connector()}, null by default for the engine's own, which works on the peers'
 * shared areas.</li>
 * <li><b>Progress</b>: {@link #progress(boolean)}, {@link #block(long)}, {@link #onWaitEnd()} and
 * {@link #checkTransport()}, for a transport
 * whose operations complete asynchronously; by default nothing, since initiators complete operations inline.</li>
 * <li><b>Wake-ups</b>: {@link #wakesArmedWaiters()}, {@link #acquireBell()} and {@link #releaseBell(Bell)}; by
 * default waits nobody can wake poll.</li>
 * <li><b>Release</b>: {@link #close()}, once the engine has closed everything of the NIC.</li>
 * </ul>
 * A provider makes its NIC with {@link EngineNic#EngineNic(String, NicArea, org.viadsm.via.NicAttributes,
 * NicContext, long, java.util.function.Function)}, which builds the transport once the NIC exists.
 * <p>
 * <b>Note:</b> every method may be called by any thread that calls into the NIC; an implementation synchronizes
 * with its own threads.
 */
public interface NicTransport extends AutoCloseable
{
    /**
     * Reaches another NIC by address; called once per address, the engine caches the result.
     *
     * @param address the peer's address.
     * @return the peer.
     * @throws org.viadsm.via.ViaException with {@link org.viadsm.via.ViaError#NOT_REACHABLE} if no open NIC answers
     *                                     there.
     */
    PeerNic resolvePeer(String address);

    /**
     * Maps zeroed, sparse, page-aligned memory for {@link org.viadsm.via.Nic#allocateMemory(int)}. The default
     * maps memory private to this process, backed by a file deleted at once in the context's directory.
     *
     * @param context      the NIC's settings.
     * @param allocationId the allocation's id, unique in this NIC, never 0.
     * @param length       bytes.
     * @return the memory.
     */
    default ByteBuffer mapMemory(final NicContext context, final long allocationId, final int length)
    {
        return SparseMemory.mapUnlinked(context.shmDirectory(), length);
    }

    /**
     * Releases memory from {@link #mapMemory}. The default leaves the unmapping to the garbage collector, since
     * threads other than the owner's (a peer's initiator, a provider's engine) may still be copying from it.
     *
     * @param allocationId the allocation's id.
     * @param buffer       the memory.
     */
    default void unmapMemory(final long allocationId, final ByteBuffer buffer)
    {
        // unmapped by the garbage collector once nobody reaches it
    }

    /**
     * Whether any direct buffer may be registered, or only memory from {@link #mapMemory}. The default accepts
     * any, as a provider whose peers never map the memory can.
     *
     * @return true if any direct buffer may be registered.
     */
    default boolean registersForeignMemory()
    {
        return true;
    }

    /**
     * After an entry of the registration table was published or retired, under the NIC's lock, before
     * {@code registerMemory} or {@code deregisterMemory} returns: a transport whose initiators check a copy of the
     * table updates the copies here. The default does nothing.
     *
     * @param index the entry's index.
     */
    default void onRegistrationChanged(final int index)
    {
    }

    /**
     * Called by the periodic failure check of any call into the NIC (every failure-check interval): a transport
     * whose peers' messages (a disconnection, a broken connection) are taken only when a thread of this process
     * makes progress takes them here, so that even a thread that only polls VI states learns of them. The default
     * does nothing.
     */
    default void checkTransport()
    {
    }

    /**
     * How the NIC connects its VIs, when the provider reaches its peers only through messages.
     *
     * @return the connector, the same on every call; null (the default) for the engine's own, which works on the
     *         peers' shared areas.
     */
    default Connector connector()
    {
        return null;
    }

    /**
     * Lets an application thread make progress on the transport: called by done calls that found nothing, and
     * repeatedly by waits during their spin phase. The default does nothing, for transports whose initiators
     * complete operations inline.
     *
     * @param spinning true from a wait's spin phase (the thread will call again soon), false from a done call.
     * @return the work done, 0 if none.
     */
    default int progress(final boolean spinning)
    {
        return 0;
    }

    /**
     * Lets a waiting application thread, past its spin phase, block in the transport (and make progress when it
     * wakes) instead of parking; it must return within about {@code timeoutNs}. The default does not block.
     *
     * @param timeoutNs how long the thread would have parked.
     * @return true if the thread blocked, false to park it.
     */
    default boolean block(final long timeoutNs)
    {
        return false;
    }

    /**
     * Called when a wait that went past its spin phase (so parked or blocked) ends, whether it succeeded or not.
     * The default does nothing.
     */
    default void onWaitEnd()
    {
    }

    /**
     * Whether every completer of the NIC's receive and completion queues runs in this process, so that unparking a
     * waiter always reaches it and waits may sleep parked (see {@link Idler}). The default is false: waits that get
     * no bell poll.
     *
     * @return true if a parked waiter is always unparked.
     */
    default boolean wakesArmedWaiters()
    {
        return false;
    }

    /**
     * Lends a waiting thread, past its spin phase, a bell to sleep on, which completers in other processes ring; the
     * thread gives it back with {@link #releaseBell(Bell)} when its wait ends. The default lends none.
     *
     * @return a bell no other thread holds, or null if the thread cannot sleep on one (it parks or polls).
     */
    default Bell acquireBell()
    {
        return null;
    }

    /**
     * Takes back a bell from {@link #acquireBell()}.
     *
     * @param bell the bell.
     */
    default void releaseBell(final Bell bell)
    {
    }

    /**
     * Releases the transport's resources (sockets, threads, the area, files, registry entries) once the engine has
     * closed everything of the NIC; called once.
     */
    @Override
    void close();
}
