package org.viadsm.consistency.port;

import org.agrona.concurrent.AtomicBuffer;

/**
 * What the consistency protocol needs from the network: one-sided reads, writes and atomics on the registered
 * regions of any node, writes that also deliver a notification, and a way to wait for notifications. The dsm module
 * implements it over VIA ({@code RDMA Read}, {@code RDMA Write}, {@code RDMA Write} with immediate data, remote
 * atomics); tests implement it in memory.
 * <p>
 * Regions are numbered the same on every node: region {@code r} of node {@code n} is node {@code n}'s copy of
 * shared region {@code r} (region 0 is the protocol's control region). Offsets are byte offsets into a region.
 * Operations on the calling node's own regions are performed directly on local memory, with the same semantics.
 * <p>
 * Ordering: operations to one node take effect in the order they are issued. {@link #read} and the atomics
 * return once complete. {@link #write} and {@link #writeAndNotify} may return before the data has reached the
 * target; {@link #flushWrites()} waits until every write issued so far is in its target's memory, and a
 * notification is delivered only after the data written with it. Issued operations complete without further
 * calls, as a NIC makes progress on its own: a node may wait for a peer's reply to a notification it has not
 * flushed.
 * <p>
 * Memory consistency effects: a completed write happens-before any read of the written bytes that follows, on
 * any node, an atomic or notification that the writer issued after {@link #flushWrites()} returned.
 * <p>
 * <b>Note:</b> a port is used by one thread: the node's application thread.
 */
public interface ProtocolPort
{
    /**
     * This node's id.
     *
     * @return the node id, from 0.
     */
    int nodeId();

    /**
     * Number of nodes.
     *
     * @return the node count.
     */
    int nodeCount();

    /**
     * This node's memory for region {@code region}.
     *
     * @param region the region id.
     * @return the local buffer.
     * @throws IllegalArgumentException if the region is not registered.
     */
    AtomicBuffer region(int region);

    /**
     * Copies {@code length} bytes from a node's region into a local region, and returns when they are there.
     *
     * @param node         the node to read from.
     * @param region       its region.
     * @param offset       offset in that region.
     * @param localRegion  destination region of this node.
     * @param localOffset  offset in the destination.
     * @param length       bytes.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    void read(int node, int region, long offset, int localRegion, long localOffset, int length);

    /**
     * Starts a read, as {@link #read}, that {@link #awaitReads()} completes, so that reads from several nodes, or
     * several reads from one node, cost one round trip together. The destination must not be used until then.
     * Reads started between two waits take effect after the operations issued to the node before them, in any
     * order among themselves. The default reads at once.
     *
     * @param node        the node to read from.
     * @param region      its region.
     * @param offset      offset in that region.
     * @param localRegion destination region of this node.
     * @param localOffset offset in the destination.
     * @param length      bytes.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    default void startRead(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        read(node, region, offset, localRegion, localOffset, length);
    }

    /**
     * Starts a compare-and-swap, as {@link #compareAndSwap}, whose previous value lands in local memory (the 8 bytes
     * at {@code localOffset} of {@code localRegion}) by the time {@link #awaitReads()} returns, so that atomics on
     * one node cost one round trip together. It takes effect after every operation issued to the node before it,
     * and before every operation issued to it after it. The default runs it at once.
     *
     * @param node        the node.
     * @param region      its region.
     * @param offset      offset of the word, a multiple of 8.
     * @param expected    the value the word must hold.
     * @param update      the new value.
     * @param localRegion region of this node that receives the previous value.
     * @param localOffset its offset there, a multiple of 8.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    default void startCompareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update, final int localRegion, final long localOffset)
    {
        region(localRegion).putLong((int)localOffset, compareAndSwap(node, region, offset, expected, update));
    }

    /**
     * Waits until every read started with {@link #startRead}, and the previous value of every compare-and-swap
     * started with {@link #startCompareAndSwap}, is in local memory.
     *
     * @throws org.viadsm.consistency.ProtocolException if a read or an atomic failed.
     */
    default void awaitReads()
    {
    }

    /**
     * Starts copying {@code length} bytes from a local region into a node's region; the source must not change
     * until {@link #flushWrites()} returns, or until a later read from the same node into it, which takes effect
     * after the write, returns.
     *
     * @param node        the node to write to.
     * @param region      its region.
     * @param offset      offset in that region.
     * @param localRegion source region of this node.
     * @param localOffset offset in the source.
     * @param length      bytes.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    void write(int node, int region, long offset, int localRegion, long localOffset, int length);

    /**
     * Starts a write, as {@link #write}, that also delivers {@code notification} to the node once the data is in
     * its memory. {@code length} may be 0 to send the notification alone.
     *
     * @param node         the node.
     * @param region       its region.
     * @param offset       offset in that region.
     * @param localRegion  source region of this node.
     * @param localOffset  offset in the source.
     * @param length       bytes, possibly 0.
     * @param notification the 32-bit notification, see {@link Notifications}.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    void writeAndNotify(int node, int region, long offset, int localRegion, long localOffset, int length,
        int notification);

    /**
     * Waits until every write issued so far is in its target's memory.
     *
     * @throws org.viadsm.consistency.ProtocolException if a write failed.
     */
    void flushWrites();

    /**
     * Atomically replaces the aligned 8-byte word at {@code offset} of a node's region with {@code update} if it
     * holds {@code expected}.
     *
     * @param node     the node.
     * @param region   its region.
     * @param offset   offset of the word, a multiple of 8.
     * @param expected the value the word must hold.
     * @param update   the new value.
     * @return the word's previous value (equal to {@code expected} if and only if it was replaced).
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    long compareAndSwap(int node, int region, long offset, long expected, long update);

    /**
     * Atomically adds {@code delta} to the aligned 8-byte word at {@code offset} of a node's region.
     *
     * @param node   the node.
     * @param region its region.
     * @param offset offset of the word, a multiple of 8.
     * @param delta  the addend.
     * @return the word's previous value.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    long fetchAndAdd(int node, int region, long offset, long delta);

    /**
     * Starts an atomic add, as {@link #fetchAndAdd}, whose previous value is not needed, and returns without waiting
     * for it. It takes effect before every operation issued after it to the same node; the next operation to that
     * node that waits for its completion ({@link #read}, an atomic, {@link #flushWrites()}) waits for it too, and
     * reports its failure.
     *
     * @param node   the node.
     * @param region its region.
     * @param offset offset of the word, a multiple of 8.
     * @param delta  the addend.
     * @throws org.viadsm.consistency.ProtocolException if the node cannot be reached.
     */
    default void postFetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        fetchAndAdd(node, region, offset, delta);
    }

    /**
     * Delivers the notifications that have arrived, without waiting.
     *
     * @param handler receives each notification and each peer failure.
     * @return the number of events delivered.
     */
    int pollNotifications(NotificationHandler handler);

    /**
     * Delivers notifications, waiting up to {@code timeoutNs} for at least one event: spins briefly, then parks.
     *
     * @param timeoutNs longest wait.
     * @param handler   receives each notification and each peer failure.
     * @return the number of events delivered; 0 on timeout.
     */
    int awaitNotifications(long timeoutNs, NotificationHandler handler);
}
