package org.viadsm.dsm;

import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.Condition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.testsupport.Interrupter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DsmCondition} on real nodes: a bounded queue between nodes, timeouts, interrupts, misuse, conditions made
 * differently, and a signaller that leaves.
 */
@Timeout(120)
class DsmConditionTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldPassEveryItemOfABoundedQueueExactlyOnce(final String provider)
    {
        final int items = 200;
        final AtomicIntegerArray taken = new AtomicIntegerArray(items);
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray queue = dsm.allocLongs("queue", 4 + 2, Placement.onNode(1));
            final DsmLock lock = dsm.lock(7);
            final DsmCondition notFull = lock.newCondition();
            final DsmCondition notEmpty = lock.newCondition();
            assertEquals(1, notEmpty.id());
            if (0 == dsm.nodeId())
            {
                for (int i = 1; i <= items + 2; i++)
                {
                    lock.lock();
                    try
                    {
                        while (queue.get(4) - queue.get(5) == 4)
                        {
                            notFull.await();
                        }
                        final long put = queue.get(4);
                        queue.set((int)(put % 4), i <= items ? i : -1);
                        queue.set(4, put + 1);
                        notEmpty.signal();
                    }
                    finally
                    {
                        lock.unlock();
                    }
                }
            }
            else
            {
                while (true)
                {
                    final long item;
                    lock.lock();
                    try
                    {
                        while (queue.get(4) == queue.get(5))
                        {
                            notEmpty.awaitUninterruptibly();
                        }
                        final long take = queue.get(5);
                        item = queue.get((int)(take % 4));
                        queue.set(5, take + 1);
                        notFull.signalAll();
                    }
                    finally
                    {
                        lock.unlock();
                    }
                    if (item < 0)
                    {
                        break;
                    }
                    taken.incrementAndGet((int)item - 1);
                }
            }
            dsm.barrier();
        });
        for (int i = 0; i < items; i++)
        {
            assertEquals(1, taken.get(i), "item " + (i + 1));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldTimeOutOrBeInterruptedHoldingTheLockAgain(final String provider)
    {
        final CountDownLatch waiting = new CountDownLatch(1);
        final CountDownLatch woken = new CountDownLatch(1);
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final DsmLock lock = dsm.lock(2);
            final DsmCondition condition = lock.newCondition();
            if (1 == dsm.nodeId())
            {
                lock.lock();
                assertTrue(condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(10)) <= 0);
                assertTrue(lock.isHeldByThisNode(), "a timed-out wait holds the lock again");
                assertFalse(condition.await(5, TimeUnit.MILLISECONDS));
                assertFalse(condition.awaitUntil(new Date(System.currentTimeMillis() - 1000)));
                assertFalse(condition.await(0, TimeUnit.SECONDS));
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, condition::await, "interrupted on entry");
                assertTrue(lock.isHeldByThisNode());
                final Interrupter interrupter =
                    Interrupter.interruptLater(Thread.currentThread(), 30, TimeUnit.MILLISECONDS);
                final InterruptedException ex = assertThrows(InterruptedException.class, condition::await);
                assertEquals("interrupted while waiting on condition 0 of lock 2 on node 1", ex.getMessage());
                assertTrue(lock.isHeldByThisNode(), "an interrupted wait holds the lock again");
                interrupter.join();
                waiting.countDown();
                condition.awaitUninterruptibly();
                assertTrue(lock.isHeldByThisNode());
                lock.unlock();
                woken.countDown();
            }
            else
            {
                assertTrue(waiting.await(60, TimeUnit.SECONDS));
                do
                {
                    lock.lock();
                    try
                    {
                        condition.signal();
                    }
                    finally
                    {
                        lock.unlock();
                    }
                }
                while (!woken.await(10, TimeUnit.MILLISECONDS));
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldRefuseAWaitOrSignalWithoutTheLock(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final Condition condition = dsm.lock(1).newCondition();
            final IllegalMonitorStateException ex = assertThrows(IllegalMonitorStateException.class,
                condition::signal);
            assertEquals("lock 1 is not held by node " + dsm.nodeId() + ", which uses its condition 0",
                ex.getMessage());
            assertThrows(IllegalMonitorStateException.class, condition::await);
            assertThrows(IllegalMonitorStateException.class, condition::awaitUninterruptibly);
            assertThrows(IllegalMonitorStateException.class, () -> condition.awaitNanos(1000));
            dsm.lock(1).lock();
            condition.signalAll();
            dsm.lock(1).unlock();
            dsm.barrier();
        });
    }

    @Test
    void shouldNameTheNodeThatMadeADifferentCondition()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(3, "jvm", context -> { }, dsm ->
            {
                dsm.lock(0).newCondition();
                dsm.lock(2 == dsm.nodeId() ? 4 : 3).newCondition();
            }));
        final List<Throwable> all = new java.util.ArrayList<>(List.of(failure.getCause()));
        all.addAll(List.of(failure.getSuppressed()));
        assertEquals(3, all.size(), "every node fails");
        for (final Throwable ex : all)
        {
            final DsmException dsmEx = assertInstanceOf(DsmException.class, ex);
            assertTrue(dsmEx.getMessage().contains("condition mismatch"), dsmEx.getMessage());
            assertTrue(dsmEx.getMessage().contains("node 2 made condition #1 of lock 4") ||
                dsmEx.getMessage().contains("node 2: condition mismatch: node 2 made condition #1 of lock 4"),
                dsmEx.getMessage());
        }
    }

    @Test
    void shouldNameTheNodeThatAllocatedWhereOthersMadeACondition()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(2, "jvm", context -> { }, dsm ->
            {
                if (0 == dsm.nodeId())
                {
                    dsm.lock(0).newCondition();
                }
                else
                {
                    dsm.allocInts("x", 10);
                }
            }));
        assertTrue(failure.getCause().getMessage().contains("condition #0 of lock 0"),
            failure.getCause().getMessage());
        assertTrue(failure.getCause().getMessage().contains("allocation #1 ints 'x'[10]"),
            failure.getCause().getMessage());
    }

    @Test
    void shouldRefuseMoreConditionsThanLockIds()
    {
        LocalCluster.run(1, "jvm", context -> context.maxLocks(2), dsm ->
        {
            dsm.lock(0).newCondition();
            dsm.lock(0).newCondition();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, dsm.lock(1)::newCondition);
            assertEquals("node 0 cannot make condition #2 of lock 1: a cluster has at most 2 conditions (as many as " +
                "lock ids)", ex.getMessage());
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldFailAWaiterWhenEveryOtherNodeHasLeft(final String provider)
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(2, provider, context -> context.timeouts().leaveNs(TimeUnit.SECONDS.toNanos(30)), dsm ->
            {
                final DsmLock lock = dsm.lock(5);
                final DsmCondition condition = lock.newCondition();
                if (1 == dsm.nodeId())
                {
                    lock.lock();
                    condition.await();
                }
            }));
        final DsmException ex = assertInstanceOf(DsmException.class, failure.getCause());
        assertEquals(1, ex.nodeId());
        assertTrue(ex.getMessage().contains("every other node has left while this node waited for a signal of " +
            "condition 0 on lock 5"), ex.getMessage());
    }
}
