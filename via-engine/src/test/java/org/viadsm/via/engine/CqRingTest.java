package org.viadsm.via.engine;

import java.util.concurrent.TimeUnit;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CqRingTest
{
    private final NicGeometry geometry = new NicGeometry(4, 8, 4, 2, 1024, 16, 1024, 1024);
    private final UnsafeBuffer area = new UnsafeBuffer(BufferUtil.allocateDirectAligned(geometry.areaLength(), 64));
    private final CqRing ring = new CqRing(area, geometry, 1);

    @Test
    void shouldEncodeEntries()
    {
        final long entry = CqLayout.entry(300, true, 7);
        assertEquals(300, CqLayout.viId(entry));
        assertTrue(CqLayout.isRecvQueue(entry));
        assertTrue(CqLayout.isOf(entry, 7));
        assertTrue(CqLayout.isOf(entry, 7 + 65536));
        assertFalse(CqLayout.isOf(entry, 8));
        assertEquals(65535, CqLayout.viId(CqLayout.entry(65535, true, 65535)));
        assertFalse(CqLayout.isRecvQueue(CqLayout.entry(0, false, 0)));
        assertEquals(0, CqLayout.viId(CqLayout.entry(0, false, 0)));
    }

    @Test
    void shouldHoldExactlyItsCapacityAndResize()
    {
        ring.capacity(3);
        assertTrue(ring.offer(1));
        assertTrue(ring.offer(2));
        assertTrue(ring.offer(3));
        assertFalse(ring.offer(4));
        assertEquals(3, ring.size());
        assertEquals(1, ring.poll());
        ring.capacity(5);
        assertTrue(ring.offer(5));
        assertTrue(ring.offer(6));
        assertTrue(ring.offer(7));
        assertFalse(ring.offer(8));
        assertTrue(ring.isReady());
        for (final long expected : new long[]{2, 3, 5, 6, 7})
        {
            assertEquals(expected, ring.poll());
        }
        assertEquals(0, ring.poll());
        assertFalse(ring.isReady());
        assertThrows(IllegalArgumentException.class, () -> ring.capacity(0));
        assertThrows(IllegalArgumentException.class, () -> ring.capacity(1025));
    }

    @Test
    void shouldClearQueuedEntries()
    {
        ring.capacity(8);
        ring.offer(1);
        ring.offer(2);
        ring.clear();
        assertEquals(0, ring.size());
        assertEquals(0, ring.poll());
        ring.offer(3);
        assertEquals(3, ring.poll());
    }

    @Test
    @Timeout(30)
    void shouldLoseNothingWithManyProducers() throws Exception
    {
        ring.capacity(1024);
        final int producers = 3;
        final int perProducer = 50_000;
        final Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++)
        {
            final int id = p;
            threads[p] = new Thread(() ->
            {
                for (int i = 0; i < perProducer; i++)
                {
                    while (!ring.offer(CqLayout.entry(id, (i & 1) == 1, 0)))
                    {
                        Thread.yield();
                    }
                }
            });
            threads[p].start();
        }
        final int[] seen = new int[producers];
        int total = 0;
        while (total < producers * perProducer)
        {
            final long entry = ring.poll();
            if (0 == entry)
            {
                Thread.yield();
                continue;
            }
            final int vi = CqLayout.viId(entry);
            assertEquals((seen[vi] & 1) == 1, CqLayout.isRecvQueue(entry));
            seen[vi]++;
            total++;
        }
        for (final Thread t : threads)
        {
            t.join();
        }
        for (final int count : seen)
        {
            assertEquals(perProducer, count);
        }
    }

    @Test
    @Timeout(30)
    void shouldSkipASlotWhoseProducerDiedBetweenReservingAndWritingIt()
    {
        final CqRing ring = new CqRing(area, geometry, 1, TimeUnit.MILLISECONDS.toNanos(20));
        ring.capacity(8);
        assertTrue(ring.offer(1));
        assertEquals(1, ring.poll());
        final int tail = geometry.cqOffset(1) + CqLayout.TAIL_OFFSET;
        area.putLongVolatile(tail, area.getLongVolatile(tail) + 1);
        assertTrue(ring.offer(3));
        assertEquals(2, ring.size());
        assertEquals(0, ring.poll(), "the reserved slot holds the entries behind it back");
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long entry;
        while (0 == (entry = ring.poll()) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
        assertEquals(3, entry, "after the stall timeout the slot is skipped");
        assertEquals(0, ring.size());
        final int reservedSlot = geometry.cqOffset(1) + CqLayout.SLOTS_OFFSET + CqLayout.SLOT_LENGTH;
        assertFalse(area.compareAndSetLong(reservedSlot, 0, 99), "the dead producer's slot takes no late write");
        for (int i = 0; i < 2 * ring.slots(); i++)
        {
            assertTrue(ring.offer(i + 1));
            assertEquals(i + 1, ring.poll());
        }
    }

    @Test
    void shouldLetOneProducerReportAnOverrunUntilTheConsumerTakesAnEntry()
    {
        ring.capacity(1);
        assertTrue(ring.offer(5));
        assertFalse(ring.offer(6));
        assertTrue(ring.markOverrun());
        assertFalse(ring.offer(7));
        assertFalse(ring.markOverrun(), "the same overrun is reported once");
        assertEquals(5, ring.poll());
        assertTrue(ring.offer(8));
        assertFalse(ring.offer(9));
        assertTrue(ring.markOverrun(), "a new overrun after the consumer took an entry");
    }
}
