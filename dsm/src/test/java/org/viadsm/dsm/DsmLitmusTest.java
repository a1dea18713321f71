package org.viadsm.dsm;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class DsmLitmusTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldPassAMessageThroughALock(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedDoubleArray data = dsm.allocDoubles("data", 2000);
            final SharedIntArray flag = dsm.allocInts("flag", 1, Placement.onNode(1));
            final DsmLock lock = dsm.lock(11);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                for (int i = 0; i < data.length(); i++)
                {
                    data.set(i, i * 0.5);
                }
                flag.set(0, 1);
                lock.unlock();
            }
            else
            {
                boolean seen = false;
                while (!seen)
                {
                    lock.lock();
                    seen = 1 == flag.get(0);
                    if (seen)
                    {
                        for (int i = 0; i < data.length(); i++)
                        {
                            assertEquals(i * 0.5, data.get(i), "data[" + i + "]");
                        }
                    }
                    lock.unlock();
                }
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldPassAMessageThroughABarrier(final String provider)
    {
        LocalCluster.run(4, provider, context -> { }, dsm ->
        {
            final SharedLongArray data = dsm.allocLongs("data", 4096, Placement.cyclic());
            final int me = dsm.nodeId();
            for (int round = 1; round <= 5; round++)
            {
                for (int i = me; i < data.length(); i += dsm.nodeCount())
                {
                    data.set(i, round * 1_000_000L + i);
                }
                dsm.barrier();
                for (int i = 0; i < data.length(); i++)
                {
                    assertEquals(round * 1_000_000L + i, data.get(i));
                }
                dsm.barrier();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldMergeWritersOfDisjointWordsOfOnePage(final String provider)
    {
        final List<DsmStats> stats = LocalCluster.run(4, provider, context -> { }, dsm ->
        {
            final SharedIntArray page = dsm.allocInts("page", 1024, Placement.onNode(0));
            final SharedByteArray bytes = dsm.allocBytes("bytes", 64, Placement.onNode(0));
            for (int i = dsm.nodeId(); i < page.length(); i += dsm.nodeCount())
            {
                page.set(i, 7 * i + dsm.nodeId());
            }
            for (int i = dsm.nodeId(); i < bytes.length(); i += dsm.nodeCount())
            {
                bytes.set(i, (byte)(i + 1));
            }
            dsm.barrier();
            for (int i = 0; i < page.length(); i++)
            {
                assertEquals(7 * i + i % dsm.nodeCount(), page.get(i), "int " + i);
            }
            for (int i = 0; i < bytes.length(); i++)
            {
                assertEquals((byte)(i + 1), bytes.get(i), "byte " + i);
            }
        });
        for (int node = 1; node < 4; node++)
        {
            assertEquals(2, stats.get(node).get(Statistic.DIFFS), "one diff per page from node " + node);
            assertEquals(256 + 16, stats.get(node).get(Statistic.DIFF_RUNS), "one run per element written");
        }
        assertEquals(0, stats.get(0).get(Statistic.TWINS), "the home does not twin");
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldKeepFalselySharedDataCorrect(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray slots = dsm.allocLongs("slots", 3, Placement.onNode(2));
            for (int i = 0; i < 300; i++)
            {
                final DsmLock lock = dsm.lock(dsm.nodeId());
                lock.lock();
                slots.set(dsm.nodeId(), slots.get(dsm.nodeId()) + 1);
                lock.unlock();
            }
            dsm.barrier();
            for (int node = 0; node < 3; node++)
            {
                assertEquals(300, slots.get(node));
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldLetTheHomeWriteWhileOthersRead(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedDoubleArray data = dsm.allocDoubles("data", 512, Placement.onNode(0));
            for (int step = 1; step <= 30; step++)
            {
                if (0 == dsm.nodeId())
                {
                    data.fill(step);
                }
                dsm.barrier();
                final double[] copy = new double[512];
                data.get(0, copy, 0, 512);
                for (final double value : copy)
                {
                    assertEquals(step, value);
                }
                dsm.barrier();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldCountALockProtectedCounterExactly(final String provider)
    {
        final int nodes = 4;
        // each lock hand-off over tcp costs several engine round trips on an oversubscribed machine: fewer of them
        final int increments = "tcp".equals(provider) ? 1_000 : 10_000;
        final List<DsmStats> stats = LocalCluster.run(nodes, provider, context -> { }, dsm ->
        {
            final SharedLongArray counter = dsm.allocLongs("counter", 1, Placement.onNode(1));
            final DsmLock lock = dsm.lock(0);
            for (int i = 0; i < increments; i++)
            {
                lock.lock();
                counter.set(0, counter.get(0) + 1);
                lock.unlock();
            }
            dsm.barrier();
            assertEquals((long)nodes * increments, counter.get(0));
        });
        final DsmStats total = DsmStats.total(stats);
        assertEquals((long)nodes * increments,
            total.get(Statistic.LOCK_ACQUIRES_LOCAL) + total.get(Statistic.LOCK_ACQUIRES_REMOTE));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldPassWritesThroughSemaphores(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedIntArray data = dsm.allocInts("data", 8);
            if (0 == dsm.nodeId())
            {
                data.set(5, 55);
                dsm.semaphorePost(3);
                dsm.semaphorePost(3);
            }
            else
            {
                dsm.semaphoreWait(3);
                assertEquals(55, data.get(5));
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldReacquireALockItReleasedLastWithNoRemoteOperation(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedLongArray data = dsm.allocLongs("data", 1000, Placement.onNode(0));
            final DsmLock lock = dsm.lock(1);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                lock.unlock();
                final DsmStats before = dsm.stats();
                for (int i = 0; i < data.length(); i++)
                {
                    lock.lock();
                    data.set(i, 3L * i);
                    lock.unlock();
                }
                final DsmStats after = dsm.stats();
                for (final Statistic remote :
                    new Statistic[] {Statistic.RDMA_READS, Statistic.RDMA_WRITES, Statistic.ATOMICS})
                {
                    assertEquals(before.get(remote), after.get(remote), remote.label() + " while the lock stays here");
                }
                assertEquals(before.get(Statistic.LOCK_ACQUIRES_LOCAL) + data.length(),
                    after.get(Statistic.LOCK_ACQUIRES_LOCAL));
                final org.viadsm.dsm.array.LongView view = data.write(0, 10);
                lock.lock();
                assertThrows(IllegalStateException.class, () -> view.set(0, 1), "a cached acquire ends views");
                lock.unlock();
            }
            dsm.barrier();
            lock.lock();
            for (int i = 0; i < data.length(); i++)
            {
                assertEquals(3L * i, data.get(i));
            }
            lock.unlock();
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldTakeALockCachedAtANodeThatIsBusyElsewhere(final String provider)
    {
        final CountDownLatch taken = new CountDownLatch(2);
        final List<DsmStats> stats = LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray data = dsm.allocLongs("data", 3, Placement.onNode(2));
            final DsmLock lock = dsm.lock(2);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                data.set(0, 42);
                lock.unlock();
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                // the lock is cached here, and this node makes no DSM call until both others have taken it
                assertTrue(taken.await(60, TimeUnit.SECONDS), "the others took the lock without this node");
            }
            else
            {
                lock.lock();
                assertEquals(42, data.get(0), "the writes of the node that cached the lock");
                data.set(dsm.nodeId(), data.get(0) + dsm.nodeId());
                lock.unlock();
                taken.countDown();
            }
            dsm.barrier();
            lock.lock();
            assertEquals(43, data.get(1));
            assertEquals(44, data.get(2));
            lock.unlock();
            dsm.barrier();
        });
        assertEquals(2, stats.get(0).get(Statistic.LOCK_ACQUIRES_REMOTE),
            "node 0 asks again once another node has taken the lock");
    }
}
