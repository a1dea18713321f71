package org.viadsm.via.descriptor;

import org.agrona.BitUtil;
import org.agrona.UnsafeApi;

/**
 * Layout of a descriptor in memory, after the VIPL descriptor format.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  control segment
 *  |                    User Data (VIPL: Next)                     |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                  Reserved (VIPL: NextHandle)                  |  8
 *  +-------------------------------+-------------------------------+
 *  |          Seg Count            |           Control             |  12
 *  +-------------------------------+-------------------------------+
 *  |                           Reserved                            |  16
 *  +---------------------------------------------------------------+
 *  |                        Immediate Data                         |  20
 *  +---------------------------------------------------------------+
 *  |                            Length                             |  24
 *  +---------------------------------------------------------------+
 *  |                            Status                             |  28
 *  +---------------------------------------------------------------+  address segment
 *  |                 Remote Address (region offset)                |  32
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Remote Memory Handle                      |  40
 *  +---------------------------------------------------------------+
 *  |                           Reserved                            |  44
 *  +---------------------------------------------------------------+  atomic segment (extension)
 *  |                  Compare Value or Add Value                   |  48
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          Swap Value                           |  56
 *  |                                                               |
 *  +---------------------------------------------------------------+  data segments, SEGMENT_LENGTH each
 *  |                 Local Address (region offset)                 |  64 + 16 * i
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                      Local Memory Handle                      |
 *  +---------------------------------------------------------------+
 *  |                        Segment Length                         |
 *  +---------------------------------------------------------------+
 * </pre>
 * Addresses are offsets into the memory region named by the handle beside them: regions are zero-based, as
 * InfiniBand's zero-based memory regions are, so that an address means the same in every process that maps the
 * region. The atomic segment is an extension (VIA 1.0 has no remote atomics) and is ignored by other operations.
 */
public final class DescriptorLayout
{
    /** Descriptors are aligned to this many bytes, as {@code VIP_DESCRIPTOR_ALIGNMENT} requires. */
    public static final int ALIGNMENT = 64;

    /** Offset of the consumer's 64-bit cookie (VIPL's {@code Next}, which the emulated NIC does not use). */
    public static final int USER_DATA_OFFSET = 0;
    /** Offset of the reserved word that VIPL uses for {@code NextHandle}. */
    public static final int RESERVED_HANDLE_OFFSET = 8;
    /** Offset of the 16-bit count of data segments. */
    public static final int SEGMENT_COUNT_OFFSET = 12;
    /** Offset of the 16-bit control field: operation, immediate and queue-fence bits. */
    public static final int CONTROL_OFFSET = 14;
    /** Offset of the 32-bit immediate data. */
    public static final int IMMEDIATE_DATA_OFFSET = 20;
    /** Offset of the 32-bit length: bytes to transfer when posted, bytes transferred when completed. */
    public static final int LENGTH_OFFSET = 24;
    /** Offset of the 32-bit status word, written last by the NIC with release semantics. */
    public static final int STATUS_OFFSET = 28;
    /** Offset of the address segment's remote address. */
    public static final int REMOTE_ADDRESS_OFFSET = 32;
    /** Offset of the address segment's remote memory handle. */
    public static final int REMOTE_HANDLE_OFFSET = 40;
    /** Offset of the atomic operand: the compare value of compare-and-swap or the addend of fetch-and-add. */
    public static final int COMPARE_OR_ADD_OFFSET = 48;
    /** Offset of the swap value of compare-and-swap. */
    public static final int SWAP_OFFSET = 56;
    /** Offset of the first data segment. */
    public static final int DATA_SEGMENTS_OFFSET = 64;

    /** Length of one data segment. */
    public static final int SEGMENT_LENGTH = 16;
    /** Offset of a data segment's local address, relative to the segment. */
    public static final int SEGMENT_ADDRESS_OFFSET = 0;
    /** Offset of a data segment's local memory handle, relative to the segment. */
    public static final int SEGMENT_HANDLE_OFFSET = 8;
    /** Offset of a data segment's length, relative to the segment. */
    public static final int SEGMENT_LENGTH_OFFSET = 12;

    /** Operation field of the control word: Send (or, on a receive queue, Receive). */
    public static final int OP_SEND = 0;
    /** Operation field of the control word: RDMA Write. */
    public static final int OP_RDMA_WRITE = 1;
    /** Operation field of the control word: RDMA Read. */
    public static final int OP_RDMA_READ = 2;
    /** Operation field of the control word: remote atomic (extension); {@link #CONTROL_ATOMIC_ADD} picks which. */
    public static final int OP_ATOMIC = 3;
    /** Mask of the operation field in the control word. */
    public static final int CONTROL_OP_MASK = 0x3;
    /** Control bit: the descriptor carries immediate data. */
    public static final int CONTROL_IMMEDIATE = 0x4;
    /** Control bit: the descriptor waits until every earlier RDMA Read on its queue has completed. */
    public static final int CONTROL_QUEUE_FENCE = 0x8;
    /** Control bit of {@link #OP_ATOMIC}: fetch-and-add when set, compare-and-swap when clear. */
    public static final int CONTROL_ATOMIC_ADD = 0x10;

    private DescriptorLayout()
    {
    }

    /**
     * Bytes a descriptor with room for the given number of data segments occupies, rounded up to the alignment.
     *
     * @param maxSegments data segments the descriptor must hold.
     * @return its length in bytes.
     * @throws IllegalArgumentException if {@code maxSegments} is negative.
     */
    public static int length(final int maxSegments)
    {
        if (maxSegments < 0)
        {
            throw new IllegalArgumentException("maxSegments must not be negative: maxSegments=" + maxSegments);
        }
        return BitUtil.align(DATA_SEGMENTS_OFFSET + maxSegments * SEGMENT_LENGTH, ALIGNMENT);
    }

    /**
     * Offset of data segment {@code index}, relative to the descriptor.
     *
     * @param index segment index, from 0.
     * @return the segment's offset.
     */
    public static int segmentOffset(final int index)
    {
        return DATA_SEGMENTS_OFFSET + index * SEGMENT_LENGTH;
    }

    /**
     * Zeroes a descriptor's fields from the reserved handle to the data segments: seven aligned words, one store each
     * (a loop over them compiles to a fill with a vector body, whose set-up takes ten times the seven stores).
     *
     * @param base    the descriptor memory's array, or null for native memory.
     * @param address the descriptor's address in {@code base}, 8-byte aligned.
     */
    static void clearFields(final Object base, final long address)
    {
        final long at = address + RESERVED_HANDLE_OFFSET;
        UnsafeApi.putLong(base, at, 0L);
        UnsafeApi.putLong(base, at + Long.BYTES, 0L);
        UnsafeApi.putLong(base, at + 2 * Long.BYTES, 0L);
        UnsafeApi.putLong(base, at + 3 * Long.BYTES, 0L);
        UnsafeApi.putLong(base, at + 4 * Long.BYTES, 0L);
        UnsafeApi.putLong(base, at + 5 * Long.BYTES, 0L);
        UnsafeApi.putLong(base, at + 6 * Long.BYTES, 0L);
    }
}
