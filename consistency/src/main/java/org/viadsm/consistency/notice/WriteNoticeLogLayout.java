package org.viadsm.consistency.notice;

import org.agrona.BitUtil;

/**
 * Layout of a node's write-notice log: the intervals it closed, each with the pages it wrote, kept in rings in
 * the node's control region so that acquirers read exactly the notices they lack with one-sided reads.
 * <pre>
 *  header (64 B)
 *    0  published sequence  newest interval published (0: none)
 *    8  oldest sequence     oldest interval still readable; advanced (release) before its space is reused
 *   16  notice tail         notices ever written: the ring position after the newest notice
 *  index ring, INDEX_ENTRY_LENGTH per interval, slot = sequence &amp; (intervals - 1)
 *    0  sequence            the interval this slot holds
 *    8  start               ring position of its first notice
 *   16  end                 ring position after its last notice
 *   24  flags               FLAG_OVERFLOW: too many pages to list; readers invalidate everything
 *  notice ring, 4 B per notice (a global page number), position = p &amp; (notices - 1)
 * </pre>
 */
public final class WriteNoticeLogLayout
{
    /** Offset of the published sequence in the header. */
    public static final int PUBLISHED_SEQUENCE_OFFSET = 0;
    /** Offset of the oldest sequence in the header. */
    public static final int OLDEST_SEQUENCE_OFFSET = 8;
    /** Offset of the notice tail in the header. */
    public static final int NOTICE_TAIL_OFFSET = 16;
    /** Bytes of the header. */
    public static final int HEADER_LENGTH = BitUtil.CACHE_LINE_LENGTH;
    /** Bytes of one index entry. */
    public static final int INDEX_ENTRY_LENGTH = 32;
    /** Offset of the sequence within an index entry. */
    public static final int ENTRY_SEQUENCE_OFFSET = 0;
    /** Offset of the start position within an index entry. */
    public static final int ENTRY_START_OFFSET = 8;
    /** Offset of the end position within an index entry. */
    public static final int ENTRY_END_OFFSET = 16;
    /** Offset of the flags within an index entry. */
    public static final int ENTRY_FLAGS_OFFSET = 24;
    /** Flag: the interval wrote more pages than the ring holds, so its notices are not listed. */
    public static final long FLAG_OVERFLOW = 1L;
    /** Bytes of one notice. */
    public static final int NOTICE_LENGTH = Integer.BYTES;

    private final int intervals;
    private final int notices;

    /**
     * Creates the layout.
     *
     * @param intervals index ring capacity, a power of two.
     * @param notices   notice ring capacity, a power of two.
     */
    public WriteNoticeLogLayout(final int intervals, final int notices)
    {
        if (!BitUtil.isPowerOfTwo(intervals) || !BitUtil.isPowerOfTwo(notices))
        {
            throw new IllegalArgumentException(
                "log capacities must be powers of two: intervals=" + intervals + " notices=" + notices);
        }
        this.intervals = intervals;
        this.notices = notices;
    }

    /**
     * Index ring capacity.
     *
     * @return intervals retained at most.
     */
    public int intervals()
    {
        return intervals;
    }

    /**
     * Notice ring capacity.
     *
     * @return notices retained at most.
     */
    public int notices()
    {
        return notices;
    }

    /**
     * Offset of the index entry of an interval, relative to the log.
     *
     * @param sequence the interval's sequence number.
     * @return the entry's offset.
     */
    public int indexEntry(final long sequence)
    {
        return HEADER_LENGTH + (int)(sequence & (intervals - 1)) * INDEX_ENTRY_LENGTH;
    }

    /**
     * Offset of a notice ring position, relative to the log.
     *
     * @param position the ring position.
     * @return the notice's offset.
     */
    public int notice(final long position)
    {
        return noticesOffset() + (int)(position & (notices - 1)) * NOTICE_LENGTH;
    }

    /**
     * Offset of the notice ring, relative to the log.
     *
     * @return the offset.
     */
    public int noticesOffset()
    {
        return HEADER_LENGTH + intervals * INDEX_ENTRY_LENGTH;
    }

    /**
     * Total bytes of the log.
     *
     * @return the length.
     */
    public int length()
    {
        return noticesOffset() + notices * NOTICE_LENGTH;
    }
}
