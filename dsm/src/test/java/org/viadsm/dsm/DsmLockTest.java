package org.viadsm.dsm;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.testsupport.Interrupter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The java.util.concurrent rules of {@link DsmLock}'s timed and interruptible forms, on real nodes: a waiter that
 * gives up leaves the queue and the others keep their FIFO order; an interrupt on entry throws at once.
 */
@Timeout(120)
class DsmLockTest
{
    /**
     * Three nodes take turns under one lock, each writing a page of its own per turn and reading every page written
     * in the turns before, which it cached when it read them: the grants' forwarded notices (or the logs, for what
     * a grant did not bring) must invalidate each of them.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldSeeEveryEarlierHoldersWritesAfterContendedHandOffs(final String provider)
    {
        final int turnsPerNode = 20;
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final int stride = dsm.pageSize() / Long.BYTES;
            final SharedLongArray turns = dsm.allocLongs("turns", 1, Placement.onNode(0));
            final SharedLongArray pages = dsm.allocLongs("pages", 3 * turnsPerNode * stride, Placement.cyclic());
            final DsmLock lock = dsm.lock(0);
            for (int i = 0; i < turnsPerNode; i++)
            {
                lock.lock();
                try
                {
                    final int turn = (int)turns.get(0);
                    for (int earlier = 0; earlier < turn; earlier++)
                    {
                        assertEquals(earlier + 1, pages.get(earlier * stride), "turn " + earlier + " at " + turn);
                    }
                    pages.set(turn * stride, turn + 1);
                    turns.set(0, turn + 1);
                }
                finally
                {
                    lock.unlock();
                }
            }
            dsm.barrier();
            assertEquals(3 * turnsPerNode, turns.get(0));
        });
    }

    /**
     * Node 0 releases the lock to the node queued behind it and closes at once, with nothing in between: node 1
     * still gets the lock, with node 0's write.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldGrantTheLockToTheNextNodeWhenTheReleaserClosesAtOnce(final String provider)
    {
        final CountDownLatch queuing = new CountDownLatch(1);
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray data = dsm.allocLongs("data", 4, Placement.onNode(2));
            final DsmLock lock = dsm.lock(0);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                data.set(0, 42);
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                assertTrue(queuing.await(60, TimeUnit.SECONDS));
                Thread.sleep(50);    // node 1 queues meanwhile (the test holds if it is later: it takes the cache)
                lock.unlock();
            }
            else if (1 == dsm.nodeId())
            {
                queuing.countDown();
                lock.lock();
                assertEquals(42, data.get(0), "node 0's write before its release");
                lock.unlock();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldLeaveTheQueueOnTimeoutOrInterruptAndServeTheOthersInOrder(final String provider)
    {
        final CountDownLatch gaveUp = new CountDownLatch(1);
        final CountDownLatch queued = new CountDownLatch(1);
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray order = dsm.allocLongs("order", 4, Placement.onNode(0));
            final DsmLock lock = dsm.lock(9);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                order.set(0, 1);
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                assertTrue(queued.await(60, TimeUnit.SECONDS));
                Thread.sleep(50);
                lock.unlock();
            }
            else if (1 == dsm.nodeId())
            {
                assertFalse(lock.tryLock(), "held by node 0");
                assertFalse(lock.tryLock(30, TimeUnit.MILLISECONDS), "still held by node 0");
                final Interrupter interrupter =
                    Interrupter.interruptLater(Thread.currentThread(), 30, TimeUnit.MILLISECONDS);
                final InterruptedException ex = assertThrows(InterruptedException.class, lock::lockInterruptibly);
                assertEquals("interrupted while waiting for lock 9 on node 1", ex.getMessage());
                assertFalse(Thread.currentThread().isInterrupted(), "the interrupted status is cleared");
                assertFalse(lock.isHeldByThisNode());
                interrupter.join();
                gaveUp.countDown();
            }
            else
            {
                assertTrue(gaveUp.await(60, TimeUnit.SECONDS));
                queued.countDown();
                lock.lock();
                assertEquals(1, order.get(0), "node 0's writes");
                order.set(0, 2);
                lock.unlock();
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                assertTrue(lock.tryLock(5, TimeUnit.SECONDS));
                assertEquals(2, order.get(0), "node 2 had the lock before this node");
                lock.unlock();
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldThrowInterruptedOnEntryEvenWhenTheLockIsFree(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final DsmLock lock = dsm.lock(3);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, lock::lockInterruptibly);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
            assertFalse(lock.isHeldByThisNode());
            Thread.currentThread().interrupt();
            lock.lock();
            assertTrue(Thread.interrupted(), "lock() keeps the interrupt");
            lock.unlock();
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                assertTrue(lock.tryLock(0, TimeUnit.SECONDS), "a free lock, wherever it is cached");
                lock.unlock();
            }
            dsm.barrier();
        });
    }
}
