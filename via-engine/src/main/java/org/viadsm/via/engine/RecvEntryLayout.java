package org.viadsm.via.engine;

import org.agrona.BitUtil;

/**
 * Layout of a receive-ring entry: a receive descriptor as the NIC fetched it at post time, plus the completion the
 * initiator writes into it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |    Status: 0 while posted; DescriptorStatus bits, release     |  0
 *  +---------------------------------------------------------------+
 *  |                      Length Received                          |  4
 *  +---------------------------------------------------------------+
 *  |                     Immediate Data Received                   |  8
 *  +---------------------------------------------------------------+
 *  |                 Segment Count (as posted)                     |  12
 *  +---------------------------------------------------------------+
 *  |    Sequence (long): entry index + 1 once posted, release      |  16
 *  +---------------------------------------------------------------+
 *  |              Capacity: sum of segment lengths (long)          |  24
 *  +---------------------------------------------------------------+
 *  |  Data segments: address (long), handle (int), length (int)    |  32 + 16 * i
 *  +---------------------------------------------------------------+
 * </pre>
 * The sequence word publishes the entry, so an initiator learns that a receive is posted from the entry itself,
 * without reading the owner's producer index; with one or two segments the whole entry is one cache line. A
 * segment count above the ring's segment limit is kept as posted, with no segments stored, so that the completer
 * fails the entry with a format error.
 */
final class RecvEntryLayout
{
    /** Offset of the status word. */
    static final int STATUS_OFFSET = 0;
    /** Offset of the received length. */
    static final int LENGTH_OFFSET = 4;
    /** Offset of the received immediate data. */
    static final int IMMEDIATE_OFFSET = 8;
    /** Offset of the segment count. */
    static final int SEGMENT_COUNT_OFFSET = 12;
    /** Offset of the sequence word: the entry's index + 1 once posted. */
    static final int SEQUENCE_OFFSET = 16;
    /** Offset of the capacity. */
    static final int CAPACITY_OFFSET = 24;
    /** Offset of the first data segment. */
    static final int SEGMENTS_OFFSET = 32;
    /** Length of one stored data segment. */
    static final int SEGMENT_LENGTH = 16;
    /** Offset of a segment's address, relative to the segment. */
    static final int SEGMENT_ADDRESS_OFFSET = 0;
    /** Offset of a segment's handle, relative to the segment. */
    static final int SEGMENT_HANDLE_OFFSET = 8;
    /** Offset of a segment's length, relative to the segment. */
    static final int SEGMENT_LENGTH_OFFSET = 12;

    private RecvEntryLayout()
    {
    }

    /**
     * Bytes of one entry.
     *
     * @param maxSegments data segments it holds.
     * @return the entry length, a multiple of the cache line.
     */
    static int length(final int maxSegments)
    {
        return BitUtil.align(SEGMENTS_OFFSET + maxSegments * SEGMENT_LENGTH, BitUtil.CACHE_LINE_LENGTH);
    }

    /**
     * Offset of segment {@code i} relative to its entry.
     *
     * @param i segment index.
     * @return the offset.
     */
    static int segmentOffset(final int i)
    {
        return SEGMENTS_OFFSET + i * SEGMENT_LENGTH;
    }
}
