package org.viadsm.dsm.array;

import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link IntArray} over a plain Java array, for sequential and threaded runs.
 */
final class PlainIntArray implements IntArray
{
    private final int[] array;
    private final int offset;
    private final int length;

    PlainIntArray(final int[] array, final int offset, final int length)
    {
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    @Override
    public int length()
    {
        return length;
    }

    @Override
    public int get(final int index)
    {
        return array[offset + Objects.checkIndex(index, length)];
    }

    @Override
    public void set(final int index, final int value)
    {
        array[offset + Objects.checkIndex(index, length)] = value;
    }

    @Override
    public void get(final int from, final int[] dst, final int dstOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(array, offset + from, dst, dstOffset, length);
    }

    @Override
    public void set(final int from, final int[] src, final int srcOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(src, srcOffset, array, offset + from, length);
    }

    @Override
    public void fill(final int value)
    {
        Arrays.fill(array, offset, offset + length, value);
    }

    @Override
    public void fill(final int from, final int to, final int value)
    {
        Objects.checkFromToIndex(from, to, length);
        Arrays.fill(array, offset + from, offset + to, value);
    }

    @Override
    public IntArray range(final int from, final int to)
    {
        Objects.checkFromToIndex(from, to, length);
        return new PlainIntArray(array, offset + from, to - from);
    }

    @Override
    public String toString()
    {
        return "PlainIntArray{length=" + length + '}';
    }
}
