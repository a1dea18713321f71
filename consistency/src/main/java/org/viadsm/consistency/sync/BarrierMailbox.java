package org.viadsm.consistency.sync;

import org.viadsm.consistency.ControlRegionLayout;

/**
 * What a node knows of the barrier from its notifications: which round messages have arrived (one slot per epoch
 * parity and round, holding the sender's barrier kind), and whether, and from which barrier on, a node broke the
 * barrier. Also the encoding of the barrier's notification arguments; barrier numbers travel modulo
 * {@code 2^20} and are compared as such.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class BarrierMailbox
{
    private static final int EPOCH_BITS = 20;
    private static final int EPOCH_MASK = (1 << EPOCH_BITS) - 1;

    /**
     * The argument of a two-node barrier's wake-up: the partner arrived at the barrier this node asked to be woken
     * at ({@link PairBarrier}); its arrival is in this node's memory, so the notification carries nothing else.
     */
    static final int PAIR_WAKE = 1 << 10;

    private final byte[] arrived = new byte[2 * ControlRegionLayout.MAX_ROUNDS];
    private String broken;
    private int brokenAtEpoch;

    static int epochArgument(final long epoch)
    {
        return (int)(epoch & EPOCH_MASK);
    }

    static int barrierArgument(final int kind, final int parity, final int round)
    {
        return kind << 9 | parity << 8 | round;
    }

    static int brokenArgument(final int reason, final long epoch)
    {
        return reason << EPOCH_BITS | epochArgument(epoch);
    }

    /** Whether barrier number {@code earlier} comes before {@code epoch}, compared modulo the 20-bit field. */
    static boolean isBefore(final long earlier, final long epoch)
    {
        final int behind = (int)((epoch - earlier) & EPOCH_MASK);
        return behind != 0 && behind < (EPOCH_MASK >> 1);
    }

    static String kindName(final int kind)
    {
        return SyncState.FULL_BARRIER == kind ? "a barrier" : "an allocation or another collective";
    }

    /**
     * A round message arrived (a two-node barrier's wake-up is only taken in).
     *
     * @param argument its notification argument.
     */
    void onRound(final int argument)
    {
        if (0 != (argument & PAIR_WAKE))
        {
            return;
        }
        arrived[slot((argument >>> 8) & 1, argument & 0xFF)] = (byte)(1 + ((argument >>> 9) & 1));
    }

    /**
     * Takes a round's message if it has arrived.
     *
     * @param parity the epoch parity.
     * @param round  the round.
     * @return the sender's barrier kind, or -1 if it has not arrived.
     */
    int take(final int parity, final int round)
    {
        final int slot = slot(parity, round);
        final int kind = arrived[slot] - 1;
        arrived[slot] = 0;
        return kind;
    }

    /**
     * A node broke the barrier, or this node does; the first breaking counts.
     *
     * @param node     the node that broke it.
     * @param argument its {@link #brokenArgument(int, long)}.
     * @return true if this is the first breaking.
     */
    boolean onBroken(final int node, final int argument)
    {
        if (null != broken)
        {
            return false;
        }
        brokenAtEpoch = argument & EPOCH_MASK;
        broken = "node " + node + (SyncState.BROKEN_BY_INTERRUPT == argument >>> EPOCH_BITS ? " was interrupted" :
            " timed out") + " in it";
        return true;
    }

    /**
     * Whether barrier {@code epoch} is broken: some node broke it or an earlier one.
     *
     * @param epoch the barrier's number.
     * @return true if it cannot complete.
     */
    boolean isBroken(final long epoch)
    {
        return null != broken && !isBefore(epoch, brokenAtEpoch);
    }

    /**
     * Why the barrier is broken.
     *
     * @return e.g. {@code node 2 timed out in it}; null while it is not.
     */
    String broken()
    {
        return broken;
    }

    private static int slot(final int parity, final int round)
    {
        return parity * ControlRegionLayout.MAX_ROUNDS + round;
    }
}
