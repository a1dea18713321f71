package org.viadsm.consistency.diff;

import org.agrona.DirectBuffer;

/**
 * Finds the runs of a page that differ from its twin, at the granularity of the array's elements.
 * <p>
 * Unchanged stretches are skipped with the JDK's vectorised mismatch ({@link ByteMismatch}), so a page with a few
 * changed words costs a scan at memory speed; a word that differs is split into its elements, so a run never
 * includes an element this node did not change. That is what lets several nodes write different elements of one
 * page, even of one 8-byte word (adjacent ints or bytes), without one node's diff writing back a stale copy of
 * another's element.
 */
public final class DiffEncoder
{
    private DiffEncoder()
    {
    }

    /**
     * Computes the runs where {@code page} differs from {@code twin}.
     *
     * @param page        the current contents.
     * @param pageOffset  where the page starts in {@code page}.
     * @param twin        the contents when the page was first written.
     * @param twinOffset  where the twin starts in {@code twin}.
     * @param length      bytes to compare, a multiple of 8.
     * @param elementSize 1, 2, 4 or 8: bytes per array element, the smallest unit a run may start or end on.
     * @param runs        cleared, then filled with the runs, offsets relative to the page.
     * @return the number of runs.
     */
    public static int encode(
        final DirectBuffer page,
        final int pageOffset,
        final DirectBuffer twin,
        final int twinOffset,
        final int length,
        final int elementSize,
        final DiffRuns runs)
    {
        runs.clear();
        int runStart = -1;
        for (int word = 0; word < length; word += Long.BYTES)
        {
            if (runStart < 0)
            {
                final int changed = ByteMismatch.find(page, pageOffset + word, twin, twinOffset + word,
                    length - word);
                if (changed < 0)
                {
                    break;
                }
                word += changed & -Long.BYTES;
            }
            final long now = page.getLong(pageOffset + word);
            final long then = twin.getLong(twinOffset + word);
            if (now == then)
            {
                if (runStart >= 0)
                {
                    runs.add(runStart, word - runStart);
                    runStart = -1;
                }
            }
            else if (Long.BYTES == elementSize)
            {
                if (runStart < 0)
                {
                    runStart = word;
                }
            }
            else
            {
                final long changed = now ^ then;
                for (int element = 0; element < Long.BYTES; element += elementSize)
                {
                    final long mask = elementMask(elementSize) << (element * Byte.SIZE);
                    final int at = word + element;
                    if ((changed & mask) != 0)
                    {
                        if (runStart < 0)
                        {
                            runStart = at;
                        }
                    }
                    else if (runStart >= 0)
                    {
                        runs.add(runStart, at - runStart);
                        runStart = -1;
                    }
                }
            }
        }
        if (runStart >= 0)
        {
            runs.add(runStart, length - runStart);
        }
        return runs.count();
    }

    private static long elementMask(final int elementSize)
    {
        return elementSize >= Long.BYTES ? -1L : (1L << (elementSize * Byte.SIZE)) - 1;
    }
}
