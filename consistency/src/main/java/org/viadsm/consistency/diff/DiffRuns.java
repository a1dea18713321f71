package org.viadsm.consistency.diff;

import java.util.Arrays;

/**
 * The runs of a diff: maximal byte ranges of a page that differ from its twin, as (offset, length) pairs in
 * ascending order. Reusable: {@link #clear()} keeps the storage.
 * <p>
 * <b>Note:</b> not threadsafe.
 */
public final class DiffRuns
{
    private int[] offsets = new int[16];
    private int[] lengths = new int[16];
    private int count;

    /**
     * Creates an empty list of runs.
     */
    public DiffRuns()
    {
    }

    /**
     * Number of runs.
     *
     * @return the run count.
     */
    public int count()
    {
        return count;
    }

    /**
     * Offset of run {@code i} within the page.
     *
     * @param i run index.
     * @return the offset in bytes.
     */
    public int offset(final int i)
    {
        return offsets[i];
    }

    /**
     * Length of run {@code i}.
     *
     * @param i run index.
     * @return the length in bytes.
     */
    public int length(final int i)
    {
        return lengths[i];
    }

    /**
     * Bytes covered by all runs.
     *
     * @return the total length.
     */
    public int totalBytes()
    {
        int total = 0;
        for (int i = 0; i < count; i++)
        {
            total += lengths[i];
        }
        return total;
    }

    /**
     * Removes every run.
     *
     * @return this.
     */
    public DiffRuns clear()
    {
        count = 0;
        return this;
    }

    /**
     * Appends a run after the last one, merging with it if they touch.
     *
     * @param offset the run's offset, at or after the end of the last run.
     * @param length the run's length, positive.
     * @return this.
     */
    public DiffRuns add(final int offset, final int length)
    {
        if (count > 0 && offsets[count - 1] + lengths[count - 1] == offset)
        {
            lengths[count - 1] += length;
            return this;
        }
        if (count == offsets.length)
        {
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("DiffRuns[");
        for (int i = 0; i < count; i++)
        {
            sb.append(i == 0 ? "" : ", ").append(offsets[i]).append('+').append(lengths[i]);
        }
        return sb.append(']').toString();
    }
}
