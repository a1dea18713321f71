package org.viadsm.consistency.page;

/**
 * When this node leaves the copysets of an array's pages it does not read any more. A registered page whose copy
 * stays invalid at {@link #leaveAfter()} barriers in a row is left, so that its home can write it without faults
 * again. A page read again after it was left shows that the array's pages are read with longer gaps: the array
 * waits twice as many barriers before it leaves (up to {@link #MAX_LEAVE_BARRIERS}), so that a node that reads
 * pages every few phases does not pay a leave and a rejoin (three remote atomics) for each of them.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class CopysetMembership
{
    /** Barriers in a row a page's copy is invalid at before it is left, at first. */
    static final int MIN_LEAVE_BARRIERS = 2;
    /** The most barriers a page waits before it is left. */
    static final int MAX_LEAVE_BARRIERS = 64;

    private final byte[] invalidBarriers;
    private final long[] left;
    private int leaveAfter = MIN_LEAVE_BARRIERS;
    private int counting;

    CopysetMembership(final int pages, final int words)
    {
        this.invalidBarriers = new byte[pages];
        this.left = new long[words];
    }

    /**
     * Barriers in a row a registered page's copy must be invalid at before the page is left.
     *
     * @return the count, from {@link #MIN_LEAVE_BARRIERS} to {@link #MAX_LEAVE_BARRIERS}.
     */
    int leaveAfter()
    {
        return leaveAfter;
    }

    /**
     * A barrier: of a copyset word's registered pages, given which are invalid, the ones to leave now.
     *
     * @param word       the copyset word.
     * @param registered its registered pages.
     * @param invalid    those of them whose copy is invalid.
     * @return the pages to leave, a subset of {@code invalid}.
     */
    long barrier(final int word, final long registered, final long invalid)
    {
        long leave = 0;
        for (long bits = registered; 0 != bits; bits &= bits - 1)
        {
            final int bit = Long.numberOfTrailingZeros(bits);
            final int page = (word << 6) + bit;
            final int before = invalidBarriers[page];
            int after = 0;
            if (0 != (invalid & (1L << bit)))
            {
                after = before + 1;
                if (after >= leaveAfter)
                {
                    after = 0;
                    leave |= 1L << bit;
                }
            }
            invalidBarriers[page] = (byte)after;
            counting += (0 == after ? 0 : 1) - (0 == before ? 0 : 1);
        }
        left[word] |= leave;
        return leave;
    }

    /**
     * Whether some registered page has been invalid at a barrier and not left yet: while none has, and no page is
     * invalid now, a barrier has nothing to count or leave.
     *
     * @return true if a page's count of invalid barriers is under way.
     */
    boolean isCounting()
    {
        return 0 != counting;
    }

    /**
     * Pages of a copyset word are joined: if one of them was left before, the array waits longer before it leaves.
     *
     * @param word   the copyset word.
     * @param joined the pages joined.
     * @return true if a page joined had been left.
     */
    boolean joined(final int word, final long joined)
    {
        if (0 == (left[word] & joined))
        {
            return false;
        }
        left[word] &= ~joined;
        leaveAfter = Math.min(MAX_LEAVE_BARRIERS, leaveAfter << 1);
        return true;
    }
}
