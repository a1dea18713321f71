package org.viadsm.dsm.array;

import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link DoubleArray} over a plain Java array, for sequential and threaded runs.
 */
final class PlainDoubleArray implements DoubleArray
{
    private final double[] array;
    private final int offset;
    private final int length;

    PlainDoubleArray(final double[] array, final int offset, final int length)
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
    public double get(final int index)
    {
        return array[offset + Objects.checkIndex(index, length)];
    }

    @Override
    public void set(final int index, final double value)
    {
        array[offset + Objects.checkIndex(index, length)] = value;
    }

    @Override
    public void get(final int from, final double[] dst, final int dstOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(array, offset + from, dst, dstOffset, length);
    }

    @Override
    public void set(final int from, final double[] src, final int srcOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(src, srcOffset, array, offset + from, length);
    }

    @Override
    public void fill(final double value)
    {
        Arrays.fill(array, offset, offset + length, value);
    }

    @Override
    public void fill(final int from, final int to, final double value)
    {
        Objects.checkFromToIndex(from, to, length);
        Arrays.fill(array, offset + from, offset + to, value);
    }

    @Override
    public DoubleArray range(final int from, final int to)
    {
        Objects.checkFromToIndex(from, to, length);
        return new PlainDoubleArray(array, offset + from, to - from);
    }

    @Override
    public String toString()
    {
        return "PlainDoubleArray{length=" + length + '}';
    }
}
