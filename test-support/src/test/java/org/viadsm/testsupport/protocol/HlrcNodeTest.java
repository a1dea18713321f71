package org.viadsm.testsupport.protocol;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.sync.SyncWait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class HlrcNodeTest
{
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldPassAMessageThroughALock(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 256, Homes.onNode(0));
        final InMemoryCluster.LongArray flag = cluster.longs("flag", 1, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (1 == id)
            {
                node.lock(7);
                for (int i = 0; i < 256; i++)
                {
                    data.set(node, i, 1000 + i);
                }
                flag.set(node, 0, 1);
                node.unlock(7);
            }
            else
            {
                while (true)
                {
                    node.lock(7);
                    final boolean ready = 1 == flag.get(node, 0);
                    if (ready)
                    {
                        for (int i = 0; i < 256; i++)
                        {
                            assertEquals(1000 + i, data.get(node, i), "data[" + i + "]");
                        }
                    }
                    node.unlock(7);
                    if (ready)
                    {
                        break;
                    }
                }
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void shouldPassWritesThroughABarrierToEveryNode(final int nodes)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64 * nodes, Homes.cyclic());
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 3; round++)
            {
                for (int i = 0; i < 64; i++)
                {
                    data.set(node, id * 64 + i, round * 100_000L + id * 1000 + i);
                }
                node.barrier();
                for (int other = 0; other < nodes; other++)
                {
                    for (int i = 0; i < 64; i++)
                    {
                        assertEquals(round * 100_000L + other * 1000 + i, data.get(node, other * 64 + i));
                    }
                }
                node.barrier();
            }
        });
        assertEquals(6, cluster.counters(0).get(Counter.BARRIERS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldMergeMultipleWritersOfDisjointWordsOfOnePage(final boolean deferWrites)
    {
        final int nodes = 4;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray page = cluster.longs("page", 64, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            for (int i = id; i < 64; i += nodes)
            {
                page.set(node, i, 10L * i + id);
            }
            node.barrier();
            for (int i = 0; i < 64; i++)
            {
                assertEquals(10L * i + i % nodes, page.get(node, i), "word " + i + " on node " + id);
            }
        });
        for (int id = 1; id < nodes; id++)
        {
            assertEquals(1, cluster.counters(id).get(Counter.DIFFS), "one diff from node " + id);
            assertEquals(16, cluster.counters(id).get(Counter.DIFF_RUNS), "a run per word written by " + id);
            assertEquals(16 * 8, cluster.counters(id).get(Counter.DIFF_BYTES));
        }
        assertEquals(0, cluster.counters(0).get(Counter.DIFFS), "the home sends no diffs");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepTheWritesOfADirtyPageThatAnAcquireInvalidates(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray array = cluster.longs("a", 64, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                writeAUnderLock5(node, array);
            }
            else
            {
                cacheThenWrite(node, array);
                // the notice of node 0's write invalidates the page while it is dirty here: its diff goes home
                // (held back to join a next page's run, then posted at the end of the acquire) before the read
                // below fetches the page again
                node.lock(5);
                assertEquals(22, array.get(node, 1), "node 0's write, on node 1");
                assertEquals(33, array.get(node, 2), "node 1's own write, fetched back from the home");
                node.unlock(5);
            }
            node.barrier();
            assertEquals(22, array.get(node, 1), "a[1] on node " + id);
            assertEquals(33, array.get(node, 2), "a[2] on node " + id);
        });
        assertEquals(1, cluster.counters(1).get(Counter.DIFFS));
        assertEquals(1, cluster.counters(1).get(Counter.DIFF_WRITES));
    }

    @Test
    void shouldLeaveTheDiffOfAPageAnAcquireInvalidatesInFlightUntilTheNextFetchOrRelease()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(true);
        final InMemoryCluster.LongArray array = cluster.longs("a", 64, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                writeAUnderLock5(node, array);
                node.barrier();
            }
            else
            {
                cacheThenWrite(node, array);
                node.lock(5);
                // the acquire invalidated the dirty page and posted its diff, without waiting for it
                assertEquals(PageState.INVALID, array.table(1).states()[0], "the page is invalid on node 1");
                assertEquals(0, array.table(0).memory().getLong(2 * Long.BYTES), "the diff is still in flight");
                assertEquals(33, array.get(node, 2), "the fetch lands after the diff, from the same home");
                assertEquals(33, array.table(0).memory().getLong(2 * Long.BYTES), "the diff at the home");
                array.set(node, 3, 44);
                node.unlock(5);
                assertEquals(44, array.table(0).memory().getLong(3 * Long.BYTES), "the release waits for its diff");
                node.barrier();
            }
        });
        assertEquals(2, cluster.counters(1).get(Counter.DIFFS), "the invalidated page's diff and the release's");
    }

    /**
     * Node 0 of the dirty-page scenarios: takes lock 5 before the barrier, then writes a[1] = 22 under it, so that
     * node 1's next acquire of lock 5 brings the notice that invalidates the page.
     */
    private static void writeAUnderLock5(final HlrcNode node, final InMemoryCluster.LongArray array)
    {
        node.lock(5);
        node.barrier();
        array.set(node, 1, 22);
        node.unlock(5);
    }

    /**
     * Node 1 of the dirty-page scenarios: caches the page before the barrier, then dirties it with a[2] = 33.
     */
    private static void cacheThenWrite(final HlrcNode node, final InMemoryCluster.LongArray array)
    {
        assertEquals(0, array.get(node, 0), "node 1 caches the page");
        node.barrier();
        array.set(node, 2, 33);
    }

    @Test
    void shouldLeaveACopysetAtALockAcquireWithoutWaitingAndHaveTheReleaseWaitForIt()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(true);
        final InMemoryCluster.LongArray array = cluster.longs("a", 64, Homes.onNode(0));
        final int copysetWord = array.table(0).layout().copysetOffset(1, 0);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(5);
                node.lock(6);
                node.barrier();
                array.set(node, 1, 22);
                node.unlock(5);
                array.set(node, 1, 23);
                node.unlock(6);
            }
            else
            {
                assertEquals(0, array.get(node, 0), "node 1 caches the page");
                node.barrier();
                assertEquals(1, array.table(0).memory().getLong(copysetWord), "node 1 in the page's copyset");
                node.lock(5);
                node.unlock(5);
                // the second notice of a copy not read since the first: node 1 leaves the copyset
                node.lock(6);
                assertEquals(1, cluster.counters(1).get(Counter.COPYSET_LEAVES), "one leave");
                assertEquals(1, array.table(0).memory().getLong(copysetWord), "the leave is still in flight");
                node.unlock(6);
                assertEquals(0, array.table(0).memory().getLong(copysetWord), "the release waited for the leave");
            }
            node.barrier();
            assertEquals(23, array.get(node, 1), "a[1] on node " + id);
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldSendARangeWrittenAcrossPagesAsOneWritePerHome(final boolean deferWrites)
    {
        final int perPage = 64;
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray atZero = cluster.longs("atZero", 6 * perPage, Homes.onNode(0));
        final InMemoryCluster.LongArray alternating = cluster.longs("alternating", 6 * perPage, Homes.cyclic());
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 2; round++)
            {
                if (1 == id)
                {
                    // pages 0 to 3, ending and starting at their page boundaries; then two runs that do not touch
                    for (int i = 40; i < 200; i++)
                    {
                        atZero.set(node, i, round * 1000L + i);
                    }
                    atZero.set(node, 300, round * 10L);
                    atZero.set(node, 330, round * 20L);
                    // the same range over pages homed at nodes 0 and 1 in turn: node 0's pages are not contiguous
                    for (int i = 40; i < 200; i++)
                    {
                        alternating.set(node, i, round * 2000L + i);
                    }
                }
                node.barrier();
                for (int i = 0; i < 6 * perPage; i++)
                {
                    final boolean written = i >= 40 && i < 200;
                    final long expected = written ? round * 1000L + i : 300 == i ? round * 10L :
                        330 == i ? round * 20L : 0L;
                    assertEquals(expected, atZero.get(node, i), "atZero[" + i + "] on node " + id);
                    assertEquals(written ? round * 2000L + i : 0L, alternating.get(node, i),
                        "alternating[" + i + "] on node " + id);
                }
                node.barrier();
            }
        });
        // per round: atZero's pages 0 to 5 and alternating's pages 0 and 2 (node 0's) carry diffs
        assertEquals(2 * 8, cluster.counters(1).get(Counter.DIFFS));
        assertEquals(2 * (4 + 1 + 1 + 2), cluster.counters(1).get(Counter.DIFF_RUNS), "a run per page");
        assertEquals(2 * (1 + 1 + 1 + 2), cluster.counters(1).get(Counter.DIFF_WRITES),
            "one write for the range over atZero's pages 0 to 3, one per other run");
        assertEquals(2 * (160 + 1 + 1 + 24 + 64) * 8, cluster.counters(1).get(Counter.DIFF_BYTES));
        assertEquals(0, cluster.counters(0).get(Counter.DIFF_WRITES), "the home sends no diffs");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldCountALockProtectedCounterExactly(final boolean deferWrites)
    {
        final int nodes = 4;
        final int increments = 2000;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray counter = cluster.longs("counter", 1, Homes.onNode(1));
        cluster.run((id, node) ->
        {
            for (int i = 0; i < increments; i++)
            {
                node.lock(3);
                counter.set(node, 0, counter.get(node, 0) + 1);
                node.unlock(3);
            }
            node.barrier();
            assertEquals((long)nodes * increments, counter.get(node, 0));
        });
        long acquires = 0;
        for (int id = 0; id < nodes; id++)
        {
            acquires += cluster.counters(id).get(Counter.LOCK_ACQUIRES_LOCAL) +
                cluster.counters(id).get(Counter.LOCK_ACQUIRES_REMOTE);
        }
        assertEquals((long)nodes * increments, acquires);
    }

    @Test
    void shouldLetTheHomeWriteWhileOthersReadAfterSynchronizing()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray data = cluster.longs("data", 128, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            for (int step = 1; step <= 20; step++)
            {
                if (0 == id)
                {
                    for (int i = 0; i < 128; i++)
                    {
                        data.set(node, i, step * 1000L + i);
                    }
                }
                node.barrier();
                for (int i = 0; i < 128; i += 17)
                {
                    assertEquals(step * 1000L + i, data.get(node, i));
                }
                node.barrier();
            }
        });
        assertEquals(0, cluster.counters(0).get(Counter.TWINS), "the home never twins its pages");
        assertEquals(40, cluster.counters(1).get(Counter.PAGES_FETCHED), "one refetch per step of each of 2 pages");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepFalselySharedPagesCorrectAcrossLocks(final boolean deferWrites)
    {
        final int nodes = 4;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray slots = cluster.longs("slots", nodes, Homes.onNode(3));
        cluster.run((id, node) ->
        {
            for (int i = 0; i < 200; i++)
            {
                node.lock(id);
                slots.set(node, id, slots.get(node, id) + 1);
                node.unlock(id);
            }
            node.barrier();
            for (int other = 0; other < nodes; other++)
            {
                assertEquals(200, slots.get(node, other));
            }
        });
    }

    @Test
    void shouldServeLockWaitersInArrivalOrder()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray order = cluster.longs("order", 4, Homes.onNode(0));
        final AtomicLong queued = new AtomicLong();
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(0);
                while (queued.get() < 1)
                {
                    Thread.onSpinWait();
                }
                Thread.sleep(50);
                node.unlock(0);
            }
            else
            {
                if (2 == id)
                {
                    while (queued.get() < 1)
                    {
                        Thread.onSpinWait();
                    }
                    Thread.sleep(20);
                }
                else
                {
                    Thread.sleep(10);
                    queued.incrementAndGet();
                }
                node.lock(0);
                final long n = order.get(node, 0) + 1;
                order.set(node, 0, n);
                order.set(node, (int)n, id);
                node.unlock(0);
            }
            node.barrier();
            assertEquals(2, order.get(node, 0));
        });
    }

    @Test
    void shouldRefuseUnlockByANonHolderAndReentrantLock()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.run((id, node) ->
        {
            final IllegalMonitorStateException notHeld =
                assertThrows(IllegalMonitorStateException.class, () -> node.unlock(5));
            assertEquals("lock 5 is not held by node " + id, notHeld.getMessage());
            node.barrier();
            if (0 == id)
            {
                node.lock(5);
                final IllegalStateException reentrant = assertThrows(IllegalStateException.class, () -> node.lock(5));
                assertEquals("lock 5 is already held by node 0; locks are not reentrant", reentrant.getMessage());
                node.unlock(5);
            }
            assertThrows(IllegalArgumentException.class, () -> node.lock(-1));
            assertThrows(IllegalArgumentException.class, () -> node.lock(cluster.config().maxLocks()));
            node.barrier();
        });
    }

    @Test
    void shouldTryLockOnlyWhenFree()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                assertTrue(node.tryLock(1));
            }
            node.barrier();
            if (1 == id)
            {
                assertEquals(false, node.tryLock(1));
            }
            node.barrier();
            if (0 == id)
            {
                node.unlock(1);
            }
            node.barrier();
            if (1 == id)
            {
                assertTrue(node.tryLock(1));
                node.unlock(1);
            }
        });
    }

    @Test
    void shouldPassWritesThroughSemaphores()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray data = cluster.longs("data", 3, Homes.cyclic());
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                data.set(node, 0, 42);
                node.semaphores().release(9, 2);
            }
            else
            {
                node.semaphores().acquire(9, 1, SyncWait.NO_TIMEOUT, false);
                assertEquals(42, data.get(node, 0));
            }
            node.barrier();
        });
    }

    @Test
    void shouldClaimFirstTouchPagesForTheFirstToucher()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final int perPage = cluster.config().pageSize() / Long.BYTES;
        final InMemoryCluster.LongArray data = cluster.longs("data", 4 * perPage, Homes.firstTouch());
        cluster.run((id, node) ->
        {
            if (1 == id)
            {
                data.set(node, 2 * perPage, 5);
            }
            node.barrier();
            if (0 == id)
            {
                data.set(node, 0, 7);
            }
            node.barrier();
            assertEquals(5, data.get(node, 2 * perPage));
            assertEquals(7, data.get(node, 0));
            assertEquals(1, node.home(data.table(id), 2));
            assertEquals(0, node.home(data.table(id), 0));
        });
    }

    @Test
    void shouldKeepTheNoticeLogBoundedOverManyBarriers()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final InMemoryCluster.LongArray data = cluster.longs("data", 8, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            for (int i = 0; i < 500; i++)
            {
                if (i % 2 == id)
                {
                    data.set(node, 0, i);
                }
                node.barrier();
                assertEquals(i, data.get(node, 0));
                node.barrier();
            }
        });
        for (int id = 0; id < cluster.nodeCount(); id++)
        {
            final HlrcNode node = cluster.node(id);
            assertTrue(node.retainedIntervals() <= 1, "retained " + node.retainedIntervals());
        }
        assertEquals(250, cluster.counters(1).get(Counter.INTERVALS));
        assertEquals(0, cluster.counters(1).get(Counter.NOTICE_LOG_OVERRUNS));
    }

    @Test
    void shouldFallBackToInvalidatingEverythingWhenNoticesWereDropped()
    {
        final ProtocolConfig config = new ProtocolConfig().nodeCount(2).pageSize(512).logIntervals(16);
        final InMemoryCluster cluster = new InMemoryCluster(config);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(0));
        final InMemoryCluster.LongArray other = cluster.longs("other", 64, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (1 == id)
            {
                assertEquals(0, data.get(node, 0));
                assertEquals(0, other.get(node, 0));
            }
            node.barrier();
            if (0 == id)
            {
                for (int i = 1; i <= 40; i++)
                {
                    node.lock(0);
                    data.set(node, 0, i);
                    node.unlock(0);
                }
            }
            node.barrier();
            assertEquals(40, data.get(node, 0));
        });
        assertEquals(1, cluster.counters(1).get(Counter.NOTICE_LOG_OVERRUNS));
        assertEquals(PageState.READ_ONLY, cluster.node(1).space().tables().get(0).states()[0]);
    }

    @Test
    void shouldNotFailABarrierEveryNodeEnteredWhenAFasterNodeLeavesRightAfter()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        cluster.notifyHook((from, to, notification) ->
        {
            // Node 1 is descheduled before its round-1 message; node 2 finishes the barrier and leaves meanwhile.
            if (1 == from && Notifications.BARRIER == Notifications.type(notification) &&
                1 == (Notifications.argument(notification) & 0xFF))
            {
                Thread.sleep(300);
            }
        });
        cluster.run((id, node) ->
        {
            node.barrier();
            assertTrue(node.leave(TimeUnit.SECONDS.toNanos(10)));
        });
    }

    @Test
    void shouldFailEveryNodeWhenOneAllocatesWhileAnotherEntersABarrier()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final AssertionError error = assertThrows(AssertionError.class, () -> cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.syncBarrier();
            }
            else
            {
                node.barrier();
            }
        }));
        assertTrue(error.getMessage().contains("every node must make the same collective calls in the same order"),
            error.getMessage());
    }

    @Test
    void shouldPassHappensBeforeAlongAChainOfDifferentLocks()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        cluster.deferWrites(true);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(2));
        final InMemoryCluster.LongArray stage = cluster.longs("stage", 2, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(1);
                data.set(node, 5, 55);
                stage.set(node, 0, 1);
                node.unlock(1);
            }
            else if (1 == id)
            {
                while (true)
                {
                    node.lock(1);
                    final boolean ready = 1 == stage.get(node, 0);
                    node.unlock(1);
                    if (ready)
                    {
                        break;
                    }
                }
                node.lock(2);
                stage.set(node, 1, 1);
                node.unlock(2);
            }
            else
            {
                while (true)
                {
                    node.lock(2);
                    final boolean ready = 1 == stage.get(node, 1);
                    if (ready)
                    {
                        assertEquals(55, data.get(node, 5), "node 0's write reached node 2 through node 1");
                    }
                    node.unlock(2);
                    if (ready)
                    {
                        break;
                    }
                }
            }
            node.barrier();
        });
    }
}
