package org.viadsm.dsm;

import java.util.concurrent.locks.Condition;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's {@code Pipeline} on 3 nodes of every provider: a bounded producer-consumer queue on a lock and two
 * conditions, an exact counter of 3 x 10 000 {@code getAndAdd}, results handed over with a semaphore, and a
 * barrier. (The README's own copy runs as separate processes in {@link ReadmeExamplesTest}.)
 */
@Timeout(120)
class DsmPipelineTest
{
    private static final int SLOTS = 8;
    private static final int ITEMS = 1000;

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldCountExactlyAndPassEveryItemOnce(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray queue = dsm.allocLongs("queue", SLOTS + 2, Placement.onNode(1));
            final SharedLongArray sums = dsm.allocLongs("sums", 2 * dsm.nodeCount());
            final SharedIntArray seen = dsm.allocInts("seen", ITEMS + 1);
            final DsmAtomicLong counter = dsm.allocAtomicLong("counter", Placement.onNode(2));
            final DsmLock lock = dsm.lock(0);
            final Condition notFull = lock.newCondition();
            final Condition notEmpty = lock.newCondition();
            for (int i = 0; i < 10_000; i++)
            {
                counter.getAndAdd(1);
            }
            final int consumers = dsm.nodeCount() - 1;
            if (0 == dsm.nodeId())
            {
                for (long item = 1; item <= ITEMS + consumers; item++)
                {
                    put(lock, notFull, notEmpty, queue, item <= ITEMS ? item : 0);
                }
                dsm.semaphore(0).acquire(consumers);
                long items = 0;
                long sum = 0;
                for (int node = 1; node <= consumers; node++)
                {
                    items += sums.get(2 * node);
                    sum += sums.get(2 * node + 1);
                }
                assertEquals(ITEMS, items);
                assertEquals((long)ITEMS * (ITEMS + 1) / 2, sum);
            }
            else
            {
                long items = 0;
                long sum = 0;
                for (long item; 0 != (item = take(lock, notFull, notEmpty, queue)); items++)
                {
                    sum += item;
                    assertEquals(0, seen.getAndAdd((int)item, 1), "item " + item + " taken twice");
                }
                sums.set(2 * dsm.nodeId(), items);
                sums.set(2 * dsm.nodeId() + 1, sum);
                dsm.semaphore(0).release();
            }
            final int arrival = dsm.clusterBarrier().await();
            assertTrue(arrival >= 0 && arrival < dsm.nodeCount());
            assertEquals(30_000, counter.get(), "3 x 10 000 getAndAdd");
            for (int item = 1; item <= ITEMS; item++)
            {
                assertEquals(1, seen.get(item), "item " + item);
            }
            dsm.barrier();
        });
    }

    private static void put(final DsmLock lock, final Condition notFull, final Condition notEmpty,
        final SharedLongArray queue, final long item) throws InterruptedException
    {
        lock.lock();
        try
        {
            while (queue.get(SLOTS) - queue.get(SLOTS + 1) == SLOTS)
            {
                notFull.await();
            }
            final long put = queue.get(SLOTS);
            queue.set((int)(put % SLOTS), item);
            queue.set(SLOTS, put + 1);
            notEmpty.signal();
        }
        finally
        {
            lock.unlock();
        }
    }

    private static long take(final DsmLock lock, final Condition notFull, final Condition notEmpty,
        final SharedLongArray queue) throws InterruptedException
    {
        lock.lock();
        try
        {
            while (queue.get(SLOTS) == queue.get(SLOTS + 1))
            {
                notEmpty.await();
            }
            final long take = queue.get(SLOTS + 1);
            queue.set(SLOTS + 1, take + 1);
            notFull.signal();
            return queue.get((int)(take % SLOTS));
        }
        finally
        {
            lock.unlock();
        }
    }
}
