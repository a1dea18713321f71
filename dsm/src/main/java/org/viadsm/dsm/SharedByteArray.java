package org.viadsm.dsm;

import java.util.Objects;

import org.agrona.UnsafeApi;
import org.viadsm.consistency.page.PageState;
import org.viadsm.dsm.array.ByteArray;

/**
 * An array of bytes shared by every node of a cluster, allocated collectively with
 * {@link Dsm#allocBytes(String, int)}. It reads and writes like an ordinary array; under lazy release consistency
 * a node sees other nodes' writes after synchronizing with them (a lock acquire after their release, a barrier).
 * <p>
 * Once a page is valid on this node, an access costs one index check, one page-state check and a load or store
 * of local memory. The first read of an invalid page fetches it from its home; the first write in an interval
 * twins it (unless this node is its home). Indices are checked: {@link IndexOutOfBoundsException}, nothing written.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time; views made by {@link #range(int, int)} share
 * the same pages.
 */
public final class SharedByteArray implements ByteArray
{
    private static final int SHIFT = 0;
    private static final long ARRAY_BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    private final PageFaults faults;
    private final byte[] states;
    private final long base;
    private final int offset;
    private final int length;
    private final int pageShift;

    SharedByteArray(final PageFaults faults, final long base, final int offset, final int length)
    {
        this.faults = faults;
        this.states = faults.states();
        this.base = base;
        this.offset = offset;
        this.length = length;
        this.pageShift = faults.pageShift() - SHIFT;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int length()
    {
        return length;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public byte get(final int index)
    {
        final int element = offset + Objects.checkIndex(index, length);
        final int page = element >>> pageShift;
        if (states[page] < PageState.READ_ONLY)
        {
            faults.read(page);
        }
        return UnsafeApi.getByte(base + ((long)element << SHIFT));
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void set(final int index, final byte value)
    {
        final int element = offset + Objects.checkIndex(index, length);
        final int page = element >>> pageShift;
        if (states[page] != PageState.READ_WRITE)
        {
            faults.write(page);
        }
        UnsafeApi.putByte(base + ((long)element << SHIFT), value);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void get(final int from, final byte[] dst, final int dstOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        Objects.checkFromIndexSize(dstOffset, length, dst.length);
        if (length > 0)
        {
            final int first = offset + from;
            faults.readable(first >>> pageShift, (first + length - 1) >>> pageShift);
            UnsafeApi.copyMemory(
                null, base + ((long)first << SHIFT), dst, ARRAY_BASE + ((long)dstOffset << SHIFT),
                (long)length << SHIFT);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void set(final int from, final byte[] src, final int srcOffset, final int length)
    {
        Objects.checkFromIndexSize(from, length, this.length);
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        if (length > 0)
        {
            final int first = offset + from;
            faults.writable(first >>> pageShift, (first + length - 1) >>> pageShift);
            UnsafeApi.copyMemory(
                src, ARRAY_BASE + ((long)srcOffset << SHIFT), null, base + ((long)first << SHIFT),
                (long)length << SHIFT);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void fill(final byte value)
    {
        fill(0, length, value);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void fill(final int from, final int to, final byte value)
    {
        Objects.checkFromToIndex(from, to, length);
        if (to > from)
        {
            final int first = offset + from;
            final int last = offset + to;
            faults.writable(first >>> pageShift, (last - 1) >>> pageShift);
            for (int element = first; element < last; element++)
            {
                UnsafeApi.putByte(base + ((long)element << SHIFT), value);
            }
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public SharedByteArray range(final int from, final int to)
    {
        Objects.checkFromToIndex(from, to, length);
        return new SharedByteArray(faults, base, offset + from, to - from);
    }

    /**
     * The array's name, as allocated.
     *
     * @return the name.
     */
    public String name()
    {
        return faults.name();
    }

    /**
     * The home node of an element's page.
     *
     * @param index element index.
     * @return the node whose copy of the page is the master copy.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     */
    public int homeOf(final int index)
    {
        return faults.home((offset + Objects.checkIndex(index, length)) >>> pageShift);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "SharedByteArray{name=" + faults.name() + ", offset=" + offset + ", length=" + length + '}';
    }
}
