package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A reusable gather or scatter list: memory ranges, each a buffer, an offset and a length, resolved from data
 * segments after their protection checks. An emptied list keeps its buffers, and adding the buffer a place holds
 * stores nothing: lists are refilled with the same few registered regions, and under G1 a store of a reference into
 * this long-lived array costs a card-marking fence. The array is typed {@code Object[]}: C2 (JDK 25) guards a store
 * into an array of an interface type with a speculative store check that always fails, so the store traps
 * (array_check) and sends the methods that inlined it back to be compiled again, up to four times per JVM.
 * <p>
 * <b>Note:</b> not thread-safe; each work queue keeps its own.
 */
public final class SegmentList
{
    private final Object[] buffers;
    private final int[] offsets;
    private final int[] lengths;
    private int count;

    /**
     * Creates a list.
     *
     * @param maxSegments ranges it can hold.
     */
    public SegmentList(final int maxSegments)
    {
        this.buffers = new Object[maxSegments];
        this.offsets = new int[maxSegments];
        this.lengths = new int[maxSegments];
    }

    /**
     * Empties the list.
     *
     * @return this.
     */
    public SegmentList reset()
    {
        count = 0;
        return this;
    }

    /**
     * Appends a range.
     *
     * @param buffer the memory.
     * @param offset offset into it.
     * @param length bytes.
     * @return this.
     * @throws IllegalStateException if the list is full.
     */
    public SegmentList add(final AtomicBuffer buffer, final int offset, final int length)
    {
        if (count == buffers.length)
        {
            throw new IllegalStateException("segment list holds at most " + buffers.length + " ranges");
        }
        if (buffers[count] != buffer)
        {
            buffers[count] = buffer;
        }
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        return this;
    }

    /**
     * Ranges in the list.
     *
     * @return the count.
     */
    public int count()
    {
        return count;
    }

    /**
     * The memory of range {@code i}.
     *
     * @param i range index.
     * @return the buffer.
     */
    public AtomicBuffer buffer(final int i)
    {
        return (AtomicBuffer)buffers[i];
    }

    /**
     * The offset of range {@code i}.
     *
     * @param i range index.
     * @return the offset.
     */
    public int offset(final int i)
    {
        return offsets[i];
    }

    /**
     * The length of range {@code i}.
     *
     * @param i range index.
     * @return bytes.
     */
    public int length(final int i)
    {
        return lengths[i];
    }

    /**
     * Copies the first {@code length} bytes gathered from {@code source} into the ranges of {@code destination},
     * in order. Both lists must hold at least {@code length} bytes.
     *
     * @param source      the gather list.
     * @param destination the scatter list.
     * @param length      bytes to copy.
     */
    public static void copy(final SegmentList source, final SegmentList destination, final int length)
    {
        int remaining = length;
        int si = 0;
        int sOffset = 0;
        int di = 0;
        int dOffset = 0;
        while (remaining > 0)
        {
            final int sAvailable = source.lengths[si] - sOffset;
            final int dAvailable = destination.lengths[di] - dOffset;
            final int n = Math.min(remaining, Math.min(sAvailable, dAvailable));
            if (n > 0)
            {
                ((AtomicBuffer)destination.buffers[di]).putBytes(destination.offsets[di] + dOffset,
                    (AtomicBuffer)source.buffers[si], source.offsets[si] + sOffset, n);
            }
            remaining -= n;
            sOffset += n;
            dOffset += n;
            if (sOffset == source.lengths[si])
            {
                si++;
                sOffset = 0;
            }
            if (dOffset == destination.lengths[di] && remaining > 0)
            {
                di++;
                dOffset = 0;
            }
        }
    }
}
