package org.viadsm.dsm;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.testsupport.Await;
import org.viadsm.testsupport.Interrupter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DsmBarrier} on real nodes: arrival indexes, writes passed on, and breaking by timeout, interrupt and a
 * node that leaves.
 */
@Timeout(120)
class DsmBarrierTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldGiveEveryNodeADifferentArrivalIndexAndPassTheWrites(final String provider)
    {
        final int nodes = 3;
        final int rounds = 10;
        final AtomicIntegerArray indexes = new AtomicIntegerArray(rounds * nodes);
        LocalCluster.run(nodes, provider, context -> { }, dsm ->
        {
            final SharedLongArray data = dsm.allocLongs("data", 3 * 512, Placement.cyclic());
            final DsmBarrier barrier = dsm.clusterBarrier();
            assertEquals(nodes, barrier.parties());
            for (int round = 1; round <= rounds; round++)
            {
                for (int i = dsm.nodeId(); i < data.length(); i += nodes)
                {
                    data.set(i, round * 10_000L + i);
                }
                final int index = 0 == round % 2 ? barrier.await() : barrier.await(60, TimeUnit.SECONDS);
                indexes.incrementAndGet((round - 1) * nodes + index);
                for (int i = 0; i < data.length(); i++)
                {
                    assertEquals(round * 10_000L + i, data.get(i));
                }
                dsm.barrier();
            }
            assertFalse(barrier.isBroken());
        });
        for (int i = 0; i < indexes.length(); i++)
        {
            assertEquals(1, indexes.get(i), "round " + (i / nodes + 1) + " arrival index " + i % nodes);
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldBreakForEveryNodeWhenOneTimesOut(final String provider)
    {
        final CountDownLatch timedOut = new CountDownLatch(1);
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final DsmBarrier barrier = dsm.clusterBarrier();
            if (2 == dsm.nodeId())
            {
                final TimeoutException ex = assertThrows(TimeoutException.class,
                    () -> barrier.await(20, TimeUnit.MILLISECONDS));
                assertEquals("node 2 timed out after 20 milliseconds in the barrier, which is now broken",
                    ex.getMessage());
                timedOut.countDown();
            }
            else
            {
                assertTrue(timedOut.await(60, TimeUnit.SECONDS));
                Await.until(barrier::isBroken, "the breaking reached this node");
                final BrokenBarrierException ex = assertThrows(BrokenBarrierException.class, barrier::await);
                assertEquals("node " + dsm.nodeId() + ": the barrier is broken: node 2 timed out in it",
                    ex.getMessage());
            }
            assertTrue(barrier.isBroken());
            assertThrows(BrokenBarrierException.class, () -> barrier.await(1, TimeUnit.SECONDS));
            final DsmException shortForm = assertThrows(DsmException.class, dsm::barrier);
            assertTrue(shortForm.getMessage().contains("the barrier is broken"), shortForm.getMessage());
            final DsmLock lock = dsm.lock(1);
            lock.lock();
            lock.unlock();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldBreakForEveryNodeWhenOneIsInterrupted(final String provider)
    {
        final CountDownLatch interrupted = new CountDownLatch(1);
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final DsmBarrier barrier = dsm.clusterBarrier();
            if (1 == dsm.nodeId())
            {
                final Interrupter interrupter =
                    Interrupter.interruptLater(Thread.currentThread(), 30, TimeUnit.MILLISECONDS);
                assertThrows(InterruptedException.class, barrier::await);
                assertFalse(Thread.currentThread().isInterrupted());
                interrupter.join();
                interrupted.countDown();
            }
            else
            {
                assertTrue(interrupted.await(60, TimeUnit.SECONDS));
                final BrokenBarrierException ex = assertThrows(BrokenBarrierException.class, barrier::await);
                assertTrue(ex.getMessage().contains("node 1 was interrupted in it"), ex.getMessage());
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldThrowInterruptedOnEntryAndBreakTheBarrier(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final DsmBarrier barrier = dsm.clusterBarrier();
            if (0 == dsm.nodeId())
            {
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, barrier::await);
            }
            else
            {
                assertThrows(BrokenBarrierException.class, barrier::await);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldNameANodeThatLeavesWhileTheOthersWait(final String provider)
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(3, provider, context -> context.timeouts().leaveNs(TimeUnit.SECONDS.toNanos(30)), dsm ->
            {
                if (1 != dsm.nodeId())
                {
                    dsm.clusterBarrier().await();
                }
            }));
        final DsmException ex = assertInstanceOf(DsmException.class, failure.getCause());
        assertTrue(ex.getMessage().contains("node 1 left the cluster while this node waited for barrier"),
            ex.getMessage());
    }
}
