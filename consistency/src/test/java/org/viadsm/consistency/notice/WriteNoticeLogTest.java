package org.viadsm.consistency.notice;

import java.nio.ByteBuffer;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.consistency.port.StubPort;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WriteNoticeLogTest
{
    private final WriteNoticeLogLayout layout = new WriteNoticeLogLayout(16, 1024);
    private final AtomicBuffer owner = new UnsafeBuffer(ByteBuffer.allocateDirect(2 * layout.length()));
    private final AtomicBuffer reader = new UnsafeBuffer(ByteBuffer.allocateDirect(2 * layout.length()));
    private final WriteNoticeLog log = new WriteNoticeLog(owner, 0, layout);
    private final WriteNoticeReader noticeReader = new WriteNoticeReader(new TwoNodePort(), 0, 0, layout.length(),
        layout);
    private final IntArrayList pages = new IntArrayList();

    @Test
    void shouldReadExactlyTheRequestedIntervals()
    {
        assertEquals(1, log.publish(new int[] {10, 11}, 2));
        assertEquals(2, log.publish(new int[] {20}, 1));
        assertEquals(3, log.publish(new int[] {30, 31, 32}, 3));
        assertEquals(WriteNoticeReader.READ, noticeReader.read(1, 1, 3, pages::addInt));
        assertEquals("[20, 30, 31, 32]", pages.toString());
        pages.clear();
        assertEquals(WriteNoticeReader.READ, noticeReader.read(1, 3, 3, pages::addInt));
        assertEquals(0, pages.size());
    }

    @Test
    void shouldReadAcrossTheEndOfBothRings()
    {
        final int[] many = new int[300];
        for (int i = 1; i <= 20; i++)
        {
            java.util.Arrays.fill(many, i);
            log.publish(many, 100);
        }
        assertEquals(WriteNoticeReader.READ, noticeReader.read(1, 17, 20, pages::addInt));
        assertEquals(300, pages.size());
        assertEquals(18, pages.getInt(0));
        assertEquals(20, pages.getInt(299));
    }

    @Test
    void shouldKeepEveryPageInOrderAcrossTheEndOfTheNoticeRing()
    {
        final int base = 64;
        final WriteNoticeLog offsetLog = new WriteNoticeLog(owner, base, layout);
        final WriteNoticeReader offsetReader = new WriteNoticeReader(new TwoNodePort(), 0, base, base + layout.length(),
            layout);
        final byte[] before = new byte[base];
        owner.getBytes(0, before);
        final int[] interval = new int[700];
        for (int sequence = 1; sequence <= 3; sequence++)
        {
            for (int i = 0; i < interval.length; i++)
            {
                interval[i] = sequence * 100_000 + i;
            }
            // the second interval runs from ring position 700 over the end (1 024) to 376
            assertEquals(sequence, offsetLog.publish(interval, 600 + sequence));
        }
        final IntArrayList read = new IntArrayList();
        final WriteNoticeReader.NoticeHandler collect = read::addInt;
        assertEquals(WriteNoticeReader.READ, offsetReader.read(1, 2, 3, collect));
        assertEquals(603, read.size());
        for (int i = 0; i < 603; i++)
        {
            assertEquals(300_000 + i, read.getInt(i), "notice " + i);
        }
        read.clear();
        assertEquals(WriteNoticeReader.LOST, offsetReader.read(1, 1, 3, collect), "the second was overwritten");
        for (int i = 0; i < base; i++)
        {
            assertEquals(before[i], owner.getByte(i), "byte " + i + " before the log");
        }
    }

    @Test
    void shouldReportLostWhenTheLogDroppedTheRange()
    {
        for (int i = 0; i < 40; i++)
        {
            log.publish(new int[] {i}, 1);
        }
        assertEquals(40 - 16 + 1, log.oldest());
        assertEquals(WriteNoticeReader.LOST, noticeReader.read(1, 5, 40, pages::addInt));
        assertEquals(0, pages.size());
        assertEquals(WriteNoticeReader.READ, noticeReader.read(1, 30, 40, pages::addInt));
        assertEquals(10, pages.size());
    }

    @Test
    void shouldReportLostForAnIntervalTooLargeToList()
    {
        log.publish(new int[2000], 2000);
        assertEquals(WriteNoticeReader.LOST, noticeReader.read(1, 0, 1, pages::addInt));
    }

    @Test
    void shouldDropOldNoticesWhenTheRingFills()
    {
        final int[] big = new int[600];
        log.publish(big, 600);
        log.publish(big, 600);
        assertEquals(2, log.oldest(), "the first interval's notices were overwritten");
        assertEquals(WriteNoticeReader.LOST, noticeReader.read(1, 0, 2, pages::addInt));
        assertEquals(WriteNoticeReader.READ, noticeReader.read(1, 1, 2, pages::addInt));
    }

    @Test
    void shouldTrimOnlyWhatIsAsked()
    {
        for (int i = 0; i < 5; i++)
        {
            log.publish(new int[] {i}, 1);
        }
        log.trimBefore(3);
        assertEquals(3, log.oldest());
        assertEquals(3, log.retained());
        log.trimBefore(2);
        assertEquals(3, log.oldest());
        log.trimBefore(100);
        assertEquals(6, log.oldest());
        assertEquals(0, log.retained());
    }

    @Test
    void shouldReportLostWhenIndexEntriesAreTornByAConcurrentPublish()
    {
        final WriteNoticeLogLayout small = new WriteNoticeLogLayout(16, 1024);
        final AtomicBuffer writer = new UnsafeBuffer(ByteBuffer.allocateDirect(small.length()));
        final AtomicBuffer local = new UnsafeBuffer(ByteBuffer.allocateDirect(small.length()));
        final WriteNoticeLog smallLog = new WriteNoticeLog(writer, 0, small);
        for (int sequence = 1; sequence <= 20; sequence++)
        {
            smallLog.publish(new int[] {sequence}, 1);
        }
        final boolean[] armed = {true};
        final StubPort tearing = new StubPort(1, 2)
        {
            @Override
            public AtomicBuffer region(final int region)
            {
                return local;
            }

            @Override
            public void read(final int node, final int region, final long offset, final int localRegion,
                final long localOffset, final int length)
            {
                final int from = (int)offset;
                if (armed[0] && from >= WriteNoticeLogLayout.HEADER_LENGTH && from < small.noticesOffset())
                {
                    armed[0] = false;
                    // A field-by-field copy racing with a publish that reuses the first slot.
                    for (int at = 0; at < length; at += WriteNoticeLogLayout.INDEX_ENTRY_LENGTH)
                    {
                        local.putBytes((int)localOffset + at, writer, from + at, Long.BYTES);
                    }
                    smallLog.publish(new int[] {21}, 1);
                    for (int at = 0; at < length; at += WriteNoticeLogLayout.INDEX_ENTRY_LENGTH)
                    {
                        local.putBytes((int)localOffset + at + Long.BYTES, writer, from + at + Long.BYTES,
                            WriteNoticeLogLayout.INDEX_ENTRY_LENGTH - Long.BYTES);
                    }
                    return;
                }
                local.putBytes((int)localOffset, writer, from, length);
            }
        };
        final WriteNoticeReader reader = new WriteNoticeReader(tearing, 0, 0, 0, small);
        assertEquals(WriteNoticeReader.LOST, reader.read(0, 4, 6, pages::addInt));
        assertEquals(0, pages.size());
    }

    /** Node 0 reads; node 1 owns the log. */
    private final class TwoNodePort extends StubPort
    {
        TwoNodePort()
        {
            super(0, 2);
        }

        @Override
        public AtomicBuffer region(final int region)
        {
            return reader;
        }

        @Override
        public void read(final int node, final int region, final long offset, final int localRegion,
            final long localOffset, final int length)
        {
            reader.putBytes((int)localOffset, owner, (int)offset, length);
        }
    }
}
