package org.viadsm.consistency.diff;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encoded diffs: runs and their bytes in one buffer, for moving a diff as a message, applying it to a page, and
 * merging two diffs of one page.
 * <pre>
 *   0  run count (int)        4  reserved (int)
 *   then per run:  offset (int), length (int), bytes, padded to 8
 * </pre>
 * Byte order is little-endian, as everywhere in viadsm.
 */
public final class DiffCodec
{
    /** Bytes before the first run. */
    public static final int HEADER_LENGTH = 8;
    /** Bytes of a run's offset and length. */
    public static final int RUN_HEADER_LENGTH = 8;

    private DiffCodec()
    {
    }

    /**
     * Bytes the encoding of some runs takes.
     *
     * @param runs the runs.
     * @return the encoded length.
     */
    public static int encodedLength(final DiffRuns runs)
    {
        int length = HEADER_LENGTH;
        for (int i = 0; i < runs.count(); i++)
        {
            length += RUN_HEADER_LENGTH + BitUtil.align(runs.length(i), Long.BYTES);
        }
        return length;
    }

    /**
     * Encodes runs with their current bytes from the page.
     *
     * @param runs       the runs.
     * @param page       the page's current contents.
     * @param pageOffset where the page starts.
     * @param dst        destination, at least {@link #encodedLength(DiffRuns)} bytes from {@code dstOffset}.
     * @param dstOffset  where the encoding starts.
     * @return the encoded length.
     */
    public static int encode(
        final DiffRuns runs, final DirectBuffer page, final int pageOffset, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        int at = dstOffset + HEADER_LENGTH;
        for (int i = 0; i < runs.count(); i++)
        {
            final int length = runs.length(i);
            dst.putInt(at, runs.offset(i));
            dst.putInt(at + Integer.BYTES, length);
            dst.putBytes(at + RUN_HEADER_LENGTH, page, pageOffset + runs.offset(i), length);
            at += RUN_HEADER_LENGTH + BitUtil.align(length, Long.BYTES);
        }
        dst.putInt(dstOffset, runs.count());
        dst.putInt(dstOffset + Integer.BYTES, 0);
        return at - dstOffset;
    }

    /**
     * Applies an encoded diff to a page: each run's bytes replace the page's at the run's offset.
     *
     * @param diff       the encoded diff.
     * @param diffOffset where it starts.
     * @param page       the page to update.
     * @param pageOffset where the page starts.
     * @param pageSize   the page size, to check the runs against.
     * @return the number of bytes written.
     * @throws IllegalArgumentException if a run falls outside the page; nothing is written then.
     */
    public static int apply(
        final DirectBuffer diff, final int diffOffset, final MutableDirectBuffer page, final int pageOffset,
        final int pageSize)
    {
        final int count = diff.getInt(diffOffset);
        int at = diffOffset + HEADER_LENGTH;
        for (int i = 0; i < count; i++)
        {
            final int offset = diff.getInt(at);
            final int length = diff.getInt(at + Integer.BYTES);
            if (offset < 0 || length <= 0 || offset + length > pageSize || offset + length < 0)
            {
                throw new IllegalArgumentException(
                    "diff run " + i + " (offset=" + offset + ", length=" + length + ") is outside a page of " +
                    pageSize + " bytes");
            }
            at += RUN_HEADER_LENGTH + BitUtil.align(length, Long.BYTES);
        }
        int written = 0;
        at = diffOffset + HEADER_LENGTH;
        for (int i = 0; i < count; i++)
        {
            final int offset = diff.getInt(at);
            final int length = diff.getInt(at + Integer.BYTES);
            page.putBytes(pageOffset + offset, diff, at + RUN_HEADER_LENGTH, length);
            written += length;
            at += RUN_HEADER_LENGTH + BitUtil.align(length, Long.BYTES);
        }
        return written;
    }

    /**
     * Merges two encoded diffs of one page into one: the result changes every byte either changes, with the
     * later diff's bytes where both do.
     *
     * @param earlier       the earlier diff.
     * @param earlierOffset where it starts.
     * @param later         the later diff.
     * @param laterOffset   where it starts.
     * @param pageSize      the page size.
     * @param dst           destination of the merged diff.
     * @param dstOffset     where it starts.
     * @return the merged diff's encoded length.
     */
    public static int merge(
        final DirectBuffer earlier, final int earlierOffset, final DirectBuffer later, final int laterOffset,
        final int pageSize, final MutableDirectBuffer dst, final int dstOffset)
    {
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[pageSize]);
        final boolean[] covered = new boolean[pageSize];
        mark(earlier, earlierOffset, covered);
        mark(later, laterOffset, covered);
        apply(earlier, earlierOffset, scratch, 0, pageSize);
        apply(later, laterOffset, scratch, 0, pageSize);
        final DiffRuns runs = new DiffRuns();
        int start = -1;
        for (int i = 0; i <= pageSize; i++)
        {
            final boolean in = i < pageSize && covered[i];
            if (in && start < 0)
            {
                start = i;
            }
            else if (!in && start >= 0)
            {
                runs.add(start, i - start);
                start = -1;
            }
        }
        return encode(runs, scratch, 0, dst, dstOffset);
    }

    private static void mark(final DirectBuffer diff, final int diffOffset, final boolean[] covered)
    {
        final int count = diff.getInt(diffOffset);
        int at = diffOffset + HEADER_LENGTH;
        for (int i = 0; i < count; i++)
        {
            final int offset = diff.getInt(at);
            final int length = diff.getInt(at + Integer.BYTES);
            java.util.Arrays.fill(covered, offset, offset + length, true);
            at += RUN_HEADER_LENGTH + BitUtil.align(length, Long.BYTES);
        }
    }
}
