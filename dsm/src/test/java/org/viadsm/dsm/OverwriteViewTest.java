package org.viadsm.dsm;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.array.LongView;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.dsm.TypedViews.get;
import static org.viadsm.dsm.TypedViews.set;
import static org.viadsm.dsm.TypedViews.value;

/**
 * Overwrite views on real nodes: the ranges two nodes overwrite on pages a third is home of all reach every node,
 * with neither fetch nor twin and exactly their elements as diffs, a written element equal to the stale copy's
 * included; a page whose other elements are then read, or that gets more ranges than it keeps apart, is fetched
 * with the ranges kept; an acquire's notice for a page being overwritten sends its range first; and the misuses a
 * view refuses.
 */
@Timeout(120)
class OverwriteViewTest
{
    private static final int PAGE = 4096;

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldSendEachNodesRangesWholeWithNeitherFetchNorTwin(final String provider)
    {
        final int pages = 2;
        final List<DsmStats> stats = LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final int me = dsm.nodeId();
            for (final TypedViews type : TypedViews.values())
            {
                final int quarter = type.perPage(PAGE) / 4;
                final int n = pages * type.perPage(PAGE);
                final Object a = type.allocate(dsm, "o" + type, n, Placement.onNode(2));
                // round 0: node 1 reads the page, so that its memory keeps these values once the home changes them
                if (2 == me)
                {
                    final Object w = TypedViews.write(a, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        set(w, i, value(i, 0));
                    }
                }
                dsm.barrier();
                if (1 == me)
                {
                    final Object r = TypedViews.read(a, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        assertEquals(value(i, 0), get(r, i), type + " round 0, element " + i);
                    }
                }
                dsm.barrier();
                if (2 == me)
                {
                    final Object w = TypedViews.write(a, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        set(w, i, value(i, 1));
                    }
                }
                dsm.barrier();
                // node 0 overwrites quarters 0 and 2 of every page, node 1 quarters 1 and 3 with the values its
                // invalid copy still holds: a diff against that copy would leave them out
                if (me < 2)
                {
                    Object view = null;
                    for (int chunk = me; chunk < 4 * pages; chunk += 2)
                    {
                        view = TypedViews.overwrite(a, chunk * quarter, (chunk + 1) * quarter, view);
                        for (int i = chunk * quarter; i < (chunk + 1) * quarter; i++)
                        {
                            set(view, i, 0 == me ? value(i, 2) : value(i, 0));
                        }
                    }
                }
                dsm.barrier();
                final Object r = TypedViews.read(a, 0, n, null);
                for (int i = 0; i < n; i++)
                {
                    final long expected = 0 == (i / quarter) % 2 ? value(i, 2) : value(i, 0);
                    assertEquals(expected, get(r, i), type + " on node " + me + ", element " + i);
                }
                dsm.barrier();
            }
        });
        final int types = TypedViews.values().length;
        final long bytes = (long)pages * PAGE / 2;
        for (int node = 0; node < 2; node++)
        {
            final DsmStats writer = stats.get(node);
            assertEquals(types * pages, writer.get(Statistic.OVERWRITES), "node " + node + ": pages overwritten");
            assertEquals(0, writer.get(Statistic.TWINS), "node " + node + " twins nothing");
            assertEquals(types * pages, writer.get(Statistic.DIFFS), "node " + node + ": a diff per page");
            assertEquals(types * pages * 2, writer.get(Statistic.DIFF_RUNS), "node " + node + ": its two ranges");
            assertEquals(types * bytes, writer.get(Statistic.DIFF_BYTES), "node " + node + ": every element");
        }
        assertEquals(types * pages, stats.get(0).get(Statistic.PAGES_FETCHED), "node 0 fetches only to read");
        assertEquals(2 * types * pages, stats.get(1).get(Statistic.PAGES_FETCHED), "node 1 reads in two rounds");
    }

    @Test
    void shouldFetchAnOverwrittenPageWhoseOtherElementsAreReadKeepingTheRange()
    {
        final int n = PAGE / Long.BYTES;
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedLongArray a = dsm.allocLongs("read", n, Placement.onNode(0));
            if (0 == dsm.nodeId())
            {
                a.fill(7);
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                final LongView w = a.overwrite(100, 200);
                for (int i = 100; i < 150; i++)
                {
                    w.set(i, -i);
                }
                assertEquals(7, a.get(99), "an element outside the range: the page is fetched");
                assertEquals(-100, a.get(100), "the range keeps what was written");
                assertEquals(-149, w.get(149));
                for (int i = 150; i < 200; i++)
                {
                    w.set(i, 7);
                }
                a.set(300, 8);
            }
            dsm.barrier();
            for (int i = 0; i < n; i++)
            {
                final long expected = 300 == i ? 8 : i >= 100 && i < 150 ? -i : 7;
                assertEquals(expected, a.get(i), "node " + dsm.nodeId() + ", element " + i);
            }
            dsm.barrier();
        });
        final DsmStats writer = stats.get(1);
        assertEquals(1, writer.get(Statistic.OVERWRITES));
        // fetched by the read; fetched again after the barrier if the home's release saw this node join the page's
        // copyset, which made its exclusive page read-only with a notice (it may not have: then the fetch came after
        // the home's writes, which it holds)
        final long fetched = writer.get(Statistic.PAGES_FETCHED);
        assertTrue(1 == fetched || 2 == fetched, "pages fetched " + fetched);
        assertEquals(1, writer.get(Statistic.TWINS), "twinned as fetched");
        assertEquals(1, writer.get(Statistic.DIFFS));
        assertEquals(51L * Long.BYTES, writer.get(Statistic.DIFF_BYTES),
            "the elements that differ from the home's: 100-149 and 300, not those written with the home's value");
    }

    @Test
    void shouldJoinAdjoiningRangesAndFetchAPageGivenMoreThanItKeepsApart()
    {
        final int n = PAGE / Long.BYTES;
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedLongArray joined = dsm.allocLongs("joined", n, Placement.onNode(0));
            final SharedLongArray apart = dsm.allocLongs("apart", n, Placement.onNode(0));
            if (1 == dsm.nodeId())
            {
                LongView view = null;
                for (int range = 7; range >= 0; range--)
                {
                    // adjoining ranges, made from the last: each widens the one made before it
                    view = joined.overwrite(range * 8, range * 8 + 8, view);
                    for (int i = range * 8; i < range * 8 + 8; i++)
                    {
                        view.set(i, i + 1);
                    }
                }
                for (int range = 0; range < 5; range++)
                {
                    // ranges with gaps between: the fifth fetches the page
                    view = apart.overwrite(range * 16, range * 16 + 8, view);
                    for (int i = range * 16; i < range * 16 + 8; i++)
                    {
                        view.set(i, i + 1);
                    }
                }
            }
            dsm.barrier();
            for (int i = 0; i < n; i++)
            {
                assertEquals(i < 64 ? i + 1 : 0, joined.get(i), "joined, element " + i);
                assertEquals(i < 80 && i % 16 < 8 ? i + 1 : 0, apart.get(i), "apart, element " + i);
            }
            dsm.barrier();
        });
        final DsmStats writer = stats.get(1);
        assertEquals(2, writer.get(Statistic.OVERWRITES));
        assertEquals(1, writer.get(Statistic.TWINS), "the page given a fifth range apart");
        assertEquals(2, writer.get(Statistic.DIFFS));
        assertEquals(1 + 5, writer.get(Statistic.DIFF_RUNS), "one range joined, five apart");
        assertEquals((64 + 40) * Long.BYTES, writer.get(Statistic.DIFF_BYTES));
        assertEquals(1 + 2, writer.get(Statistic.PAGES_FETCHED), "the fifth range's fetch, then the reads");
    }

    @Test
    void shouldSendARangeHomeWhenAnAcquiresNoticeInvalidatesItsPage()
    {
        final int n = PAGE / Long.BYTES;
        LocalCluster.run(3, "jvm", context -> { }, dsm ->
        {
            final SharedLongArray a = dsm.allocLongs("notice", n, Placement.onNode(2));
            final DsmLock lock = dsm.lock(1);
            if (0 == dsm.nodeId())
            {
                lock.lock();
                final LongView u = a.update(0, 100);
                for (int i = 0; i < 100; i++)
                {
                    u.set(i, 5);
                }
                lock.unlock();
                dsm.semaphorePost(2);
            }
            else if (1 == dsm.nodeId())
            {
                final LongView w = a.overwrite(200, 300);
                for (int i = 200; i < 300; i++)
                {
                    w.set(i, 6);
                }
                dsm.semaphoreWait(2);
                lock.lock();
                assertEquals(5, a.get(0), "node 0's write, after the lock");
                assertEquals(6, a.get(250), "this node's range, home before the page was fetched again");
                lock.unlock();
            }
            dsm.barrier();
            for (int i = 0; i < n; i++)
            {
                assertEquals(i < 100 ? 5 : i >= 200 && i < 300 ? 6 : 0, a.get(i), "element " + i);
            }
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldRefuseBadRangesExpiredViewsAndFreedArrays(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            for (final TypedViews type : TypedViews.values())
            {
                final int n = 2 * type.perPage(PAGE);
                final Object a = type.allocate(dsm, "m" + type, n, Placement.onNode(0));
                final Object reuse = TypedViews.overwrite(a, 1, 2, null);
                set(reuse, 1, 3);
                final DsmStats before = dsm.stats();
                for (final int[] range : new int[][] {{-1, 1}, {2, 1}, {0, n + 1}, {n, n + 1}})
                {
                    assertThrows(IndexOutOfBoundsException.class, () -> TypedViews.overwrite(a, range[0], range[1],
                        reuse), () -> type + " " + range[0] + ".." + range[1]);
                }
                assertEquals(1, TypedViews.from(reuse), "reuse unchanged");
                assertEquals(2, TypedViews.to(reuse), "reuse unchanged");
                final DsmStats after = dsm.stats();
                for (final Statistic counter : new Statistic[]
                    {Statistic.WRITE_FAULTS, Statistic.OVERWRITES, Statistic.TWINS, Statistic.PAGES_FETCHED})
                {
                    assertEquals(before.get(counter), after.get(counter), counter + " after bad ranges");
                }
                final Object view = TypedViews.overwrite(a, 10, 20, reuse);
                assertSame(reuse, view, "a view of the same kind is re-wrapped");
                assertThrows(IndexOutOfBoundsException.class, () -> set(view, 9, 99));
                assertThrows(IndexOutOfBoundsException.class, () -> set(view, 20, 99));
                for (int i = 10; i < 20; i++)
                {
                    set(view, i, 4);
                }
                dsm.barrier();
                final IllegalStateException expired = assertThrows(IllegalStateException.class,
                    () -> set(view, 10, 99));
                assertTrue(expired.getMessage().contains("expired at a synchronization of node"),
                    expired.getMessage());
                assertEquals(3, get(a, 1));
                assertEquals(4, get(a, 10));
                assertEquals(0, get(a, 20), "nothing written outside the ranges");
                dsm.barrier();
                dsm.free((SharedArray)a);
                final IllegalStateException freed = assertThrows(IllegalStateException.class,
                    () -> TypedViews.overwrite(a, 0, 1, null));
                assertTrue(freed.getMessage().contains("was freed"), freed.getMessage());
            }
        });
    }

    @Test
    void shouldOverwriteAPlainArrayAsAWriteView()
    {
        final LongArray plain = LongArray.allocate(8);
        final LongView view = plain.overwrite(2, 5);
        view.set(2, 1);
        view.set(4, 3);
        assertEquals(3, view.get(4));
        assertEquals(1, plain.get(2));
        assertThrows(IndexOutOfBoundsException.class, () -> view.set(5, 0));
    }
}
