package org.viadsm.consistency.notice;

import java.lang.invoke.VarHandle;
import java.util.Objects;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;

import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_END_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_FLAGS_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_SEQUENCE_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.ENTRY_START_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.FLAG_OVERFLOW;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.NOTICE_LENGTH;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.NOTICE_TAIL_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.OLDEST_SEQUENCE_OFFSET;
import static org.viadsm.consistency.notice.WriteNoticeLogLayout.PUBLISHED_SEQUENCE_OFFSET;

/**
 * The writer of a node's own write-notice log: publishes each interval's pages, drops the oldest intervals when
 * the rings fill, and drops intervals every node has seen when told to (garbage collection at barriers).
 * <p>
 * <b>Note:</b> used by the node's application thread only; peers read the log concurrently through
 * {@link WriteNoticeReader}, which detects intervals dropped under it.
 */
public final class WriteNoticeLog
{
    private static final long INT_ARRAY_BASE = UnsafeApi.arrayBaseOffset(int[].class);

    private final AtomicBuffer buffer;
    private final int base;
    private final WriteNoticeLogLayout layout;

    /**
     * Wraps a log at {@code base} in {@code buffer} and initialises it empty.
     *
     * @param buffer the node's control region.
     * @param base   offset of the log.
     * @param layout the log's layout.
     */
    public WriteNoticeLog(final AtomicBuffer buffer, final int base, final WriteNoticeLogLayout layout)
    {
        this.buffer = buffer;
        this.base = base;
        this.layout = layout;
        buffer.putLong(base + PUBLISHED_SEQUENCE_OFFSET, 0L);
        buffer.putLong(base + NOTICE_TAIL_OFFSET, 0L);
        buffer.putLongRelease(base + OLDEST_SEQUENCE_OFFSET, 1L);
    }

    /**
     * The newest published interval.
     *
     * @return its sequence number, 0 if none.
     */
    public long published()
    {
        return buffer.getLong(base + PUBLISHED_SEQUENCE_OFFSET);
    }

    /**
     * The oldest interval still readable.
     *
     * @return its sequence number.
     */
    public long oldest()
    {
        return buffer.getLong(base + OLDEST_SEQUENCE_OFFSET);
    }

    /**
     * Publishes the next interval with the given pages (global page numbers, each once).
     *
     * @param pages the pages written in the interval.
     * @param count how many of {@code pages} to publish.
     * @return the interval's sequence number.
     */
    public long publish(final int[] pages, final int count)
    {
        final long sequence = published() + 1;
        final long tail = buffer.getLong(base + NOTICE_TAIL_OFFSET);
        final boolean overflow = count > layout.notices();
        final int listed = overflow ? 0 : count;
        while (oldest() <= published() &&
            (sequence - oldest() >= layout.intervals() || tail + listed - start(oldest()) > layout.notices()))
        {
            // Readers check the oldest sequence after reading, so advancing it first makes reuse detectable.
            buffer.putLongRelease(base + OLDEST_SEQUENCE_OFFSET, oldest() + 1);
        }
        // A release store orders only what came before it: the overwrites below must not become visible before
        // the new oldest sequence, or a reader could accept reused slots.
        VarHandle.storeStoreFence();
        putNotices(pages, tail, listed);
        final int entry = base + layout.indexEntry(sequence);
        buffer.putLong(entry + ENTRY_SEQUENCE_OFFSET, sequence);
        buffer.putLong(entry + ENTRY_START_OFFSET, tail);
        buffer.putLong(entry + ENTRY_END_OFFSET, tail + listed);
        buffer.putLong(entry + ENTRY_FLAGS_OFFSET, overflow ? FLAG_OVERFLOW : 0L);
        buffer.putLong(base + NOTICE_TAIL_OFFSET, tail + listed);
        buffer.putLongRelease(base + PUBLISHED_SEQUENCE_OFFSET, sequence);
        return sequence;
    }

    /**
     * Drops every interval older than {@code sequence}: no node will ask for them again.
     *
     * @param sequence the oldest interval to keep; values at or below the current oldest change nothing.
     */
    public void trimBefore(final long sequence)
    {
        final long target = Math.min(sequence, published() + 1);
        if (target > oldest())
        {
            buffer.putLongRelease(base + OLDEST_SEQUENCE_OFFSET, target);
        }
    }

    /**
     * Intervals currently retained.
     *
     * @return the count.
     */
    public long retained()
    {
        return published() + 1 - oldest();
    }

    /**
     * Writes {@code count} pages at ring positions {@code tail} on, as {@link AtomicBuffer#putInt} (native order)
     * on each would, in at most two bulk copies: a loop here would run interpreted, as a release runs too rarely for
     * the JIT to compile it.
     */
    private void putNotices(final int[] pages, final long tail, final int count)
    {
        final int ringStart = base + layout.notice(0);
        final int at = base + layout.notice(tail);
        final int first = Math.min(count, (ringStart + layout.notices() * NOTICE_LENGTH - at) / NOTICE_LENGTH);
        copy(pages, 0, at, first);
        copy(pages, first, ringStart, count - first);
    }

    private void copy(final int[] pages, final int from, final int offset, final int count)
    {
        final int bytes = count * NOTICE_LENGTH;
        buffer.boundsCheck(offset, bytes);
        Objects.checkFromIndexSize(from, count, pages.length);
        UnsafeApi.copyMemory(pages, INT_ARRAY_BASE + (long)from * Integer.BYTES,
            buffer.byteArray(), buffer.addressOffset() + offset, bytes);
    }

    private long start(final long sequence)
    {
        return buffer.getLong(base + layout.indexEntry(sequence) + ENTRY_START_OFFSET);
    }
}
