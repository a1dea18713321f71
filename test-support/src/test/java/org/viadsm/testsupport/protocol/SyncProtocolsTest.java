package org.viadsm.testsupport.protocol;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.sync.ConditionProtocol;
import org.viadsm.consistency.sync.LockProtocol;
import org.viadsm.consistency.sync.SemaphoreProtocol;
import org.viadsm.consistency.sync.SyncState;
import org.viadsm.consistency.sync.SyncWait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lock caching, giving up a lock wait, conditions, semaphores and the barrier's arrival index and breaking, over
 * the in-memory port.
 */
@Timeout(60)
class SyncProtocolsTest
{
    private static final long NONE = SyncWait.NO_TIMEOUT;

    @Test
    void shouldReacquireACachedLockWithNoRemoteOperation()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                assertEquals(LockProtocol.ACQUIRED, node.locks().acquire(1, NONE, false), "node 1 manages lock 1");
                node.unlock(1);
                final long[] before = remoteOperations(cluster.counters(0));
                for (int i = 0; i < 100; i++)
                {
                    assertEquals(LockProtocol.ACQUIRED_CACHED, node.locks().acquire(1, NONE, false));
                    node.unlock(1);
                }
                assertTrue(node.tryLock(1), "a cached lock is free");
                node.unlock(1);
                assertEquals(java.util.Arrays.toString(before),
                    java.util.Arrays.toString(remoteOperations(cluster.counters(0))), "reads, writes, atomics");
                assertEquals(101, cluster.counters(0).get(Counter.LOCK_ACQUIRES_LOCAL));
                assertEquals(1, cluster.counters(0).get(Counter.LOCK_ACQUIRES_REMOTE));
            }
            node.barrier();
        });
    }

    /**
     * Taking a lock cached at the node that released it last: the tail's compare-and-swap and the element's, and
     * with two nodes no read of the clock beside the element (the word brings the releaser's own entry); one
     * compare-and-swap more when the releaser closed an interval this node has not heard of (it wrote under the
     * lock, and no barrier followed that could have told); with three nodes the clock is read. With two nodes the
     * two compare-and-swaps go to the manager together, one round trip (two when the first take expected an older
     * entry); with three, each atomic is a round trip of its own (reads are round trips of their own too, not
     * counted there). Round 1 guesses the tail wrong and is not counted.
     */
    @ParameterizedTest
    @CsvSource({"2, false, 2, 0, 1", "2, true, 3, -1, 2", "3, false, 2, 1, 2"})
    void shouldTakeALockCachedAtAnotherNodeWithExactlyTheseOperations(final int nodes, final boolean written,
        final long atomics, final long reads, final long roundTrips)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(1));
        final CountDownLatch[] released = new CountDownLatch[5];
        Arrays.setAll(released, round -> new CountDownLatch(1));
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 4; round++)
            {
                if (0 == id)
                {
                    assertEquals(written ? round - 1 : 0, data.get(node, 0), "node 0 caches the page");
                }
                node.barrier();
                if (1 == id)
                {
                    // node 1 manages lock 1: it takes the lock back from node 0 (from round 2 on) and caches it
                    node.lock(1);
                    if (written)
                    {
                        data.set(node, 0, round);
                    }
                    node.unlock(1);
                    released[round].countDown();
                }
                if (0 == id)
                {
                    // no barrier in between: only the lock brings node 1's writes
                    released[round].await();
                    final long[] before = remoteOperations(cluster.counters(0));
                    final long roundTripsBefore = cluster.roundTrips(0);
                    node.lock(1);
                    final long[] after = remoteOperations(cluster.counters(0));
                    final long roundTripsTaken = cluster.roundTrips(0) - roundTripsBefore;
                    assertEquals(written ? round : 0, data.get(node, 0), "round " + round);
                    node.unlock(1);
                    if (round > 1)
                    {
                        assertEquals(atomics, after[2] - before[2], "atomics, round " + round);
                        if (reads >= 0)
                        {
                            assertEquals(reads, after[0] - before[0], "reads, round " + round);
                        }
                        assertEquals(0, after[1] - before[1], "writes, round " + round);
                        assertEquals(roundTrips, roundTripsTaken - (after[0] - before[0]),
                            "round trips of atomics, round " + round);
                    }
                }
                node.barrier();
            }
        });
        assertEquals(4, cluster.counters(0).get(Counter.LOCK_ACQUIRES_REMOTE));
    }

    @ParameterizedTest
    @CsvSource({"2, false", "2, true", "3, false", "3, true"})
    void shouldHandACachedLockToAnotherRequesterWithItsWrites(final int nodes, final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(nodes - 1));
        cluster.run((id, node) ->
        {
            for (int round = 0; round < 20; round++)
            {
                if (round % 2 == id)
                {
                    node.lock(4);
                    for (int i = 0; i < 64; i++)
                    {
                        assertEquals(round > 0 ? round * 100L + i - 100 : 0, data.get(node, i), "data[" + i + "]");
                        data.set(node, i, round * 100L + i);
                    }
                    node.unlock(4);
                    node.lock(4);
                    assertEquals(round * 100L, data.get(node, 0), "a cached re-acquire sees its own writes");
                    node.unlock(4);
                }
                node.barrier();
            }
        });
        assertEquals(20, cluster.counters(0).get(Counter.LOCK_ACQUIRES_REMOTE) +
            cluster.counters(1).get(Counter.LOCK_ACQUIRES_REMOTE), "each round takes the lock from the other node");
        assertEquals(20, cluster.counters(0).get(Counter.LOCK_ACQUIRES_LOCAL) +
            cluster.counters(1).get(Counter.LOCK_ACQUIRES_LOCAL));
    }

    /**
     * Two nodes increment one counter under a lock, each while the other may hold it, so acquires link behind a
     * holder (the clock left beside its element, then the compare-and-swap); with writes deferred, the clock's write
     * lands only with that compare-and-swap. Every increment is seen by the next holder.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldCountUnderAContendedLockOfTwoNodes(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 8, Homes.onNode(1));
        final int increments = 2_000;
        cluster.run((id, node) ->
        {
            for (int i = 0; i < increments; i++)
            {
                node.lock(2);
                data.set(node, 0, data.get(node, 0) + 1);
                node.unlock(2);
            }
            node.barrier();
            assertEquals(2L * increments, data.get(node, 0));
        });
        long acquires = 0;
        for (int id = 0; id < cluster.nodeCount(); id++)
        {
            final Counters counters = cluster.counters(id);
            acquires += counters.get(Counter.LOCK_ACQUIRES_LOCAL) + counters.get(Counter.LOCK_ACQUIRES_REMOTE);
        }
        assertEquals(2L * increments, acquires);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldHandOverTheWritesOfACachedLockAfterCleanReacquires(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(2));
        final CountDownLatch[] turnsDone = new CountDownLatch[7];
        Arrays.setAll(turnsDone, round -> new CountDownLatch(1));
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 6; round++)
            {
                // node 1 caches the page, so a clock left stale beside the lock would let it read its old copy
                if (1 == id)
                {
                    assertEquals(round - 1, data.get(node, 0));
                }
                node.barrier();
                if (0 == id)
                {
                    // the write comes first, in the middle or last of node 0's turns; the others write nothing
                    for (int turn = 0; turn < 4; turn++)
                    {
                        node.lock(4);
                        if (turn == round % 4)
                        {
                            data.set(node, 0, round);
                        }
                        node.unlock(4);
                    }
                    turnsDone[round].countDown();
                }
                if (1 == id)
                {
                    // no barrier in between: only the lock's clock brings node 0's notice
                    turnsDone[round].await();
                    node.lock(4);
                    assertEquals(round, data.get(node, 0), "round " + round);
                    node.unlock(4);
                    node.lock(4);
                    node.unlock(4);
                }
                node.barrier();
            }
        });
        assertEquals(6 * 3, cluster.counters(0).get(Counter.LOCK_ACQUIRES_LOCAL), "each round's turns after its first");
        assertEquals(6, cluster.counters(1).get(Counter.LOCK_ACQUIRES_LOCAL));
    }

    @Test
    void shouldPassAnAbandonedWaiterByAndServeTheNextInOrder()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray order = cluster.longs("order", 4, Homes.onNode(0));
        final CountDownLatch gaveUp = new CountDownLatch(1);
        final CountDownLatch queued = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(2);
                order.set(node, 0, 1);
                node.barrier();
                queued.await();
                Thread.sleep(20);
                node.unlock(2);
            }
            else if (1 == id)
            {
                node.barrier();
                assertEquals(SyncWait.TIMED_OUT, node.locks().acquire(2, TimeUnit.MILLISECONDS.toNanos(10), true));
                assertFalse(node.isHeld(2));
                gaveUp.countDown();
            }
            else
            {
                node.barrier();
                gaveUp.await();
                queued.countDown();
                node.lock(2);
                assertEquals(1, order.get(node, 0), "node 0's writes");
                order.set(node, 0, 2);
                node.unlock(2);
            }
            node.barrier();
            if (1 == id)
            {
                node.lock(2);
                assertEquals(2, order.get(node, 0), "the abandoned element rejoined behind node 2");
                node.unlock(2);
            }
            node.barrier();
        });
    }

    @Test
    void shouldLeaveTheLockAtAnAbandonedElementWithNobodyBehind()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final InMemoryCluster.LongArray data = cluster.longs("data", 8, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            assertEquals(0, data.get(node, 3));
            node.barrier();
            if (0 == id)
            {
                node.lock(6);
                data.set(node, 3, 33);
            }
            node.barrier();
            if (1 == id)
            {
                assertFalse(node.tryLock(6));
                Thread.currentThread().interrupt();
                assertEquals(SyncWait.INTERRUPTED, node.locks().acquire(6, NONE, true));
                assertFalse(Thread.currentThread().isInterrupted());
            }
            node.barrier();
            if (0 == id)
            {
                node.unlock(6);
            }
            node.barrier();
            if (1 == id)
            {
                final long atomics = cluster.counters(1).get(Counter.ATOMICS);
                assertEquals(LockProtocol.ACQUIRED_CACHED, node.locks().acquire(6, NONE, false),
                    "the release left the lock at this node's abandoned element");
                assertEquals(atomics, cluster.counters(1).get(Counter.ATOMICS));
                assertEquals(33, data.get(node, 3), "the releaser's writes: the cached copy was invalidated");
                node.unlock(6);
            }
            node.barrier();
        });
    }

    /**
     * Of three nodes, node 0 queues behind node 1, which holds lock 1 (managed by node 1), round after round: its
     * first link guesses the lock is cached at node 1 (a compare-and-swap that finds it held), the later ones link
     * with one fetch-and-add; beside that, each acquire swaps the tail once (twice the first time, when it guessed
     * there was none) and writes its clock beside node 1's element. Then node 1 leaves the lock cached: node 0's
     * fetch-and-add takes it (and reads the clock beside it and node 1's log), and the next take guesses right with
     * one compare-and-swap. With writes deferred, the clock's write lands only with the atomic that follows it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldLinkBehindAHeldLockWithOneFetchAndAdd(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 8, Homes.onNode(0));
        final int element = new ControlRegionLayout(cluster.config()).lockElement(1);
        final int rounds = 3;
        final CountDownLatch[] held = new CountDownLatch[rounds + 2];
        Arrays.setAll(held, i -> new CountDownLatch(1));
        final long[][] counted = new long[rounds + 2][];
        cluster.run((id, node) ->
        {
            assertEquals(0, data.get(node, 0));
            node.barrier();
            for (int round = 0; round < rounds + 2; round++)
            {
                if (1 == id)
                {
                    node.lock(1);
                    data.set(node, 0, 100 + round);
                    if (round >= rounds)
                    {
                        node.unlock(1);    // the lock stays cached here for node 0 to take
                    }
                    final long word = cluster.port(1).region(HlrcNode.CONTROL_REGION).getLongVolatile(element);
                    held[round].countDown();
                    while (round < rounds &&
                        word == cluster.port(1).region(HlrcNode.CONTROL_REGION).getLongVolatile(element))
                    {
                        Thread.onSpinWait();    // until node 0 has linked behind this node
                    }
                    if (round < rounds)
                    {
                        node.unlock(1);
                    }
                }
                else if (0 == id)
                {
                    held[round].await();
                    final long[] before = remoteOperations(cluster.counters(0));
                    assertEquals(LockProtocol.ACQUIRED, node.locks().acquire(1, NONE, false));
                    final long[] after = remoteOperations(cluster.counters(0));
                    counted[round] = new long[] {after[0] - before[0], after[1] - before[1], after[2] - before[2]};
                    assertEquals(100 + round, data.get(node, 0), "node 1's write before its release");
                    node.unlock(1);
                }
                node.barrier();
            }
        });
        assertEquals("[0, 1, 4]", Arrays.toString(counted[0]), "reads, writes, atomics: first link");
        for (int round = 1; round < rounds; round++)
        {
            assertEquals("[0, 1, 2]", Arrays.toString(counted[round]), "reads, writes, atomics: link " + round);
        }
        // a take reads the clock beside the lock, then node 1's log: oldest, index, notices, oldest
        assertEquals("[5, 1, 2]", Arrays.toString(counted[rounds]), "a fetch-and-add that took the cached lock");
        assertEquals("[5, 0, 2]", Arrays.toString(counted[rounds + 1]), "a compare-and-swap that took it");
    }

    /**
     * Node 2 writes under lock 0, node 0 takes the lock from it and writes, node 1 queues behind node 0: node 0's
     * grant brings node 1 the notices of both intervals, so node 1 reads no log, and it sees both writes although
     * it cached both pages. An interval with more pages than a grant holds is left to the log. The grant of a
     * {@code lock()} waiter is one RDMA Write; only a waiter that may give up costs the releaser a compare-and-swap.
     */
    @ParameterizedTest
    @CsvSource({"1, false", "1100, false", "1, true"})
    void shouldForwardTheNoticesAQueuedAcquirerLacksWithTheGrant(final int pagesWritten, final boolean timed)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final int perPage = cluster.config().pageSize() / Long.BYTES;
        final InMemoryCluster.LongArray data = cluster.longs("data", (pagesWritten + 1) * perPage, Homes.onNode(0));
        final int element = new ControlRegionLayout(cluster.config()).lockElement(0);
        final CountDownLatch released = new CountDownLatch(1);
        final CountDownLatch queued = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            for (int page = 0; 1 == id && page <= pagesWritten; page++)
            {
                assertEquals(0, data.get(node, page * perPage));
            }
            node.barrier();
            if (2 == id)
            {
                node.lock(0);
                data.set(node, 0, 20);
                node.unlock(0);
                released.countDown();
            }
            else if (0 == id)
            {
                released.await();
                node.lock(0);
                for (int page = 1; page <= pagesWritten; page++)
                {
                    data.set(node, page * perPage, 10 + page);
                }
                final long held = cluster.port(0).region(HlrcNode.CONTROL_REGION).getLongVolatile(element);
                queued.countDown();
                while (held == cluster.port(0).region(HlrcNode.CONTROL_REGION).getLongVolatile(element))
                {
                    Thread.onSpinWait();    // until node 1 has linked behind this node
                }
                final long[] before = remoteOperations(cluster.counters(0));
                node.unlock(0);
                final long[] after = remoteOperations(cluster.counters(0));
                assertEquals(0, after[0] - before[0], "the releaser's reads");
                assertEquals(1, after[1] - before[1], "the releaser's writes: the grant");
                assertEquals(timed ? 1 : 0, after[2] - before[2], "a compare-and-swap only if node 1 may give up");
            }
            else if (1 == id)
            {
                queued.await();
                final long[] before = remoteOperations(cluster.counters(1));
                assertEquals(LockProtocol.ACQUIRED, node.locks().acquire(0, timed ? TimeUnit.MINUTES.toNanos(5) :
                    NONE, false));
                final long[] after = remoteOperations(cluster.counters(1));
                final boolean forwarded = 1 == pagesWritten;
                assertEquals(forwarded ? 2 : 1, cluster.counters(1).get(Counter.INTERVALS_FORWARDED),
                    "node 2's interval, and node 0's if it fits");
                assertEquals(forwarded ? 0 : 4, after[0] - before[0],
                    "reads: none, or node 0's log only (oldest, index, notices, oldest)");
                assertEquals(1, after[1] - before[1], "writes: the clock left beside node 0's element");
                assertEquals(20, data.get(node, 0));
                for (int page = 1; page <= pagesWritten; page++)
                {
                    assertEquals(10 + page, data.get(node, page * perPage));
                }
                node.unlock(0);
            }
            node.barrier();
        });
    }

    @Test
    void shouldKeepAnInterruptOfAnUninterruptibleWaitForAfterIt()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final CountDownLatch interrupted = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(3);
            }
            node.barrier();
            if (1 == id)
            {
                final Thread self = Thread.currentThread();
                final Thread interrupter = new Thread(() ->
                {
                    sleep(20);
                    self.interrupt();
                    interrupted.countDown();
                });
                interrupter.start();
                node.lock(3);
                assertTrue(Thread.interrupted(), "the interrupt is kept");
                node.unlock(3);
                interrupter.join();
            }
            else
            {
                interrupted.await();
                node.unlock(3);
            }
            node.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldRunABoundedBufferOnConditions(final boolean deferWrites)
    {
        final int nodes = 3;
        final int items = 300;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray buffer = cluster.longs("buffer", 4 + 2, Homes.onNode(1));
        final AtomicIntegerArray seen = new AtomicIntegerArray(items * (nodes - 1));
        cluster.run((id, node) ->
        {
            final ConditionProtocol conditions = node.conditions();
            final int lock = 5;
            final int notFull = 0;
            final int notEmpty = 1;
            if (0 == id)
            {
                for (int i = 0; i < items * (nodes - 1); i++)
                {
                    node.lock(lock);
                    while (buffer.get(node, 4) - buffer.get(node, 5) == 4)
                    {
                        assertEquals(ConditionProtocol.SIGNALLED, conditions.await(notFull, lock, NONE, false));
                    }
                    final long put = buffer.get(node, 4);
                    buffer.set(node, (int)(put % 4), i + 1);
                    buffer.set(node, 4, put + 1);
                    conditions.signal(notEmpty, lock, false);
                    node.unlock(lock);
                }
            }
            else
            {
                for (int i = 0; i < items; i++)
                {
                    node.lock(lock);
                    while (buffer.get(node, 4) == buffer.get(node, 5))
                    {
                        assertEquals(ConditionProtocol.SIGNALLED, conditions.await(notEmpty, lock, NONE, false));
                    }
                    final long take = buffer.get(node, 5);
                    final long item = buffer.get(node, (int)(take % 4));
                    buffer.set(node, 5, take + 1);
                    seen.incrementAndGet((int)item - 1);
                    conditions.signal(notFull, lock, false);
                    node.unlock(lock);
                }
            }
            node.barrier();
        });
        for (int i = 0; i < seen.length(); i++)
        {
            assertEquals(1, seen.get(i), "item " + (i + 1) + " taken exactly once");
        }
    }

    @Test
    void shouldTimeOutAConditionWaitHoldingTheLockAgainAndLetASignalPassItBy()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final CountDownLatch timedOut = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            final ConditionProtocol conditions = node.conditions();
            if (0 == id)
            {
                node.lock(8);
                assertEquals(SyncWait.TIMED_OUT, conditions.await(3, 8, TimeUnit.MILLISECONDS.toNanos(10), true));
                assertTrue(node.isHeld(8), "a wait returns holding the lock");
                node.unlock(8);
                timedOut.countDown();
            }
            else
            {
                timedOut.await();
                node.lock(8);
                assertEquals(0, conditions.signal(3, 8, true), "the cancelled waiter is passed by");
                node.unlock(8);
            }
            node.barrier();
            assertThrows(IllegalMonitorStateException.class, () -> conditions.signal(3, 8, false));
            assertThrows(IllegalMonitorStateException.class, () -> conditions.await(3, 8, NONE, false));
            node.barrier();
        });
    }

    @Test
    void shouldWakeEveryWaiterOnSignalAll()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(4);
        final InMemoryCluster.LongArray state = cluster.longs("state", 2, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            final ConditionProtocol conditions = node.conditions();
            if (0 != id)
            {
                node.lock(1);
                state.set(node, 1, state.get(node, 1) + 1);
                while (0 == state.get(node, 0))
                {
                    conditions.await(2, 1, NONE, false);
                }
                node.unlock(1);
            }
            else
            {
                while (true)
                {
                    node.lock(1);
                    if (3 == state.get(node, 1))
                    {
                        state.set(node, 0, 1);
                        assertEquals(3, conditions.signal(2, 1, true));
                        node.unlock(1);
                        break;
                    }
                    node.unlock(1);
                    Thread.sleep(1);
                }
            }
            node.barrier();
        });
    }

    @Test
    void shouldCountPermitsAcrossNodes()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray data = cluster.longs("data", 2, Homes.onNode(2));
        cluster.run((id, node) ->
        {
            final SemaphoreProtocol semaphores = node.semaphores();
            if (0 == id)
            {
                data.set(node, 0, 7);
                Thread.sleep(20);
                semaphores.release(4, 3);
            }
            else if (1 == id)
            {
                assertEquals(SemaphoreProtocol.ACQUIRED, semaphores.acquire(4, 2, NONE, true));
                assertEquals(7, data.get(node, 0), "the releaser's writes");
            }
            node.barrier();
            if (2 == id)
            {
                assertEquals(1, semaphores.availablePermits(4));
                assertEquals(SyncWait.TIMED_OUT, semaphores.acquire(4, 2, TimeUnit.MILLISECONDS.toNanos(5), false));
                assertEquals(SyncWait.TIMED_OUT, semaphores.acquire(4, 2, 0, false));
                assertEquals(SemaphoreProtocol.ACQUIRED, semaphores.acquire(4, 1, 0, false));
                assertEquals(0, semaphores.availablePermits(4));
                assertThrows(IllegalArgumentException.class, () -> semaphores.release(4, -1));
                assertThrows(IllegalArgumentException.class, () -> semaphores.acquire(-1, 1, NONE, false));
            }
            node.barrier();
        });
    }

    /**
     * A barrier of two nodes costs each node one atomic, its arrival word, and no notification: the arrival order
     * and the clock entry come with the word. A node that slept in a barrier asked for a wake-up with one atomic
     * more, and its partner notified it at most once per such request.
     */
    @Test
    void shouldPassABarrierOfTwoNodesWithOneAtomicEachAndNoNotification()
    {
        final int barriers = 50;
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final long[][] operations = new long[2][];
        final long[] sleeps = new long[2];
        final long[] notifications = new long[2];
        cluster.run((id, node) ->
        {
            node.barrier();
            final long[] before = remoteOperations(cluster.counters(id));
            final long sleepsBefore = cluster.counters(id).get(Counter.BARRIER_SLEEPS);
            final long notificationsBefore = cluster.counters(id).get(Counter.MESSAGES_SENT);
            for (int b = 0; b < barriers; b++)
            {
                node.barrier();
            }
            final long[] after = remoteOperations(cluster.counters(id));
            operations[id] = new long[] {after[0] - before[0], after[1] - before[1], after[2] - before[2]};
            sleeps[id] = cluster.counters(id).get(Counter.BARRIER_SLEEPS) - sleepsBefore;
            notifications[id] = cluster.counters(id).get(Counter.MESSAGES_SENT) - notificationsBefore;
        });
        for (int id = 0; id < 2; id++)
        {
            assertEquals(Arrays.toString(new long[] {0, notifications[id], barriers + sleeps[id]}),
                Arrays.toString(operations[id]), "node " + id + ": reads, writes (wake-ups), atomics");
            assertTrue(notifications[id] <= sleeps[1 - id], "node " + id + " woke its partner " + notifications[id] +
                " times for " + sleeps[1 - id] + " sleeps");
        }
        assertEquals(barriers + 1, cluster.counters(0).get(Counter.BARRIERS_LAST) +
            cluster.counters(1).get(Counter.BARRIERS_LAST), "one node is last at each barrier");
    }

    /**
     * A node that outlasts its poll in a barrier of two asks its partner for a wake-up (one atomic) before it
     * sleeps, and the partner, arriving later, notifies it once; the sleeper then sees what the partner wrote before
     * the barrier.
     */
    @Test
    void shouldWakeASleepingPartnerOfATwoNodeBarrierWithOneNotification()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(1));
        final long[] sleeps = new long[2];
        final long[] notifications = new long[2];
        final long[] atomics = new long[2];
        cluster.run((id, node) ->
        {
            node.barrier();
            final Counters counters = cluster.counters(id);
            final long sleepsBefore = counters.get(Counter.BARRIER_SLEEPS);
            final long notificationsBefore = counters.get(Counter.MESSAGES_SENT);
            final long atomicsBefore = counters.get(Counter.ATOMICS);
            if (1 == id)
            {
                sleep(100);    // longer than the longest poll (2 ms): node 0 sleeps
                data.set(node, 3, 42);
            }
            node.barrier();
            sleeps[id] = counters.get(Counter.BARRIER_SLEEPS) - sleepsBefore;
            notifications[id] = counters.get(Counter.MESSAGES_SENT) - notificationsBefore;
            atomics[id] = counters.get(Counter.ATOMICS) - atomicsBefore;
            assertEquals(42, data.get(node, 3), "node " + id);
        });
        assertEquals("[1, 0]", Arrays.toString(sleeps), "sleeps");
        assertEquals("[0, 1]", Arrays.toString(notifications), "wake-ups sent");
        assertEquals(2, atomics[0], "node 0's arrival and its wake request");
    }

    /**
     * A node whose partner in a barrier of two already failed does not ask that partner for a wake-up (whose
     * flush would wait for it) before it sleeps: it fails at once, naming the partner, its arrival the only atomic.
     */
    @Test
    void shouldFailATwoNodeBarrierWithoutAWakeRequestToAPartnerKnownFailed()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final CountDownLatch failing = new CountDownLatch(1);
        final String[] seen = new String[1];
        final long[] atomics = new long[1];
        final AssertionError error = assertThrows(AssertionError.class, () -> cluster.run((id, node) ->
        {
            node.barrier();
            if (1 == id)
            {
                failing.countDown();
                throw new IllegalStateException("node 1 stops");
            }
            failing.await();
            sleep(100);    // node 1's failure reaches every port as its body's exception is caught
            final long atomicsBefore = cluster.counters(0).get(Counter.ATOMICS);
            seen[0] = assertThrows(ProtocolException.class, node::barrier).getMessage();
            atomics[0] = cluster.counters(0).get(Counter.ATOMICS) - atomicsBefore;
        }));
        assertTrue(error.getMessage().startsWith("node 1 failed: java.lang.IllegalStateException: node 1 stops"),
            error.getMessage());
        assertTrue(seen[0].contains("node 1 failed (node 1 threw java.lang.IllegalStateException: node 1 stops) " +
            "while this node waited for barrier 2"), seen[0]);
        assertEquals(1, atomics[0], "node 0's arrival, and no wake request");
    }

    /**
     * Barriers after intervals that wrote nothing carry no notices and close no interval; the first barrier after
     * writes brings them, through the writer's clock entry in its arrival word, whichever node wrote.
     */
    @Test
    void shouldBringWritesAcrossATwoNodeBarrierAfterBarriersWithoutWrites()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final InMemoryCluster.LongArray data = cluster.longs("data", 64, Homes.onNode(0));
        final long[] intervals = new long[2];
        cluster.run((id, node) ->
        {
            assertEquals(0, data.get(node, 0));
            node.barrier();
            final long intervalsBefore = cluster.counters(id).get(Counter.INTERVALS);
            for (int round = 1; round <= 3; round++)
            {
                node.barrier();
                node.barrier();
                if (round % 2 == id)
                {
                    data.set(node, 0, round);
                }
                node.barrier();
                assertEquals(round, data.get(node, 0), "node " + id + ", round " + round);
                node.barrier();
            }
            intervals[id] = cluster.counters(id).get(Counter.INTERVALS) - intervalsBefore;
        });
        assertEquals("[1, 2]", Arrays.toString(intervals), "intervals closed: one per round written");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void shouldGiveEveryNodeOfABarrierADifferentArrivalIndex(final int nodes)
    {
        final int barriers = 12;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        final AtomicIntegerArray indexes = new AtomicIntegerArray(barriers * nodes);
        cluster.run((id, node) ->
        {
            for (int b = 0; b < barriers; b++)
            {
                final int index = node.barriers().barrier(NONE, true);
                assertTrue(index >= 0 && index < nodes, "index " + index);
                indexes.incrementAndGet(b * nodes + index);
                if (b % 3 == 0)
                {
                    node.syncBarrier();
                }
            }
        });
        for (int i = 0; i < indexes.length(); i++)
        {
            assertEquals(1, indexes.get(i), "barrier " + i / nodes + " index " + i % nodes);
        }
    }

    @Test
    void shouldBreakTheBarrierForEveryNodeWhenOneTimesOut()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final CountDownLatch timedOut = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            if (2 == id)
            {
                assertEquals(SyncWait.TIMED_OUT, node.barriers().barrier(TimeUnit.MILLISECONDS.toNanos(20), true));
                timedOut.countDown();
            }
            else
            {
                timedOut.await();
                assertEquals(SyncState.BROKEN, node.barriers().barrier(NONE, true));
            }
            assertEquals(SyncState.BROKEN, node.barriers().barrier(NONE, false), "it stays broken");
            final ProtocolException ex = assertThrows(ProtocolException.class, node::barrier);
            assertTrue(ex.getMessage().contains("the barrier is broken: node 2 timed out in it"), ex.getMessage());
            node.lock(1);
            node.unlock(1);
        });
    }

    private static long[] remoteOperations(final Counters counters)
    {
        return new long[] {
            counters.get(Counter.RDMA_READS), counters.get(Counter.RDMA_WRITES), counters.get(Counter.ATOMICS)};
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
