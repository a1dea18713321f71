package org.viadsm.via.internal;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Memory the engine laid out itself (a NIC area's records, rings and tables, a descriptor), read and written without
 * a bounds check per access: the span is checked once, when the flyweight over it is made, and every offset its
 * users pass is in the span by construction (a constant within a record, a ring index masked to the ring's depth, a
 * table index checked against the table's capacity first). The engine's flyweights make dozens of accesses per
 * operation, and a check on each was a fifth of a Send's time; memory a user or a peer names (data segments,
 * handles) is checked as before, through the registration table and {@link org.agrona.concurrent.UnsafeBuffer}.
 * <p>
 * It keeps the address the buffer had when it was made: a buffer wrapped again later does not move it.
 * <p>
 * Offsets are relative to the start of the buffer it was made over; the methods mirror
 * {@link AtomicBuffer}'s, with the same memory semantics.
 * <p>
 * <b>Note:</b> thread-safe as the memory is: a flyweight with final fields.
 */
public final class CheckedSpan
{
    private final Object array;
    private final long address;
    private final int capacity;

    /**
     * Accesses the span {@code [offset, offset + length)} of a buffer, with offsets relative to the buffer's start.
     *
     * @param buffer the area.
     * @param offset first byte of the span the user accesses.
     * @param length bytes of the span.
     * @throws IllegalArgumentException if the span is not inside the buffer.
     */
    public CheckedSpan(final AtomicBuffer buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || offset > buffer.capacity() - length)
        {
            throw new IllegalArgumentException("span [" + offset + ", " + ((long)offset + length) +
                ") is outside the buffer of " + buffer.capacity() + " bytes");
        }
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset();
        this.capacity = buffer.capacity();
    }

    /**
     * Bytes of the buffer it was made over.
     *
     * @return the capacity.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * As {@link AtomicBuffer#getShort(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public short getShort(final int index)
    {
        return UnsafeApi.getShort(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putShort(int, short)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putShort(final int index, final short value)
    {
        UnsafeApi.putShort(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getInt(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public int getInt(final int index)
    {
        return UnsafeApi.getInt(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putInt(int, int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putInt(final int index, final int value)
    {
        UnsafeApi.putInt(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getLong(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public long getLong(final int index)
    {
        return UnsafeApi.getLong(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putLong(int, long)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putLong(final int index, final long value)
    {
        UnsafeApi.putLong(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getIntVolatile(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public int getIntVolatile(final int index)
    {
        return UnsafeApi.getIntVolatile(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putIntVolatile(int, int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putIntVolatile(final int index, final int value)
    {
        UnsafeApi.putIntVolatile(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getIntAcquire(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public int getIntAcquire(final int index)
    {
        return UnsafeApi.getIntAcquire(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putIntRelease(int, int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putIntRelease(final int index, final int value)
    {
        UnsafeApi.putIntRelease(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getLongVolatile(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public long getLongVolatile(final int index)
    {
        return UnsafeApi.getLongVolatile(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putLongVolatile(int, long)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putLongVolatile(final int index, final long value)
    {
        UnsafeApi.putLongVolatile(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#getLongAcquire(int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @return the value.
     */
    public long getLongAcquire(final int index)
    {
        return UnsafeApi.getLongAcquire(array, address + index);
    }

    /**
     * As {@link AtomicBuffer#putLongRelease(int, long)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param value the value.
     */
    public void putLongRelease(final int index, final long value)
    {
        UnsafeApi.putLongRelease(array, address + index, value);
    }

    /**
     * As {@link AtomicBuffer#compareAndSetInt(int, int, int)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param expected the expected value.
     * @param value the value.
     * @return true if set.
     */
    public boolean compareAndSetInt(final int index, final int expected, final int value)
    {
        return UnsafeApi.compareAndSetInt(array, address + index, expected, value);
    }

    /**
     * As {@link AtomicBuffer#compareAndSetLong(int, long, long)}, unchecked.
     *
     * @param index offset from the buffer's start, in the span.
     * @param expected the expected value.
     * @param value the value.
     * @return true if set.
     */
    public boolean compareAndSetLong(final int index, final long expected, final long value)
    {
        return UnsafeApi.compareAndSetLong(array, address + index, expected, value);
    }
}
