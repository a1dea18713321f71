package org.viadsm.dsm.array;

import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link ByteArray} over a plain Java array, for sequential and threaded runs.
 */
final class PlainByteArray implements ByteArray
{
    private final byte[] array;
    private final int offset;
    private final int length;

    PlainByteArray(final byte[] array, final int offset, final int length)
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
    public byte get(final int index)
    {
        return array[offset + Objects.checkIndex(index, length)];
    }

    @Override
    public void set(final int index, final byte value)
    {
        array[offset + Objects.checkIndex(index, length)] = value;
    }

    @Override
    public void get(final int from, final byte[] dst, final int dstOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(array, offset + from, dst, dstOffset, length);
    }

    @Override
    public void set(final int from, final byte[] src, final int srcOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        System.arraycopy(src, srcOffset, array, offset + from, length);
    }

    @Override
    public void fill(final byte value)
    {
        Arrays.fill(array, offset, offset + length, value);
    }

    @Override
    public void fill(final int from, final int to, final byte value)
    {
        Objects.checkFromToIndex(from, to, length);
        Arrays.fill(array, offset + from, offset + to, value);
    }

    @Override
    public ByteArray range(final int from, final int to)
    {
        Objects.checkFromToIndex(from, to, length);
        return new PlainByteArray(array, offset + from, to - from);
    }

    @Override
    public String toString()
    {
        return "PlainByteArray{length=" + length + '}';
    }
}
