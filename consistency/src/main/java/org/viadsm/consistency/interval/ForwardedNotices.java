package org.viadsm.consistency.interval;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.notice.NoticeHistory;
import org.viadsm.consistency.notice.WriteNoticeReader;

/**
 * The write notices a releaser forwards with a lock grant: for each node, the intervals the next holder lacks,
 * each with its pages, taken from the releaser's {@link NoticeHistory}. The holder applies them instead of reading
 * the writers' logs, which over a transport whose target must act costs a thread of every writer, three times.
 * <pre>
 *   0  records   int: interval records that follow
 *   4  records, each: node (int), page count (int), sequence (long), then its pages (4 B each); a node's
 *      intervals in order
 * </pre>
 * A node whose intervals do not all fit, or that the history no longer holds, is left out: the holder reads its
 * log. Forwarding more than the holder lacks is harmless (it skips intervals its clock covers).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class ForwardedNotices
{
    /** Bytes of one interval record. */
    private static final int RECORD_LENGTH = 16;

    private ForwardedNotices()
    {
    }

    /**
     * Writes the notices of the intervals in {@code (after, upTo]}, per node, that the history holds and that fit.
     *
     * @param history the releaser's history.
     * @param upTo    the releaser's clock.
     * @param after   the clock of the next holder (or an older one of it).
     * @param holder  the next holder, whose own intervals are left out.
     * @param buffer  where to write.
     * @param offset   the offset of the header.
     * @param capacity bytes available from the offset.
     * @return the bytes written.
     */
    static int write(
        final NoticeHistory history,
        final VectorClock upTo,
        final VectorClock after,
        final int holder,
        final AtomicBuffer buffer,
        final int offset,
        final int capacity)
    {
        int records = 0;
        int at = offset + Integer.BYTES;
        for (int node = 0; node < upTo.size(); node++)
        {
            final long from = after.get(node);
            final long to = upTo.get(node);
            if (node == holder || to <= from || !history.covers(node, from, to) ||
                at - offset + (to - from) * RECORD_LENGTH +
                (history.start(node, to + 1) - history.start(node, from + 1)) * Integer.BYTES > capacity)
            {
                continue;
            }
            // counted in int from 0 (the history covers the range): a loop of long sequences to an inclusive bound
            // compiles with a limit check that traps on a range of one interval
            final int intervals = (int)(to - from);
            for (int k = 0; k < intervals; k++)
            {
                final long sequence = from + 1 + k;
                final long start = history.start(node, sequence);
                final long end = history.start(node, sequence + 1);
                buffer.putInt(at, node);
                buffer.putInt(at + Integer.BYTES, (int)(end - start));
                buffer.putLong(at + 2 * Integer.BYTES, sequence);
                at += RECORD_LENGTH;
                for (long position = start; position < end; position++)
                {
                    buffer.putInt(at, history.page(node, position));
                    at += Integer.BYTES;
                }
                records++;
            }
        }
        buffer.putInt(offset, records);
        return at - offset;
    }

    /**
     * Whether the records in a buffer bring every interval of a node in {@code (after, upTo]}: they are the node's
     * intervals from at most {@code after + 1} to {@code upTo}, in order.
     */
    static boolean covers(final AtomicBuffer buffer, final int offset, final int node, final long after,
        final long upTo)
    {
        final int records = buffer.getInt(offset);
        int at = offset + Integer.BYTES;
        long expected = -1;
        for (int i = 0; i < records; i++)
        {
            if (buffer.getInt(at) == node)
            {
                final long sequence = buffer.getLong(at + 2 * Integer.BYTES);
                if ((expected < 0 && sequence > after + 1) || (expected >= 0 && sequence != expected))
                {
                    return false;
                }
                expected = sequence + 1;
            }
            at = next(buffer, at);
        }
        return expected == upTo + 1;
    }

    /**
     * Hands a handler the forwarded intervals, in order, of the nodes marked in {@code nodes} that {@code clock}
     * does not cover yet.
     *
     * @param buffer  the buffer holding the records.
     * @param offset  the offset of the header.
     * @param nodes   the nodes whose records to apply ({@link #covers} said they bring all that is needed).
     * @param clock   the receiving node's clock.
     * @param handler receives each interval, then its pages.
     * @return the intervals handed over.
     */
    static int apply(final AtomicBuffer buffer, final int offset, final boolean[] nodes, final VectorClock clock,
        final WriteNoticeReader.NoticeHandler handler)
    {
        final int records = buffer.getInt(offset);
        int applied = 0;
        int at = offset + Integer.BYTES;
        for (int i = 0; i < records; i++)
        {
            final int node = buffer.getInt(at);
            final long sequence = buffer.getLong(at + 2 * Integer.BYTES);
            if (nodes[node] && sequence > clock.get(node))
            {
                handler.onInterval(node, sequence);
                final int pages = buffer.getInt(at + Integer.BYTES);
                for (int p = 0; p < pages; p++)
                {
                    handler.onNotice(buffer.getInt(at + RECORD_LENGTH + p * Integer.BYTES));
                }
                applied++;
            }
            at = next(buffer, at);
        }
        return applied;
    }

    private static int next(final AtomicBuffer buffer, final int record)
    {
        return record + RECORD_LENGTH + buffer.getInt(record + Integer.BYTES) * Integer.BYTES;
    }
}
