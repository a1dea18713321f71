package org.viadsm.dsm;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * {@link DsmSemaphore} on real nodes: permits and writes passed between nodes, timeouts, interrupts, bad arguments,
 * and a node that leaves while another waits.
 */
@Timeout(120)
class DsmSemaphoreTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldPassPermitsAndTheReleasersWrites(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedIntArray data = dsm.allocInts("data", 4, Placement.onNode(1));
            final DsmSemaphore semaphore = dsm.semaphore(5);
            assertEquals(5, semaphore.id());
            assertTrue(semaphore == dsm.semaphore(5), "one object per id");
            if (0 == dsm.nodeId())
            {
                data.set(0, 55);
                semaphore.release(2);
            }
            else
            {
                semaphore.acquire();
                assertEquals(55, data.get(0), "the releaser's write");
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                assertEquals(0, semaphore.availablePermits());
                assertFalse(semaphore.tryAcquire());
                assertFalse(semaphore.tryAcquire(10, TimeUnit.MILLISECONDS));
                data.set(1, 66);
                semaphore.release(3);
            }
            dsm.barrier();
            if (2 == dsm.nodeId())
            {
                assertEquals(3, semaphore.availablePermits());
                assertFalse(semaphore.tryAcquire(4, 0, TimeUnit.SECONDS), "not enough");
                assertTrue(semaphore.tryAcquire(2, 5, TimeUnit.SECONDS));
                assertEquals(66, data.get(1));
                semaphore.acquireUninterruptibly();
                assertEquals(0, semaphore.availablePermits());
                dsm.semaphorePost(5);
                dsm.semaphoreWait(5);
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldWakeAWaiterAndEndWaitsByTimeoutOrInterrupt(final String provider)
    {
        final CountDownLatch gaveUp = new CountDownLatch(1);
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final DsmSemaphore semaphore = dsm.semaphore(0);
            if (1 == dsm.nodeId())
            {
                assertFalse(semaphore.tryAcquire(2, 20, TimeUnit.MILLISECONDS));
                final Interrupter interrupter =
                    Interrupter.interruptLater(Thread.currentThread(), 30, TimeUnit.MILLISECONDS);
                final InterruptedException ex = assertThrows(InterruptedException.class, semaphore::acquire);
                assertEquals("interrupted while waiting on semaphore 0 on node 1", ex.getMessage());
                interrupter.join();
                gaveUp.countDown();
                semaphore.acquire(2);
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, () -> semaphore.tryAcquire(1, TimeUnit.SECONDS),
                    "interrupted on entry, even with a permit there");
                Thread.currentThread().interrupt();
                semaphore.acquireUninterruptibly();
                assertTrue(Thread.interrupted(), "the interrupt is kept");
            }
            else
            {
                assertTrue(gaveUp.await(60, TimeUnit.SECONDS));
                Thread.sleep(20);
                semaphore.release(3);
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldRefuseBadArgumentsWithClearMessages(final String provider)
    {
        LocalCluster.run(2, provider, context -> context.maxSemaphores(8), dsm ->
        {
            final IllegalArgumentException badId = assertThrows(IllegalArgumentException.class,
                () -> dsm.semaphore(8));
            assertEquals("semaphore id must be in [0, 8): 8", badId.getMessage());
            assertThrows(IllegalArgumentException.class, () -> dsm.semaphore(-1));
            final DsmSemaphore semaphore = dsm.semaphore(1);
            final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> semaphore.acquire(-1));
            assertEquals("permits must not be negative: -1", negative.getMessage());
            assertThrows(IllegalArgumentException.class, () -> semaphore.release(-2));
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                semaphore.release(Integer.MAX_VALUE);
                final IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
                    semaphore::release);
                assertEquals("semaphore 1 has 2147483647 permits; 1 more would exceed 2147483647",
                    overflow.getMessage());
                assertTrue(semaphore.tryAcquire(Integer.MAX_VALUE));
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldFailAWaiterWhenEveryOtherNodeHasLeft(final String provider)
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(2, provider, context -> context.timeouts().leaveNs(TimeUnit.SECONDS.toNanos(30)), dsm ->
            {
                if (1 == dsm.nodeId())
                {
                    dsm.semaphore(2).acquire();
                }
            }));
        final DsmException ex = assertInstanceOf(DsmException.class, failure.getCause());
        assertEquals(1, ex.nodeId());
        assertTrue(ex.getMessage().contains("every other node has left"), ex.getMessage());
    }
}
