package org.viadsm.consistency.page;

/**
 * Which of an array's copysets this node is leaving: a registered page whose copy was invalidated, and that a
 * second write notice names before this node read it again, stops counting as a sharer at the end of that acquire,
 * so that its home, once it sees the copyset empty at a release, writes the page without faults, twins or notices
 * again. Not at the first notice: a page every lock holder reads in turn (migratory data) would then leave and
 * rejoin on every hand-off, a remote atomic each way. The pages dropped in one acquire are
 * left together, one remote atomic per copyset word and home. A page read again after it was left is joined again
 * before it is read, as any page ({@code copyset_rejoins} counts those).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class CopysetMembership
{
    private final long[] leaving;
    private final long[] left;
    private int firstLeaving = Integer.MAX_VALUE;
    private int lastLeaving = -1;

    CopysetMembership(final int words)
    {
        this.leaving = new long[words];
        this.left = new long[words];
    }

    /**
     * Pages of a copyset word whose copies were dropped: they are to be left.
     *
     * @param word    the copyset word.
     * @param dropped the pages.
     */
    void dropped(final int word, final long dropped)
    {
        leaving[word] |= dropped;
        firstLeaving = Math.min(firstLeaving, word);
        lastLeaving = Math.max(lastLeaving, word);
    }

    /**
     * The first copyset word with pages to leave, from {@code word} on.
     *
     * @param word where to start.
     * @return the word, or -1 if none.
     */
    int nextLeaving(final int word)
    {
        // an exclusive bound: a loop to an inclusive one compiles with a limit check that traps on a one-word range
        final int end = lastLeaving + 1;
        for (int w = Math.max(word, firstLeaving); w < end; w++)
        {
            if (0 != leaving[w])
            {
                return w;
            }
        }
        return -1;
    }

    /**
     * Whether pages of a copyset word are still to be left.
     *
     * @param word the copyset word.
     * @return true if some are.
     */
    boolean isLeaving(final int word)
    {
        return 0 != leaving[word];
    }

    /**
     * Takes the pages of a copyset word to leave now, and records them as left.
     *
     * @param word the copyset word.
     * @return the pages, possibly none.
     */
    long takeLeaving(final int word)
    {
        final long bits = leaving[word];
        leaving[word] = 0;
        left[word] |= bits;
        if (word == firstLeaving)
        {
            firstLeaving = word + 1;
        }
        if (firstLeaving > lastLeaving)
        {
            firstLeaving = Integer.MAX_VALUE;
            lastLeaving = -1;
        }
        return bits;
    }

    /**
     * Pages of a copyset word are joined.
     *
     * @param word   the copyset word.
     * @param joined the pages joined.
     * @return true if a page joined had been left before.
     */
    boolean joined(final int word, final long joined)
    {
        if (0 == (left[word] & joined))
        {
            return false;
        }
        left[word] &= ~joined;
        return true;
    }
}
