package org.viadsm.dsm;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A node alone: lock hand-offs that stay on the node keep every value written under them and close no interval
 * (nobody else can cache its pages), and the handles of locks and semaphores are one object per id over the whole
 * id range.
 */
@Timeout(120)
class NodeAloneTest
{
    private static final int MAX_LOCKS = 64;
    private static final int MAX_SEMAPHORES = 16;
    private static final int ROUNDS = 2048;

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldKeepEveryWriteAcrossLocalLockHandOffsWithoutClosingAnInterval(final String provider)
    {
        final List<DsmStats> stats = LocalCluster.run(1, provider, context -> context.maxLocks(MAX_LOCKS), dsm ->
        {
            final SharedLongArray counts = dsm.allocLongs("counts", MAX_LOCKS);
            final SharedDoubleArray sums = dsm.allocDoubles("sums", MAX_LOCKS * 1024);
            final SharedIntArray last = dsm.allocInts("last", MAX_LOCKS);
            dsm.resetStats();
            for (int round = 0; round < ROUNDS; round++)
            {
                final int id = round * 7 % MAX_LOCKS;
                final DsmLock lock = dsm.lock(id);
                lock.lock();
                counts.set(id, counts.get(id) + 1);
                sums.set(id * 1024 + round % 1024, sums.get(id * 1024 + round % 1024) + round);
                last.set(id, round);
                lock.unlock();
            }
            long total = 0;
            double sum = 0;
            for (int id = 0; id < MAX_LOCKS; id++)
            {
                total += counts.get(id);
                assertEquals(ROUNDS / MAX_LOCKS, counts.get(id), "lock " + id + "'s count");
                for (int i = 0; i < 1024; i++)
                {
                    sum += sums.get(id * 1024 + i);
                }
                assertEquals(lastRoundOf(id), last.get(id), "the last round under lock " + id);
            }
            assertEquals(ROUNDS, total);
            assertEquals((double)ROUNDS * (ROUNDS - 1) / 2, sum);
        });
        final DsmStats node = stats.get(0);
        // a lock's first acquire takes it from its manager (this node), the others find it cached here
        assertEquals(MAX_LOCKS, node.get(Statistic.LOCK_ACQUIRES_REMOTE));
        assertEquals(ROUNDS - MAX_LOCKS, node.get(Statistic.LOCK_ACQUIRES_LOCAL));
        assertEquals(0, node.get(Statistic.INTERVALS));
        assertEquals(0, node.get(Statistic.WRITE_FAULTS));
        assertEquals(0, node.get(Statistic.READ_FAULTS));
        assertEquals(0, node.get(Statistic.MESSAGES_SENT));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldReadWithoutFaultsAndRefuseElementAccessOnceFreed(final String provider)
    {
        final List<DsmStats> stats = LocalCluster.run(1, provider, context -> { }, dsm ->
        {
            final SharedIntArray a = dsm.allocInts("a", 5000);
            final SharedIntArray part = a.range(1000, 2000);
            dsm.resetStats();
            for (int i = 0; i < a.length(); i++)
            {
                a.set(i, 3 * i);
            }
            long sum = 0;
            for (int i = 0; i < part.length(); i++)
            {
                sum += part.get(i);
            }
            assertEquals(3L * (1000 + 1999) * 1000 / 2, sum);
            assertEquals(3 * 4999, a.get(4999));
            final DsmStats before = dsm.stats();
            assertEquals(0, before.get(Statistic.READ_FAULTS));
            assertEquals(0, before.get(Statistic.WRITE_FAULTS));
            dsm.free(a);
            assertEquals("shared array 'a' was freed",
                assertThrows(IllegalStateException.class, () -> a.get(0)).getMessage());
            assertEquals("shared array 'a' was freed",
                assertThrows(IllegalStateException.class, () -> part.get(999)).getMessage());
            assertEquals("shared array 'a' was freed",
                assertThrows(IllegalStateException.class, () -> a.set(4999, 1)).getMessage());
        });
        assertEquals(0, stats.get(0).get(Statistic.READ_FAULTS));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldTellHeldFromCachedAcrossLocalHandOffsAndRefuseMisuse(final String provider)
    {
        final List<DsmStats> stats = LocalCluster.run(1, provider, context -> context.maxLocks(MAX_LOCKS), dsm ->
        {
            final DsmLock lock = dsm.lock(5);
            for (int round = 0; round < 3; round++)
            {
                // a node alone takes and leaves its cached locks with plain stores: the states must still read right
                assertEquals(false, lock.isHeldByThisNode(), "before round " + round);
                lock.lock();
                assertEquals(true, lock.isHeldByThisNode(), "in round " + round);
                assertEquals("lock 5 is already held by node 0; locks are not reentrant",
                    assertThrows(IllegalStateException.class, lock::lock).getMessage());
                assertEquals("lock 5 is already held by node 0; locks are not reentrant",
                    assertThrows(IllegalStateException.class, lock::tryLock).getMessage());
                lock.unlock();
                assertEquals("lock 5 is not held by node 0",
                    assertThrows(IllegalMonitorStateException.class, lock::unlock).getMessage());
            }
            assertEquals(true, lock.tryLock());
            assertEquals(true, lock.isHeldByThisNode());
            lock.unlock();
            assertEquals(false, dsm.lock(6).isHeldByThisNode());
        });
        // the first acquire takes lock 5 from its manager; three more find it cached (the refused ones count not)
        assertEquals(1, stats.get(0).get(Statistic.LOCK_ACQUIRES_REMOTE));
        assertEquals(3, stats.get(0).get(Statistic.LOCK_ACQUIRES_LOCAL));
        assertEquals(0, stats.get(0).get(Statistic.INTERVALS));
    }

    @Test
    void shouldGiveOneHandlePerIdOverTheWholeRange()
    {
        LocalCluster.run(1, "jvm", context -> context.maxLocks(MAX_LOCKS).maxSemaphores(MAX_SEMAPHORES), dsm ->
        {
            final DsmLock top = dsm.lock(MAX_LOCKS - 1);
            for (int id = MAX_LOCKS - 1; id >= 0; id--)
            {
                assertSame(dsm.lock(id), dsm.lock(id), "lock " + id);
                assertEquals(id, dsm.lock(id).id());
            }
            assertSame(top, dsm.lock(MAX_LOCKS - 1));
            for (int id = 0; id < MAX_SEMAPHORES; id++)
            {
                assertSame(dsm.semaphore(id), dsm.semaphore(id), "semaphore " + id);
            }
            assertEquals("lock id must be in [0, " + MAX_LOCKS + "): " + MAX_LOCKS,
                assertThrows(IllegalArgumentException.class, () -> dsm.lock(MAX_LOCKS)).getMessage());
            assertEquals("lock id must be in [0, " + MAX_LOCKS + "): -1",
                assertThrows(IllegalArgumentException.class, () -> dsm.lock(-1)).getMessage());
            assertEquals("semaphore id must be in [0, " + MAX_SEMAPHORES + "): " + MAX_SEMAPHORES,
                assertThrows(IllegalArgumentException.class, () -> dsm.semaphore(MAX_SEMAPHORES)).getMessage());
        });
    }

    private static int lastRoundOf(final int id)
    {
        int last = -1;
        for (int round = 0; round < ROUNDS; round++)
        {
            if (round * 7 % MAX_LOCKS == id)
            {
                last = round;
            }
        }
        return last;
    }
}
