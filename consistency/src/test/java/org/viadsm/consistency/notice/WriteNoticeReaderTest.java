package org.viadsm.consistency.notice;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.consistency.port.StubPort;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WriteNoticeReaderTest
{
    private final WriteNoticeLogLayout layout = new WriteNoticeLogLayout(16, 1024);
    private final AtomicBuffer[] logs = {null, buffer(layout.length()), buffer(layout.length())};
    private final WriteNoticeLog log1 = new WriteNoticeLog(logs[1], 0, layout);
    private final WriteNoticeLog log2 = new WriteNoticeLog(logs[2], 0, layout);
    private final AtomicBuffer local = buffer(layout.length());
    private final DeferredPort port = new DeferredPort();
    private final WriteNoticeReader reader = new WriteNoticeReader(port, 0, 0, 0, layout);
    private final IntArrayList pages = new IntArrayList();

    @Test
    void shouldReadTheLogsOfEveryLaggingNodeInThreeRoundTrips()
    {
        log1.publish(new int[] {10, 11}, 2);
        log1.publish(new int[] {12}, 1);
        log2.publish(new int[] {20}, 1);
        log2.publish(new int[] {21, 22}, 2);
        assertEquals(WriteNoticeReader.READ, read(clock(0, 0, 0), clock(0, 2, 2)));
        assertEquals("[10, 11, 12, 20, 21, 22]", pages.toString());
        assertEquals(3, port.rounds);
    }

    @Test
    void shouldReadOnlyTheIntervalsTheIncomingClockAddsOfOtherNodes()
    {
        log1.publish(new int[] {10}, 1);
        log1.publish(new int[] {11}, 1);
        log2.publish(new int[] {20}, 1);
        log2.publish(new int[] {21}, 1);
        assertEquals(WriteNoticeReader.READ, read(clock(3, 2, 1), clock(9, 2, 2)));
        assertEquals("[21]", pages.toString());
        assertEquals(3, port.rounds);
        pages.clear();
        assertEquals(WriteNoticeReader.READ, read(clock(3, 2, 2), clock(9, 1, 2)));
        assertEquals(0, pages.size());
        assertEquals(3, port.rounds, "nothing to read, no round trip");
    }

    @Test
    void shouldReadARangeTooLongForItsSliceAloneAfterTheOthers()
    {
        final int[] many = new int[700];
        for (int i = 0; i < many.length; i++)
        {
            many[i] = 1000 + i;
        }
        log1.publish(many, many.length);
        log2.publish(new int[] {20}, 1);
        assertEquals(WriteNoticeReader.READ, read(clock(0, 0, 0), clock(0, 1, 1)));
        assertEquals(701, pages.size());
        assertEquals(20, pages.getInt(0));
        assertEquals(1000, pages.getInt(1));
        assertEquals(1699, pages.getInt(700));
        assertEquals(6, port.rounds, "three together, then three for the long range alone");
    }

    @Test
    void shouldReportLostWhenOneLogDroppedTheRangeAndHandNoPage()
    {
        log1.publish(new int[] {10}, 1);
        for (int i = 0; i < 40; i++)
        {
            log2.publish(new int[] {i}, 1);
        }
        assertEquals(WriteNoticeReader.LOST, read(clock(0, 0, 20), clock(0, 1, 40)));
        assertEquals(0, pages.size());
        assertEquals(0, port.rounds, "a range longer than the log is lost before anything is read");
        assertEquals(WriteNoticeReader.LOST, read(clock(0, 0, 20), clock(0, 1, 30)));
        assertEquals(0, pages.size());
        assertEquals(0, port.started.size(), "every read started has landed");
        assertEquals(WriteNoticeReader.READ, read(clock(0, 0, 30), clock(0, 1, 40)));
        assertEquals(11, pages.size());
    }

    private int read(final long[] applied, final long[] incoming)
    {
        for (int node = 1; node < applied.length; node++)
        {
            reader.addRange(node, applied[node], incoming[node]);
        }
        return reader.readRanges(pages::addInt);
    }

    private static long[] clock(final long... entries)
    {
        return entries;
    }

    private static AtomicBuffer buffer(final int length)
    {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    }

    /** Node 0 reads; a started read lands only when the reads are awaited, in the order started. */
    private final class DeferredPort extends StubPort
    {
        private final List<long[]> started = new ArrayList<>();
        private int rounds;

        DeferredPort()
        {
            super(0, 3);
        }

        @Override
        public AtomicBuffer region(final int region)
        {
            return local;
        }

        @Override
        public void read(final int node, final int region, final long offset, final int localRegion,
            final long localOffset, final int length)
        {
            local.putBytes((int)localOffset, logs[node], (int)offset, length);
        }

        @Override
        public void startRead(final int node, final int region, final long offset, final int localRegion,
            final long localOffset, final int length)
        {
            started.add(new long[] {node, offset, localOffset, length});
        }

        @Override
        public void awaitReads()
        {
            if (!started.isEmpty())
            {
                rounds++;
            }
            for (final long[] read : started)
            {
                read((int)read[0], 0, read[1], 0, read[2], (int)read[3]);
            }
            started.clear();
        }
    }
}
