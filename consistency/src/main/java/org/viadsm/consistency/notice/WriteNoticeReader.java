package org.viadsm.consistency.notice;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.port.ProtocolPort;

import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_END_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_FLAGS_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_SEQUENCE_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_START_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.FLAG_OVERFLOW;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.HEADER_LENGTH;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.INDEX_ENTRY_LENGTH;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.NOTICE_LENGTH;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.OLDEST_SEQUENCE_OFFSET;

/**
 * Reads the write notices of a range of another node's intervals, one-sided, from that node's log into this
 * node's scratch area, seqlock style: the log's oldest sequence is read again after the notices, and if it moved
 * past the range the notices may have been overwritten, so the read reports {@link #LOST} and the caller
 * invalidates conservatively.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class WriteNoticeReader
{
    /** The notices were read and delivered. */
    public static final int READ = 0;
    /** Some notices of the range are no longer in the log (dropped, or too many to list). */
    public static final int LOST = -1;

    private final ProtocolPort port;
    private final int controlRegion;
    private final int logOffset;
    private final int scratchOffset;
    private final WriteNoticeLogLayout layout;
    private final AtomicBuffer scratch;

    /**
     * Creates a reader.
     *
     * @param port          the network.
     * @param controlRegion id of the control region holding every node's log.
     * @param logOffset     offset of the log in a control region.
     * @param scratchOffset offset of this node's scratch area, as long as a log.
     * @param layout        the logs' layout.
     */
    public WriteNoticeReader(
        final ProtocolPort port,
        final int controlRegion,
        final int logOffset,
        final int scratchOffset,
        final WriteNoticeLogLayout layout)
    {
        this.port = port;
        this.controlRegion = controlRegion;
        this.logOffset = logOffset;
        this.scratchOffset = scratchOffset;
        this.layout = layout;
        this.scratch = port.region(controlRegion);
    }

    /**
     * Reads the notices of intervals {@code (after, upTo]} of {@code node} and hands each page to
     * {@code handler}; a page may be handed more than once if several intervals wrote it.
     *
     * @param node    the node whose log to read.
     * @param after   the newest interval of {@code node} already applied.
     * @param upTo    the newest interval to apply; must have been published.
     * @param handler receives each page.
     * @return {@link #READ}, or {@link #LOST} if the caller must invalidate every page {@code node} may have
     *         written (no page was handed over in that case).
     */
    public int read(final int node, final long after, final long upTo, final NoticeHandler handler)
    {
        if (upTo <= after)
        {
            return READ;
        }
        final long first = after + 1;
        if (upTo - after > layout.intervals() || oldest(node) > first)
        {
            return LOST;
        }
        readIndex(node, first, upTo);
        long start = -1;
        long end = -1;
        for (long sequence = first; sequence <= upTo; sequence++)
        {
            final int entry = scratchOffset + layout.indexEntry(sequence);
            if (scratch.getLong(entry + ENTRY_SEQUENCE_OFFSET) != sequence ||
                (scratch.getLong(entry + ENTRY_FLAGS_OFFSET) & FLAG_OVERFLOW) != 0)
            {
                return LOST;
            }
            final long entryStart = scratch.getLong(entry + ENTRY_START_OFFSET);
            if (sequence == first)
            {
                start = entryStart;
            }
            else if (entryStart != end)
            {
                return LOST;
            }
            end = scratch.getLong(entry + ENTRY_END_OFFSET);
        }
        // Entries copied while the writer reused their slots can be torn; such ranges never line up.
        if (end < start || end - start > layout.notices())
        {
            return LOST;
        }
        readRing(node, start, end);
        if (oldest(node) > first)
        {
            return LOST;
        }
        for (long position = start; position < end; position++)
        {
            handler.onNotice(scratch.getInt(scratchOffset + layout.notice(position)));
        }
        return READ;
    }

    private long oldest(final int node)
    {
        final int offset = OLDEST_SEQUENCE_OFFSET;
        port.read(node, controlRegion, logOffset + offset, controlRegion, scratchOffset + offset, Long.BYTES);
        return scratch.getLongVolatile(scratchOffset + offset);
    }

    private void readIndex(final int node, final long first, final long last)
    {
        final int mask = layout.intervals() - 1;
        final int firstSlot = (int)(first & mask);
        final int count = (int)(last - first + 1);
        final int beforeWrap = Math.min(count, layout.intervals() - firstSlot);
        copy(node, HEADER_LENGTH + firstSlot * INDEX_ENTRY_LENGTH, beforeWrap * INDEX_ENTRY_LENGTH);
        if (count > beforeWrap)
        {
            copy(node, HEADER_LENGTH, (count - beforeWrap) * INDEX_ENTRY_LENGTH);
        }
    }

    private void readRing(final int node, final long start, final long end)
    {
        if (end == start)
        {
            return;
        }
        final int mask = layout.notices() - 1;
        final int firstSlot = (int)(start & mask);
        final int count = (int)(end - start);
        final int beforeWrap = Math.min(count, layout.notices() - firstSlot);
        copy(node, layout.noticesOffset() + firstSlot * NOTICE_LENGTH, beforeWrap * NOTICE_LENGTH);
        if (count > beforeWrap)
        {
            copy(node, layout.noticesOffset(), (count - beforeWrap) * NOTICE_LENGTH);
        }
    }

    private void copy(final int node, final int relativeOffset, final int length)
    {
        port.read(node, controlRegion, logOffset + relativeOffset, controlRegion, scratchOffset + relativeOffset,
            length);
    }

    /**
     * Receives the pages of the notices read.
     */
    @FunctionalInterface
    public interface NoticeHandler
    {
        /**
         * One write notice.
         *
         * @param globalPage the page written.
         */
        void onNotice(int globalPage);
    }
}
