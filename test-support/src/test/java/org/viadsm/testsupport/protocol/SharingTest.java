package org.viadsm.testsupport.protocol;

import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pages that no other node caches cost their home nothing, and stay coherent when they become shared: each page
 * classification transition, with writes landing at once and late (as on a NIC). Pages are 512 bytes: 64 longs.
 */
@Timeout(60)
class SharingTest
{
    private static final int PER_PAGE = 64;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldLetTheHomeWriteAPageNobodyElseCachesWithoutFaultsTwinsOrNotices(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", 4 * PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 10; round++)
            {
                if (0 == id)
                {
                    for (int i = 0; i < 4 * PER_PAGE; i++)
                    {
                        data.set(node, i, round * 1000L + i);
                    }
                }
                node.barrier();
            }
        });
        final Counters home = cluster.counters(0);
        assertEquals(1, home.get(Counter.WRITE_FAULTS), "the first write only, which opens the copyset word's pages");
        assertEquals(0, home.get(Counter.TWINS));
        assertEquals(0, home.get(Counter.INTERVALS), "no write notices");
        assertEquals(0, home.get(Counter.EXCLUSIVE_LOSSES));
        assertEquals(0, cluster.counters(1).get(Counter.INVALIDATIONS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldNoticeAWriteToAPageThatBecameSharedBetweenTheWriteAndItsRelease(final boolean deferWrites)
        throws InterruptedException
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        final CountDownLatch written = new CountDownLatch(1);
        final CountDownLatch cached = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(1);
                data.set(node, 0, 42);
                written.countDown();
                // Node 1 caches the page now, in the middle of this interval (it reads another element).
                cached.await();
                node.unlock(1);
            }
            else
            {
                written.await();
                assertEquals(0, data.get(node, PER_PAGE - 1));
                cached.countDown();
                awaitUnlocked(node, 1);
                assertEquals(42, data.get(node, 0), "the write before the release");
                node.unlock(1);
            }
            node.barrier();
        });
        assertEquals(1, cluster.counters(0).get(Counter.EXCLUSIVE_LOSSES));
        assertEquals(1, cluster.counters(1).get(Counter.COPYSET_JOINS), "the first read; one notice never leaves");
        assertEquals(0, cluster.counters(1).get(Counter.COPYSET_LEAVES), "read again after its one notice");
        assertEquals(0, cluster.counters(1).get(Counter.COPYSET_REJOINS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldNoticeWritesMadeAfterAReleaseMissedTheRegistration(final boolean deferWrites)
        throws InterruptedException
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        final CountDownLatch firstRelease = new CountDownLatch(1);
        final CountDownLatch read = new CountDownLatch(1);
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(1);
                data.set(node, 0, 1);
                node.unlock(1);
                firstRelease.countDown();
                read.await();
                // Node 1 cached the page after that release looked: the page is still exclusive here.
                assertEquals(PageState.READ_WRITE, data.table(0).states()[0]);
                node.lock(1);
                data.set(node, 0, 2);
                node.unlock(1);
            }
            else
            {
                firstRelease.await();
                node.lock(1);
                assertEquals(1, data.get(node, 0));
                node.unlock(1);
                read.countDown();
                long seen;
                do
                {
                    node.lock(1);
                    seen = data.get(node, 0);
                    node.unlock(1);
                }
                while (1 == seen);
                assertEquals(2, seen);
            }
            node.barrier();
            assertEquals(2, data.get(node, 0));
        });
        assertEquals(1, cluster.counters(0).get(Counter.EXCLUSIVE_LOSSES));
        assertEquals(1, cluster.counters(0).get(Counter.WRITE_FAULTS), "the second write did not fault");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldLeaveTheCopysetOfAPageInvalidatedAndNotReadAgainSoThatTheHomeFaultsOnce(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final int pages = 4;
        final InMemoryCluster.LongArray data = cluster.longs("data", pages * PER_PAGE, Homes.onNode(0));
        final long[] faults = new long[2];
        cluster.run((id, node) ->
        {
            // node 1 reads the pages once; the home's writes in round 1 invalidate those copies, never read again
            if (1 == id)
            {
                for (int p = 0; p < pages; p++)
                {
                    assertEquals(0, data.get(node, p * PER_PAGE + 5));
                }
            }
            // the home's release of the second barrier comes after node 1's reads, so it sees them registered
            node.barrier();
            node.barrier();
            // round 1's notices invalidate node 1's copies; round 2's name them again, unread, so it leaves at that
            // acquire, before it enters the barrier after; the home's release of the next barrier is after that
            // one, so it sees the copysets empty (a home's release may precede the acquire of the barrier before it
            // at other nodes)
            for (int round = 1; round <= 2; round++)
            {
                writePages(id, node, data, pages, round);
                node.barrier();
                node.barrier();
            }
            if (0 == id)
            {
                faults[0] = cluster.counters(0).get(Counter.WRITE_FAULTS);
            }
            for (int round = 3; round <= 8; round++)
            {
                writePages(id, node, data, pages, round);
                node.barrier();
            }
            if (0 == id)
            {
                faults[1] = cluster.counters(0).get(Counter.WRITE_FAULTS);
            }
            for (int p = 0; p < pages; p++)
            {
                assertEquals(8, data.get(node, p * PER_PAGE + 5));
            }
        });
        final Counters home = cluster.counters(0);
        final Counters reader = cluster.counters(1);
        assertEquals(2 * pages, faults[0], "rounds 1 and 2: the pages were shared, so each write faulted");
        assertEquals(1, faults[1] - faults[0], "rounds 3 to 8: one fault opens the copyset word's pages");
        assertEquals(pages, home.get(Counter.EXCLUSIVE_GAINS));
        assertEquals(2, home.get(Counter.INTERVALS), "notices in rounds 1 and 2 only");
        assertEquals(pages, reader.get(Counter.INVALIDATIONS), "round 1's; round 2's named copies already invalid");
        assertEquals(pages, reader.get(Counter.COPYSET_LEAVES), "left at round 2's acquire, the second notice");
        assertEquals(pages, reader.get(Counter.COPYSET_REJOINS), "read again at the end");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldShareAPageAgainWhenACopyLeftIsReadAgainAndSeeEveryWrite(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            // the home writes in every phase; node 1 reads in phases 1, 4 and 7 only, and must see the last write.
            // After each read, one notice invalidates the copy (at the phase's second barrier or the next phase's
            // first, as the home's release sees the registration) and a second, before the next read, leaves it
            for (int phase = 1; phase <= 7; phase++)
            {
                if (0 == id)
                {
                    data.set(node, 5, phase);
                    data.set(node, PER_PAGE - 1, -phase);
                }
                node.barrier();
                if (1 == id && 1 == phase % 3)
                {
                    assertEquals(phase, data.get(node, 5), "phase " + phase);
                    assertEquals(-phase, data.get(node, PER_PAGE - 1), "phase " + phase);
                }
                node.barrier();
            }
        });
        final Counters reader = cluster.counters(1);
        assertEquals(3, reader.get(Counter.COPYSET_JOINS), "phases 1, 4 and 7");
        assertEquals(2, reader.get(Counter.COPYSET_REJOINS), "phases 4 and 7, each after the copy was left");
        assertEquals(2, reader.get(Counter.COPYSET_LEAVES), "before phases 4 and 7, at an unread copy's second notice");
        assertEquals(3, reader.get(Counter.READ_FAULTS));
        assertEquals(0, reader.get(Counter.NOTICE_LOG_OVERRUNS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldMergeASingleWriterPageThatGetsSeveralWritersAndBack(final boolean deferWrites)
    {
        final int nodes = 3;
        final InMemoryCluster cluster = InMemoryCluster.of(nodes);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            for (int round = 1; round <= 6; round++)
            {
                final boolean everyone = 0 == round % 2;
                for (int i = id; i < PER_PAGE; i += nodes)
                {
                    if (everyone || 0 == id)
                    {
                        data.set(node, i, round * 100L + i);
                    }
                }
                node.barrier();
                for (int i = 0; i < PER_PAGE; i++)
                {
                    final boolean writtenNow = everyone || 0 == i % nodes;
                    final int lastRound = writtenNow ? round : round - 1;
                    final long expected = 0 == lastRound ? 0 : lastRound * 100L + i;
                    assertEquals(expected, data.get(node, i), "round " + round + " element " + i);
                }
                node.barrier();
            }
        });
        assertEquals(0, cluster.counters(0).get(Counter.TWINS), "the home never twins");
        assertEquals(3, cluster.counters(1).get(Counter.DIFFS), "a diff in every round with several writers");
        assertEquals(3, cluster.counters(2).get(Counter.DIFFS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldDropACopyFetchedOnlyForAWriteSoThatItsHomeWritesWithoutFaults(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final int pages = 4;
        final InMemoryCluster.LongArray data = cluster.longs("data", pages * PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            // node 1 initialises one element of each of node 0's pages without reading them (as SOR's master writes
            // the boundary of every row); its release sends the diffs and leaves the copysets
            if (1 == id)
            {
                for (int p = 0; p < pages; p++)
                {
                    data.set(node, p * PER_PAGE, -p);
                }
            }
            node.barrier();
            for (int round = 1; round <= 6; round++)
            {
                writePages(id, node, data, pages, round);
                node.barrier();
            }
            for (int p = 0; p < pages; p++)
            {
                assertEquals(-p, data.get(node, p * PER_PAGE), "page " + p);
                assertEquals(6, data.get(node, p * PER_PAGE + 5), "page " + p);
            }
        });
        final Counters home = cluster.counters(0);
        final Counters writer = cluster.counters(1);
        assertEquals(pages, writer.get(Counter.TWINS));
        assertEquals(pages, writer.get(Counter.COPYSET_LEAVES), "every copy dropped at the release after its write");
        assertEquals(0, writer.get(Counter.INVALIDATIONS), "no notices: nothing to invalidate");
        assertEquals(1, home.get(Counter.WRITE_FAULTS), "rounds 1 to 6: one fault opens the copyset word's pages");
        assertEquals(0, home.get(Counter.INTERVALS), "no notices: nobody caches the pages");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepACopyWrittenUnreadOnceItsDropCostAFetch(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            // node 1 writes the page unread in every round, and nobody else writes it
            for (int round = 1; round <= 4; round++)
            {
                if (1 == id)
                {
                    data.set(node, round, round);
                }
                node.barrier();
            }
            for (int round = 1; round <= 4; round++)
            {
                assertEquals(round, data.get(node, round));
            }
        });
        final Counters writer = cluster.counters(1);
        assertEquals(4, writer.get(Counter.WRITE_FAULTS));
        assertEquals(4, writer.get(Counter.TWINS));
        assertEquals(1, writer.get(Counter.COPYSET_LEAVES), "dropped after round 1 only");
        assertEquals(2, writer.get(Counter.COPYSET_JOINS), "fetched in rounds 1 and 2, kept since");
        assertEquals(1, writer.get(Counter.COPYSET_REJOINS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepACopyWrittenUnreadOnceItsDropCostAFetchThroughAView(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            // node 1 writes the page unread (dropped), needs it again through a view's fetch (kept from then on),
            // the home writes it (a notice invalidates node 1's copy), and node 1 writes it unread again
            if (1 == id)
            {
                data.set(node, 1, 1);
            }
            node.barrier();
            if (1 == id)
            {
                node.readable(data.table(1), 0, 0);
                assertEquals(1, data.get(node, 1));
            }
            node.barrier();
            if (0 == id)
            {
                data.set(node, 3, 3);
            }
            node.barrier();
            if (1 == id)
            {
                data.set(node, 4, 4);
            }
            node.barrier();
            for (int round = 1; round <= 4; round++)
            {
                assertEquals(2 == round ? 0 : round, data.get(node, round));
            }
        });
        final Counters writer = cluster.counters(1);
        assertEquals(1, writer.get(Counter.COPYSET_LEAVES), "dropped after its first write only");
        assertEquals(2, writer.get(Counter.COPYSET_JOINS), "fetched by the first write and by the view");
        assertEquals(1, writer.get(Counter.INVALIDATIONS), "the home's write");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldKeepACopyReadBeforeItWasWritten(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray data = cluster.longs("data", PER_PAGE, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            if (1 == id)
            {
                data.set(node, 1, data.get(node, 0) + 7);
            }
            node.barrier();
            if (1 == id)
            {
                assertEquals(PageState.READ_ONLY, data.table(1).states()[0], "kept after the release");
                assertEquals(7, data.get(node, 1));
            }
        });
        final Counters writer = cluster.counters(1);
        assertEquals(1, writer.get(Counter.READ_FAULTS), "the read before the write; none after the release");
        assertEquals(0, writer.get(Counter.COPYSET_LEAVES));
        assertEquals(1, writer.get(Counter.COPYSET_JOINS));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldCountEveryCopysetJoinAtTheHomeInOneWordWhicheverTheArray(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray first = cluster.longs("first", 2 * PER_PAGE, Homes.onNode(0));
        final InMemoryCluster.LongArray second = cluster.longs("second", PER_PAGE, Homes.onNode(0));
        final InMemoryCluster.LongArray own = cluster.longs("own", PER_PAGE, Homes.onNode(1));
        cluster.run((id, node) ->
        {
            if (1 == id)
            {
                assertEquals(0, first.get(node, 0));
                assertEquals(0, first.get(node, PER_PAGE), "a second page, a second join");
                assertEquals(0, second.get(node, 0));
                assertEquals(0, own.get(node, 0), "its own page: no join");
            }
            node.barrier();
        });
        final int offset = cluster.node(0).layout().registrations();
        assertEquals(3, cluster.counters(1).get(Counter.COPYSET_JOINS));
        assertEquals(3, cluster.port(0).region(HlrcNode.CONTROL_REGION).getLongVolatile(offset));
        assertEquals(0, cluster.port(1).region(HlrcNode.CONTROL_REGION).getLongVolatile(offset));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldEndTheExclusivityOfOnlyTheArrayANodeStartedToCache(final boolean deferWrites)
        throws InterruptedException
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray a = cluster.longs("a", PER_PAGE, Homes.onNode(0));
        final InMemoryCluster.LongArray b = cluster.longs("b", PER_PAGE, Homes.onNode(0));
        final CountDownLatch exclusive = new CountDownLatch(1);
        final CountDownLatch bCached = new CountDownLatch(1);
        final CountDownLatch aClean = new CountDownLatch(1);
        final CountDownLatch aCached = new CountDownLatch(1);
        final long[] intervals = new long[2];
        cluster.run((id, node) ->
        {
            if (0 == id)
            {
                node.lock(1);
                a.set(node, 0, 1);
                b.set(node, 0, 1);
                node.unlock(1);
                exclusive.countDown();
                bCached.await();
                // node 1 cached b's page: this release settles, b's page gets a notice, a's stays exclusive
                node.lock(1);
                a.set(node, 0, 2);
                node.unlock(1);
                intervals[0] = cluster.counters(0).get(Counter.INTERVALS);
                assertEquals(PageState.READ_WRITE, a.table(0).states()[0]);
                assertEquals(PageState.READ_ONLY, b.table(0).states()[0]);
                // nobody registered since: a clean release, no interval
                node.lock(1);
                a.set(node, 0, 3);
                node.unlock(1);
                intervals[1] = cluster.counters(0).get(Counter.INTERVALS);
                aClean.countDown();
                aCached.await();
                node.lock(1);
                a.set(node, 0, 4);
                node.unlock(1);
            }
            else
            {
                exclusive.await();
                assertEquals(1, b.get(node, 0));
                bCached.countDown();
                aClean.await();
                node.lock(1);
                assertEquals(3, a.get(node, 0));
                node.unlock(1);
                aCached.countDown();
                long seen;
                do
                {
                    node.lock(1);
                    seen = a.get(node, 0);
                    node.unlock(1);
                }
                while (3 == seen);
                assertEquals(4, seen);
            }
            node.barrier();
        });
        assertEquals(1, intervals[0], "b's notice");
        assertEquals(1, intervals[1], "nothing to notice");
        assertEquals(2, cluster.counters(0).get(Counter.INTERVALS), "a's notice once node 1 cached it");
        assertEquals(2, cluster.counters(0).get(Counter.EXCLUSIVE_LOSSES));
        assertEquals(2, cluster.counters(1).get(Counter.COPYSET_JOINS));
    }

    private static void writePages(
        final int id, final HlrcNode node, final InMemoryCluster.LongArray data, final int pages, final int round)
    {
        if (0 == id)
        {
            for (int p = 0; p < pages; p++)
            {
                data.set(node, p * PER_PAGE + 5, round);
            }
        }
    }

    private static void awaitUnlocked(final HlrcNode node, final int lockId)
    {
        node.lock(lockId);
    }
}
