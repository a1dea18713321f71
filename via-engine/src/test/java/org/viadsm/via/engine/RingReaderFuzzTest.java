package org.viadsm.via.engine;

import java.lang.management.ManagementFactory;
import java.util.Random;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.AsyncError;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded fuzzing of the readers of the rings other processes write in a NIC's shared area (the asynchronous-error
 * ring, the connection-request ring, a completion queue): valid records, then random bytes written anywhere in the
 * ring (record headers, lengths, types, contents, positions), then the owner reads. Every read returns (no
 * exception, no endless loop), hands on only records whose fields fit them, and allocates no more than a record's
 * worth, whatever a length in the ring claims; the ring goes on working. {@code -Dviadsm.fuzz.cases=N} and
 * {@code -Dviadsm.fuzz.seed=S} scale and reproduce a run.
 */
@Timeout(120)
class RingReaderFuzzTest
{
    /** Allocation a read may make: a few records' worth of strings and objects, far below what garbage claims. */
    private static final long ALLOCATION_LIMIT = 64 * 1024;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    @Test
    void shouldReadScribbledRingsWithoutFailingLoopingOrAllocating()
    {
        final int cases = Integer.getInteger("viadsm.fuzz.cases", 200);
        final long seed = Long.getLong("viadsm.fuzz.seed", 20_251_125L);
        final NicGeometry geometry = NicGeometryTest.small();
        for (int i = 0; i < cases; i++)
        {
            final long caseSeed = seed * 1_000_003L + i;
            final Random random = new Random(caseSeed);
            final UnsafeBuffer area = new UnsafeBuffer(BufferUtil.allocateDirectAligned(geometry.areaLength(), 64));
            final ErrorRing errors = new ErrorRing(area, geometry);
            final RequestRing requests = new RequestRing(area, geometry);
            final CqRing cq = new CqRing(area, geometry, 0, 0);
            cq.capacity(cq.slots());
            for (int k = random.nextInt(6); k > 0; k--)
            {
                errors.offer(AsyncError.CONNECTION_LOST, random.nextInt(8), "peer " + k + " died");
                requests.offer(ConnectMessageFlyweight.TYPE_PEER_REQUEST, random.nextLong(), "shm:n" + k, k, k, 7L,
                    4, 4096, 0);
                cq.offer(CqLayout.entry(k, random.nextBoolean(), 1));
            }
            final String where = "case " + i + " (-Dviadsm.fuzz.seed=" + seed + ", case seed " + caseSeed + ")";
            scribble(area, random, geometry.errorRingOffset(), geometry.errorRingLength());
            scribble(area, random, geometry.requestRingOffset(), geometry.requestRingLength());
            scribble(area, random, geometry.cqOffset(0), geometry.cqLength());
            for (int round = 0; round < 2; round++)
            {
                read(i > 0, where, () -> errors.drain((error, vi, detail) -> assertTrue(null != error &&
                    detail.length() <= ErrorRing.MAX_DETAIL_LENGTH, where + ": " + error + " " + detail)));
                read(i > 0, where, () -> requests.drain((type, message) -> message.address()));
                read(i > 0, where, () ->
                {
                    for (int polls = 0; polls <= cq.slots() && 0 != cq.poll(); polls++)
                    {
                        assertTrue(polls < cq.slots(), where + ": the completion queue never empties");
                    }
                });
                errors.unblockIfStalled(System.nanoTime(), 0);
                requests.unblockIfStalled(System.nanoTime(), 0);
            }
        }
    }

    /** Writes random bytes, ints and longs at random places of a section, headers and positions included. */
    private static void scribble(final UnsafeBuffer area, final Random random, final int offset, final int length)
    {
        for (int n = random.nextInt(1, 12); n > 0; n--)
        {
            final int at = offset + random.nextInt(length - 8);
            switch (random.nextInt(4))
            {
                case 0:
                    area.putByte(at, (byte)random.nextInt());
                    break;
                case 1:
                    area.putInt(at & ~3, random.nextInt());
                    break;
                case 2:
                    area.putInt(at & ~3, random.nextBoolean() ? Integer.MAX_VALUE : random.nextInt(1 << 16));
                    break;
                default:
                    area.putLong(at & ~7, random.nextLong());
                    break;
            }
        }
    }

    /** Runs a read; counts what it allocates once the first case has loaded the classes and lambdas. */
    private static void read(final boolean count, final String where, final Runnable reader)
    {
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        reader.run();
        final long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertTrue(!count || allocated <= ALLOCATION_LIMIT, where + ": a read allocated " + allocated + " bytes");
    }
}
