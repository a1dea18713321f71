package org.viadsm.consistency.sync;

import java.lang.invoke.VarHandle;

import org.viadsm.consistency.Counter;
import org.viadsm.consistency.port.Notifications;

/**
 * The arrivals of a barrier of two nodes: each node's arrival is one word, which it adds into its partner's arrival
 * word ({@code ControlRegionLayout.pairArrival}, one per epoch parity) with a remote fetch-and-add, and which the
 * partner polls in its own memory. No receive is consumed and no completion is posted at the partner, so an arrival
 * costs one atomic on one cache line, and noticing it one local load.
 * <p>
 * The word is the sender's whole message: the barrier's number modulo {@code 2^20}, its kind, whether the sender had
 * the partner's word when it sent its own (the arrival order, see {@link BarrierProtocol}), and the sender's own
 * clock entry: of two nodes' clocks only the sender's own entry can be news to the receiver. The sender alone writes
 * the word, so it knows its value and adds the difference.
 * <p>
 * A waiter that is about to sleep cannot be woken by a word. It puts the barrier's number in its partner's wake
 * request word first, waits until that landed, and looks for the partner's arrival once more; an arriving node waits
 * until its word landed and then reads its wake request, and notifies the partner if the request names this barrier.
 * Each writes, waits for the write, then reads the other's word, so at least one of them sees the other's: the
 * sleeper finds the arrival, or the arriving node the request (a notification that comes when the waiter has already
 * found the word is taken in and ignored).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class PairBarrier
{
    private static final int EPOCH_BITS = 20;
    private static final long EPOCH_MASK = (1L << EPOCH_BITS) - 1;
    private static final int KIND_SHIFT = EPOCH_BITS;
    private static final int SAW_SHIFT = EPOCH_BITS + 1;
    private static final int SEQUENCE_SHIFT = EPOCH_BITS + 2;
    /** The largest clock entry a word carries. */
    static final long MAX_SEQUENCE = (1L << (Long.SIZE - SEQUENCE_SHIFT)) - 1;

    private final SyncNode node;
    private final int partner;
    private final long[] sent = new long[2];
    private long wakeRequested;

    /**
     * The arrivals of a node of two.
     *
     * @param node the node's synchronization plumbing.
     */
    PairBarrier(final SyncNode node)
    {
        this.node = node;
        this.partner = 1 - node.nodeId;
    }

    /**
     * The arrival word of a node.
     *
     * @param sequence   the sender's own clock entry, at most {@link #MAX_SEQUENCE}.
     * @param kind       the barrier kind, {@link SyncState#FULL_BARRIER} or {@link SyncState#SYNC_BARRIER}.
     * @param sawPartner whether the partner's word for this barrier was in when the sender looked.
     * @param epoch      the barrier's number.
     * @return the word.
     */
    static long word(final long sequence, final int kind, final boolean sawPartner, final long epoch)
    {
        return sequence << SEQUENCE_SHIFT | (sawPartner ? 1L << SAW_SHIFT : 0) | (long)kind << KIND_SHIFT |
            (epoch & EPOCH_MASK);
    }

    /**
     * Whether a word is the arrival at barrier {@code epoch}; a word of an earlier barrier of the same parity is not.
     *
     * @param word  the word.
     * @param epoch the barrier's number.
     * @return true if it is.
     */
    static boolean isFor(final long word, final long epoch)
    {
        return (word & EPOCH_MASK) == (epoch & EPOCH_MASK);
    }

    /**
     * The barrier kind a word carries.
     *
     * @param word the word.
     * @return {@link SyncState#FULL_BARRIER} or {@link SyncState#SYNC_BARRIER}.
     */
    static int kind(final long word)
    {
        return (int)(word >>> KIND_SHIFT) & 1;
    }

    /**
     * Whether the sender of a word had the receiver's word when it sent it.
     *
     * @param word the word.
     * @return the flag.
     */
    static boolean sawPartner(final long word)
    {
        return 0 != (word & 1L << SAW_SHIFT);
    }

    /**
     * The sender's own clock entry a word carries.
     *
     * @param word the word.
     * @return the entry.
     */
    static long sequence(final long word)
    {
        return word >>> SEQUENCE_SHIFT;
    }

    /**
     * The partner.
     *
     * @return its node id.
     */
    int partner()
    {
        return partner;
    }

    /**
     * Arrives: adds this node's word into the partner's arrival word of the barrier's parity, waits until it landed,
     * and notifies the partner if it asked to be woken at this barrier.
     *
     * @param word  this node's word, see {@link #word(long, int, boolean, long)}.
     * @param epoch the barrier's number.
     */
    void arrive(final long word, final long epoch)
    {
        final int parity = (int)(epoch & 1);
        node.port.postFetchAndAdd(partner, SyncNode.CONTROL, node.layout.pairArrival(parity), word - sent[parity]);
        sent[parity] = word;
        node.port.flushWrites();
        VarHandle.fullFence();
        if (epoch == node.control.getLongVolatile(node.layout.pairWakeRequest()))
        {
            node.port.writeAndNotify(partner, SyncNode.CONTROL, 0, SyncNode.CONTROL, 0, 0,
                Notifications.of(Notifications.BARRIER, BarrierMailbox.PAIR_WAKE));
            node.counters.increment(Counter.MESSAGES_SENT);
        }
    }

    /**
     * Asks the partner to notify this node when it arrives at barrier {@code epoch}, and waits until the request
     * landed; the caller then looks for the partner's word once more before it sleeps.
     *
     * @param epoch the barrier's number.
     */
    void requestWake(final long epoch)
    {
        if (wakeRequested == epoch)
        {
            return;
        }
        node.port.postFetchAndAdd(partner, SyncNode.CONTROL, node.layout.pairWakeRequest(), epoch - wakeRequested);
        wakeRequested = epoch;
        node.port.flushWrites();
        VarHandle.fullFence();
    }
}
