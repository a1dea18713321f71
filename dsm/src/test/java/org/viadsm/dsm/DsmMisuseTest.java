package org.viadsm.dsm;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class DsmMisuseTest
{
    @Test
    void shouldRefuseOutOfRangeIndicesAndWriteNothing()
    {
        LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("a", 10);
            assertThrows(IndexOutOfBoundsException.class, () -> a.get(10));
            assertThrows(IndexOutOfBoundsException.class, () -> a.set(-1, 1.0));
            assertThrows(IndexOutOfBoundsException.class, () -> a.set(8, new double[] {1, 2, 3}, 0, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> a.get(0, new double[2], 0, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> a.fill(5, 11, 1.0));
            assertThrows(IndexOutOfBoundsException.class, () -> a.range(2, 1));
            dsm.barrier();
            for (int i = 0; i < 10; i++)
            {
                assertEquals(0.0, a.get(i));
            }
            final SharedDoubleArray view = a.range(3, 6);
            assertEquals(3, view.length());
            assertThrows(IndexOutOfBoundsException.class, () -> view.get(3));
            dsm.barrier();
        });
    }

    @Test
    void shouldThrowIllegalMonitorStateForUnlockWithoutLock()
    {
        LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final IllegalMonitorStateException ex =
                assertThrows(IllegalMonitorStateException.class, () -> dsm.lock(4).unlock());
            assertEquals("lock 4 is not held by node " + dsm.nodeId(), ex.getMessage());
            assertThrows(IllegalArgumentException.class, () -> dsm.lock(-1));
            dsm.lock(4).lock();
            assertThrows(IllegalStateException.class, () -> dsm.lock(4).lock());
            assertTrue(dsm.lock(4).isHeldByThisNode());
            dsm.lock(4).unlock();
            assertFalse(dsm.lock(4).isHeldByThisNode());
            dsm.barrier();
        });
    }

    @Test
    void shouldTryLockWithTimeoutAndInterruption()
    {
        LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final DsmLock lock = dsm.lock(9);
            if (0 == dsm.nodeId())
            {
                lock.lock();
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                assertFalse(lock.tryLock());
                assertFalse(lock.tryLock(20, TimeUnit.MILLISECONDS));
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, lock::lockInterruptibly);
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                lock.unlock();
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
                lock.unlock();
                lock.lockInterruptibly();
                lock.unlock();
            }
            dsm.barrier();
        });
    }

    @Test
    void shouldFailEveryNodeOnAnAllocationMismatchNamingTheNodeThatDisagreed()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(3, "jvm", context -> { }, dsm ->
            {
                dsm.allocDoubles("first", 100);
                if (2 == dsm.nodeId())
                {
                    dsm.allocInts("grid", 100);
                }
                else
                {
                    dsm.allocDoubles("grid", 100);
                }
            }));
        final List<Throwable> all = new java.util.ArrayList<>(List.of(failure.getCause()));
        all.addAll(List.of(failure.getSuppressed()));
        assertEquals(3, all.size(), "every node fails");
        for (final Throwable ex : all)
        {
            final DsmException dsmEx = assertInstanceOf(DsmException.class, ex);
            assertTrue(dsmEx.getMessage().contains("allocation mismatch"), dsmEx.getMessage());
            assertTrue(dsmEx.getMessage().contains("allocation #2 ints 'grid'[100]"), dsmEx.getMessage());
            assertTrue(dsmEx.getMessage().contains("node 2"), dsmEx.getMessage());
        }
    }

    @Test
    void shouldNameTheNodeWhenPlacementsDiffer()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(2, "jvm", context -> { }, dsm ->
                dsm.allocLongs("x", 10_000, 0 == dsm.nodeId() ? Placement.block() : Placement.cyclic())));
        assertTrue(failure.getCause().getMessage().contains("allocation mismatch"), failure.getCause().getMessage());
    }

    @Test
    void shouldFailBarriersOnOtherNodesWhenANodeClosesEarly()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(3, "jvm", context -> context.timeouts().leaveNs(TimeUnit.SECONDS.toNanos(30)), dsm ->
            {
                dsm.allocLongs("x", 10);
                if (1 == dsm.nodeId())
                {
                    return;
                }
                dsm.barrier();
            }));
        final DsmException ex = assertInstanceOf(DsmException.class, failure.getCause());
        assertTrue(ex.getMessage().contains("node 1 left the cluster while this node waited for barrier"),
            ex.getMessage());
    }

    @Test
    void shouldRefuseNodesConfiguredDifferently()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(2, "jvm",
                context -> context.pageSize(0 == context.nodeId() ? 4096 : 8192).timeouts()
                    .connectNs(TimeUnit.SECONDS.toNanos(20)),
                dsm -> { }));
        assertTrue(failure.getMessage().contains("pageSize"), failure.getMessage());
    }

    @Test
    void shouldRefuseBadArgumentsAndUseAfterClose()
    {
        final SharedLongArray[] kept = new SharedLongArray[1];
        LocalCluster.run(1, "jvm", context -> { }, dsm ->
        {
            assertThrows(IllegalArgumentException.class, () -> dsm.allocLongs("", 10));
            assertThrows(IllegalArgumentException.class, () -> dsm.allocLongs("neg", -1));
            assertThrows(IllegalArgumentException.class, () -> dsm.allocDoubles("huge", Integer.MAX_VALUE));
            kept[0] = dsm.allocLongs("kept", 4);
            kept[0].set(0, 1);
            assertEquals(1, kept[0].get(0));
        });
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> kept[0].get(0));
        assertEquals("node 0 is closed", ex.getMessage());
    }

    @Test
    void shouldFailWaitersInsteadOfHangingWhenAHolderFailsInsideItsCriticalSection()
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(3, "jvm", context -> { }, dsm ->
            {
                final DsmLock lock = dsm.lock(2);
                if (0 == dsm.nodeId())
                {
                    lock.lock();
                }
                dsm.barrier();
                if (0 == dsm.nodeId())
                {
                    Thread.sleep(100);
                    throw new IllegalStateException("application bug inside the critical section");
                }
                lock.lock();
                lock.unlock();
            }));
        assertEquals(0, failure.nodeId());
        assertEquals("application bug inside the critical section", failure.getCause().getMessage());
        assertEquals(2, failure.getSuppressed().length);
        for (final Throwable other : failure.getSuppressed())
        {
            assertTrue(other.getMessage().contains("left the cluster"), other.getMessage());
        }
    }
}
