package org.viadsm.consistency.page;

import java.util.Arrays;

/**
 * The overwritten ranges of the node's {@link PageState#WRITE_ONLY} pages, by global page: up to {@link #RANGES}
 * ranges of bytes apart per page, each the first byte in the high half of a long and the end in the low; 0 is no
 * range. Pages are fetched before they would need more.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class OverwrittenRanges
{
    /** Ranges a page keeps apart before it is fetched. */
    static final int RANGES = 4;

    private long[] ranges = new long[0];

    /**
     * Gives a page one range, its first.
     */
    void start(final int globalPage, final int from, final int to)
    {
        final int base = globalPage * RANGES;
        if (base + RANGES > ranges.length)
        {
            ranges = Arrays.copyOf(ranges, Math.max(base + RANGES, 2 * ranges.length));
        }
        Arrays.fill(ranges, base, base + RANGES, 0L);
        ranges[base] = pack(from, to);
    }

    int from(final int globalPage, final int range)
    {
        return (int)(ranges[globalPage * RANGES + range] >>> 32);
    }

    /**
     * The end of a range, exclusive: 0 for no range.
     */
    int to(final int globalPage, final int range)
    {
        return (int)ranges[globalPage * RANGES + range];
    }

    /**
     * Adds bytes {@code [from, to)}: widens the range they overlap or adjoin (merging a range the widened one then
     * reaches), or takes a free one.
     *
     * @return false if every range is taken and apart from them: the page must be fetched.
     */
    boolean add(final int globalPage, final int from, final int to)
    {
        final int base = globalPage * RANGES;
        int free = -1;
        for (int range = 0; range < RANGES; range++)
        {
            final int rangeFrom = from(globalPage, range);
            final int rangeTo = to(globalPage, range);
            if (0 == rangeTo)
            {
                free = free < 0 ? range : free;
            }
            else if (from <= rangeTo && to >= rangeFrom)
            {
                int newFrom = Math.min(from, rangeFrom);
                int newTo = Math.max(to, rangeTo);
                for (int other = 0; other < RANGES; other++)
                {
                    final int otherFrom = from(globalPage, other);
                    final int otherTo = to(globalPage, other);
                    if (other != range && 0 != otherTo && otherFrom <= newTo && otherTo >= newFrom)
                    {
                        newFrom = Math.min(newFrom, otherFrom);
                        newTo = Math.max(newTo, otherTo);
                        ranges[base + other] = 0L;
                    }
                }
                ranges[base + range] = pack(newFrom, newTo);
                return true;
            }
        }
        if (free >= 0)
        {
            ranges[base + free] = pack(from, to);
            return true;
        }
        return false;
    }

    private static long pack(final int from, final int to)
    {
        return ((long)from << 32) | to;
    }
}
