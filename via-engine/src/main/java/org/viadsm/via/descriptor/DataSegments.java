package org.viadsm.via.descriptor;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.internal.AgronaAccess;

import static org.viadsm.via.descriptor.DescriptorLayout.LENGTH_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.SEGMENT_ADDRESS_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.SEGMENT_COUNT_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.SEGMENT_HANDLE_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.SEGMENT_LENGTH_OFFSET;
import static org.viadsm.via.descriptor.DescriptorLayout.segmentOffset;

/**
 * The data segments of one {@link Descriptor}: a flyweight over the segment count in its control segment and the
 * (address, handle, length) entries after its address segment ({@link DescriptorLayout}), as the NIC reads them to
 * gather a send or scatter a receive. Consumers append segments with {@link Descriptor#addSegment}; every
 * descriptor has one of these, returned by {@link Descriptor#segments()}, so reading them allocates nothing.
 * <p>
 * <b>Note:</b> not thread-safe; read while the NIC owns the descriptor, or by its consumer once it is returned.
 */
public final class DataSegments
{
    // the getters take a segment index from the caller: read through the checked buffer; the count and the
    // appends, at offsets within the layout whose length the descriptor checked, at base and fields directly
    private final UnsafeBuffer buffer;
    private final Object base;
    private final long fields;
    private final int maxSegments;

    DataSegments(final AtomicBuffer buffer, final int maxSegments)
    {
        this.buffer = AgronaAccess.unsafeBuffer(buffer);
        this.base = buffer.byteArray();
        this.fields = buffer.addressOffset();
        this.maxSegments = maxSegments;
    }

    /**
     * Number of data segments in use.
     *
     * @return the segment count.
     */
    public int count()
    {
        return UnsafeApi.getShort(base, fields + SEGMENT_COUNT_OFFSET) & 0xFFFF;
    }

    /**
     * Memory handle of data segment {@code index}.
     *
     * @param index segment index.
     * @return its local memory handle.
     */
    public int handle(final int index)
    {
        return buffer.getInt(segmentOffset(index) + SEGMENT_HANDLE_OFFSET);
    }

    /**
     * Address (region offset) of data segment {@code index}.
     *
     * @param index segment index.
     * @return its offset into the region.
     */
    public long address(final int index)
    {
        return buffer.getLong(segmentOffset(index) + SEGMENT_ADDRESS_OFFSET);
    }

    /**
     * Length of data segment {@code index}.
     *
     * @param index segment index.
     * @return its length in bytes.
     */
    public int length(final int index)
    {
        return buffer.getInt(segmentOffset(index) + SEGMENT_LENGTH_OFFSET);
    }

    /**
     * Appends a segment and adds its length to the descriptor's.
     *
     * @throws IllegalStateException if every segment is already in use.
     */
    void add(final int handle, final long address, final int length)
    {
        final int count = count();
        if (count >= maxSegments)
        {
            throw new IllegalStateException("descriptor holds at most " + maxSegments + " data segments");
        }
        final int offset = segmentOffset(count);
        UnsafeApi.putLong(base, fields + offset + SEGMENT_ADDRESS_OFFSET, address);
        UnsafeApi.putInt(base, fields + offset + SEGMENT_HANDLE_OFFSET, handle);
        UnsafeApi.putInt(base, fields + offset + SEGMENT_LENGTH_OFFSET, length);
        UnsafeApi.putShort(base, fields + SEGMENT_COUNT_OFFSET, (short)(count + 1));
        UnsafeApi.putInt(base, fields + LENGTH_OFFSET, UnsafeApi.getInt(base, fields + LENGTH_OFFSET) + length);
    }

    /**
     * Appends {@code handle@address+length, ...} to {@code sb}.
     */
    StringBuilder appendTo(final StringBuilder sb)
    {
        for (int i = 0, n = count(); i < n; i++)
        {
            sb.append(i == 0 ? "" : ", ").append(handle(i)).append('@').append(address(i)).append('+')
                .append(length(i));
        }
        return sb;
    }
}
