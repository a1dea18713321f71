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
 * Reads the write notices of ranges of other nodes' intervals, one-sided, from their logs into this node's scratch
 * area, seqlock style: a log's oldest sequence is read again after its notices, and if it moved past the range the
 * notices may have been overwritten, so the read reports {@link #LOST} and the caller invalidates conservatively.
 * <p>
 * The logs of every node an acquire lags behind are read together, in three round trips whatever the number of
 * nodes (over a transport whose target must act, each read costs a thread of the log's owner; read one after the
 * other, a node's log took four): their oldest sequences and index entries, then their notices, then their oldest
 * sequences again. Each node's ranges go to a slice of the scratch area, packed; a range too long for its slice
 * is read afterwards, alone, with the whole area.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class WriteNoticeReader
{
    /** The notices were read and delivered. */
    public static final int READ = 0;
    /** Some notices of the range are no longer in the log (dropped, or too many to list). */
    public static final int LOST = -1;

    /** In a slice: the oldest sequence read before the notices, then after them, then the index entries. */
    private static final int OLDEST_BEFORE = 0;
    private static final int OLDEST_AFTER = Long.BYTES;
    private static final int SLICE_HEADER = 2 * Long.BYTES;
    private static final int PENDING = 1;
    private static final int TOO_LONG = 2;

    private final ProtocolPort port;
    private final int controlRegion;
    private final int logOffset;
    private final int scratchOffset;
    private final WriteNoticeLogLayout layout;
    private final AtomicBuffer scratch;
    private final int[] nodes;
    private final long[] firsts;
    private final long[] lasts;
    private final long[] starts;
    private final long[] ends;
    private final int[] states;
    private int ranges;

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
        final int nodeCount = port.nodeCount();
        this.nodes = new int[nodeCount];
        this.firsts = new long[nodeCount];
        this.lasts = new long[nodeCount];
        this.starts = new long[nodeCount];
        this.ends = new long[nodeCount];
        this.states = new int[nodeCount];
    }

    /**
     * Reads the notices of intervals {@code (after, upTo]} of {@code node} and hands each page to
     * {@code handler}, as {@link #addRange} then {@link #readRanges} with no other range; a page may be handed more
     * than once if several intervals wrote it.
     *
     * @param node    the node whose log to read.
     * @param after   the newest interval of {@code node} already applied.
     * @param upTo    the newest interval to apply; must have been published.
     * @param handler receives each page.
     * @return {@link #READ}, or {@link #LOST} if the caller must invalidate every page {@code node} may have
     *         written (no page was handed over in that case: one range always fits the scratch area).
     */
    public int read(final int node, final long after, final long upTo, final NoticeHandler handler)
    {
        addRange(node, after, upTo);
        return readRanges(handler);
    }

    /**
     * Adds a range of a node's intervals to those {@link #readRanges} reads; at most one per node between reads.
     *
     * @param node  the node whose log to read.
     * @param after the newest interval of {@code node} already applied.
     * @param upTo  the newest interval to apply; must have been published. Nothing is added if not after
     *              {@code after}.
     */
    public void addRange(final int node, final long after, final long upTo)
    {
        if (upTo > after)
        {
            nodes[ranges] = node;
            firsts[ranges] = after + 1;
            lasts[ranges] = upTo;
            ranges++;
        }
    }

    /**
     * Reads the notices of the ranges added since the last read, together, and hands each page to
     * {@code handler}.
     *
     * @param handler receives each page.
     * @return {@link #READ}, or {@link #LOST} if the caller must invalidate every cached page (pages may have been
     *         handed over already in that case).
     */
    public int readRanges(final NoticeHandler handler)
    {
        final int count = ranges;
        ranges = 0;
        return 0 == count ? READ : readAll(count, handler);
    }

    /**
     * Reads the ranges in the first {@code count} entries of the arrays: together, in slices of the scratch area,
     * then one at a time, in the whole area, those too long for their slice.
     */
    private int readAll(final int count, final NoticeHandler handler)
    {
        final int sliceLength = (layout.length() / count) & ~(Long.BYTES - 1);
        int tooLong = 0;
        if (LOST == readTogether(0, count, sliceLength, handler))
        {
            return LOST;
        }
        for (int i = 0; i < count; i++)
        {
            tooLong += TOO_LONG == states[i] ? 1 : 0;
        }
        if (tooLong > 0)
        {
            for (int i = 0; i < count; i++)
            {
                // alone, a range has as much room as the log itself, so it fits; if not, invalidate rather than skip
                if (TOO_LONG == states[i] &&
                    (LOST == readTogether(i, i + 1, layout.length(), handler) || TOO_LONG == states[i]))
                {
                    return LOST;
                }
            }
        }
        return READ;
    }

    /**
     * Reads entries {@code [from, to)}, entry {@code i}'s into slice {@code i - from}, and marks those that do not
     * fit their slice {@link #TOO_LONG} (one alone has the whole area, as long as the log, so it fits).
     */
    private int readTogether(final int from, final int to, final int sliceLength, final NoticeHandler handler)
    {
        for (int i = from; i < to; i++)
        {
            if (lasts[i] - firsts[i] + 1 > layout.intervals())
            {
                return LOST;
            }
        }
        for (int i = from; i < to; i++)
        {
            final long first = firsts[i];
            final long last = lasts[i];
            states[i] = SLICE_HEADER + (last - first + 1) * INDEX_ENTRY_LENGTH > sliceLength ? TOO_LONG : PENDING;
            if (PENDING == states[i])
            {
                final int slice = scratchOffset + (i - from) * sliceLength;
                copy(nodes[i], OLDEST_SEQUENCE_OFFSET, slice + OLDEST_BEFORE, Long.BYTES);
                copyIndex(nodes[i], first, last, slice + SLICE_HEADER);
            }
        }
        port.awaitReads();
        for (int i = from; i < to; i++)
        {
            if (PENDING == states[i] && LOST == startNotices(i, scratchOffset + (i - from) * sliceLength,
                sliceLength))
            {
                // reads started for the others must land before the scratch area is used again
                port.awaitReads();
                return LOST;
            }
        }
        port.awaitReads();
        for (int i = from; i < to; i++)
        {
            if (PENDING == states[i])
            {
                copy(nodes[i], OLDEST_SEQUENCE_OFFSET, scratchOffset + (i - from) * sliceLength + OLDEST_AFTER,
                    Long.BYTES);
            }
        }
        port.awaitReads();
        for (int i = from; i < to; i++)
        {
            if (PENDING == states[i] &&
                scratch.getLongVolatile(scratchOffset + (i - from) * sliceLength + OLDEST_AFTER) > firsts[i])
            {
                return LOST;
            }
        }
        for (int i = from; i < to; i++)
        {
            if (PENDING == states[i])
            {
                final int slice = scratchOffset + (i - from) * sliceLength;
                final int notices = noticesOffset(slice, i);
                final int intervals = (int)(lasts[i] - firsts[i] + 1);
                for (int k = 0; k < intervals; k++)
                {
                    final long sequence = firsts[i] + k;
                    final int entry = slice + SLICE_HEADER + k * INDEX_ENTRY_LENGTH;
                    handler.onInterval(nodes[i], sequence);
                    final long end = scratch.getLong(entry + ENTRY_END_OFFSET);
                    for (long position = scratch.getLong(entry + ENTRY_START_OFFSET); position < end; position++)
                    {
                        handler.onNotice(scratch.getInt(notices + (int)(position - starts[i]) * NOTICE_LENGTH));
                    }
                }
            }
        }
        return READ;
    }

    /**
     * Checks entry {@code i}'s oldest sequence and index entries, read into its slice, and starts reading its
     * notices; or marks it {@link #TOO_LONG} if they do not fit the slice.
     */
    private int startNotices(final int i, final int slice, final int sliceLength)
    {
        final long first = firsts[i];
        if (scratch.getLongVolatile(slice + OLDEST_BEFORE) > first)
        {
            return LOST;
        }
        long start = -1;
        long end = -1;
        // counted in int from 0 (a range is at most the log's intervals): a loop of long sequences to an inclusive
        // bound compiles with a limit check that traps on a range of one interval
        final int intervals = (int)(lasts[i] - first + 1);
        for (int k = 0; k < intervals; k++)
        {
            final long sequence = first + k;
            final int entry = slice + SLICE_HEADER + k * INDEX_ENTRY_LENGTH;
            if (scratch.getLong(entry + ENTRY_SEQUENCE_OFFSET) != sequence ||
                (scratch.getLong(entry + ENTRY_FLAGS_OFFSET) & FLAG_OVERFLOW) != 0)
            {
                return LOST;
            }
            final long entryStart = scratch.getLong(entry + ENTRY_START_OFFSET);
            if (0 == k)
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
        starts[i] = start;
        ends[i] = end;
        final int notices = noticesOffset(slice, i);
        if (notices + (end - start) * NOTICE_LENGTH > slice + sliceLength)
        {
            states[i] = TOO_LONG;
            return READ;
        }
        copyNotices(nodes[i], start, end, notices);
        return READ;
    }

    private int noticesOffset(final int slice, final int i)
    {
        return slice + SLICE_HEADER + (int)(lasts[i] - firsts[i] + 1) * INDEX_ENTRY_LENGTH;
    }

    private void copyIndex(final int node, final long first, final long last, final int to)
    {
        final int mask = layout.intervals() - 1;
        final int firstSlot = (int)(first & mask);
        final int count = (int)(last - first + 1);
        final int beforeWrap = Math.min(count, layout.intervals() - firstSlot);
        copy(node, HEADER_LENGTH + firstSlot * INDEX_ENTRY_LENGTH, to, beforeWrap * INDEX_ENTRY_LENGTH);
        if (count > beforeWrap)
        {
            copy(node, HEADER_LENGTH, to + beforeWrap * INDEX_ENTRY_LENGTH, (count - beforeWrap) * INDEX_ENTRY_LENGTH);
        }
    }

    private void copyNotices(final int node, final long start, final long end, final int to)
    {
        if (end == start)
        {
            return;
        }
        final int mask = layout.notices() - 1;
        final int firstSlot = (int)(start & mask);
        final int count = (int)(end - start);
        final int beforeWrap = Math.min(count, layout.notices() - firstSlot);
        copy(node, layout.noticesOffset() + firstSlot * NOTICE_LENGTH, to, beforeWrap * NOTICE_LENGTH);
        if (count > beforeWrap)
        {
            copy(node, layout.noticesOffset(), to + beforeWrap * NOTICE_LENGTH, (count - beforeWrap) * NOTICE_LENGTH);
        }
    }

    private void copy(final int node, final int relativeOffset, final int to, final int length)
    {
        port.startRead(node, controlRegion, logOffset + relativeOffset, controlRegion, to, length);
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

        /**
         * The pages handed next, up to the next call, are those of this interval.
         *
         * @param node     the interval's writer.
         * @param sequence the interval.
         */
        default void onInterval(final int node, final long sequence)
        {
        }
    }
}
