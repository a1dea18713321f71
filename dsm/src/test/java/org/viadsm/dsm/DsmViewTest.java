package org.viadsm.dsm;

import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.dsm.TypedViews.get;
import static org.viadsm.dsm.TypedViews.set;
import static org.viadsm.dsm.TypedViews.value;

/**
 * Views of shared arrays, every element type and mode, on real nodes over every provider: what a view writes
 * reaches other nodes at a barrier and through a lock, writers of the two halves of one page both survive, a view
 * expires at every kind of synchronization and then touches nothing, and bad ranges change nothing.
 */
@Timeout(120)
class DsmViewTest
{
    private static final int PAGE = 4096;

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldShowViewWritesAfterABarrierAndThroughALock(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedIntArray flag = dsm.allocInts("flag", TypedViews.values().length, Placement.onNode(0));
            final DsmLock lock = dsm.lock(3);
            for (final TypedViews type : TypedViews.values())
            {
                final int n = 3 * type.perPage(PAGE) + 5;
                final Object a = type.allocate(dsm, "a" + type, n, Placement.block());
                final int half = n / 2;
                if (0 == dsm.nodeId())
                {
                    final Object w = TypedViews.write(a, 0, half, null);
                    final Object u = TypedViews.update(a, half, n, null);
                    for (int i = 0; i < half; i++)
                    {
                        set(w, i, value(i, 1));
                    }
                    for (int i = half; i < n; i++)
                    {
                        set(u, i, get(u, i) + value(i, 1));
                    }
                }
                dsm.barrier();
                final Object r = TypedViews.read(a, 0, n, null);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(value(i, 1), get(r, i), type + " after the barrier, element " + i);
                }
                dsm.barrier();
                if (1 == dsm.nodeId())
                {
                    lock.lock();
                    final Object u = TypedViews.update(a, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        set(u, i, get(u, i) + 1);
                    }
                    final Object f = TypedViews.update(flag, type.ordinal(), type.ordinal() + 1, null);
                    set(f, type.ordinal(), 1);
                    lock.unlock();
                }
                else
                {
                    boolean seen = false;
                    while (!seen)
                    {
                        lock.lock();
                        seen = 1 == get(TypedViews.read(flag, 0, flag.length(), null), type.ordinal());
                        if (seen)
                        {
                            final Object inside = TypedViews.read(a, 0, n, null);
                            for (int i = 0; i < n; i++)
                            {
                                assertEquals(value(i, 1) + 1, get(inside, i), type + " through the lock, " + i);
                            }
                        }
                        lock.unlock();
                    }
                }
                dsm.barrier();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldKeepBothHalvesOfAPageWrittenThroughViews(final String provider)
    {
        final List<DsmStats> stats = LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            for (final TypedViews type : TypedViews.values())
            {
                final int n = type.perPage(PAGE);
                final Object page = type.allocate(dsm, "page" + type, n, Placement.onNode(2));
                final int half = n / 2;
                for (int round = 0; round < 2; round++)
                {
                    final int low = 0 == round ? 0 : 2;
                    final int high = 1;
                    if (low == dsm.nodeId())
                    {
                        final Object w = TypedViews.write(page, 0, half, null);
                        for (int i = 0; i < half; i++)
                        {
                            set(w, i, value(i, round));
                        }
                    }
                    else if (high == dsm.nodeId())
                    {
                        final Object u = TypedViews.update(page, half, n, null);
                        for (int i = half; i < n; i++)
                        {
                            set(u, i, value(i, round));
                        }
                    }
                    dsm.barrier();
                    final Object r = TypedViews.read(page, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        assertEquals(value(i, round), get(r, i), type + " round " + round + ", element " + i);
                    }
                    dsm.barrier();
                }
            }
        });
        assertEquals(0, stats.get(2).get(Statistic.TWINS), "the home does not twin");
        assertEquals(TypedViews.values().length * 2L, stats.get(1).get(Statistic.DIFFS), "one diff per page and round");
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldExpireViewsAtEverySynchronizationAndThenTouchNothing(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final int me = dsm.nodeId();
            final Object[] arrays = new Object[TypedViews.values().length];
            for (final TypedViews type : TypedViews.values())
            {
                arrays[type.ordinal()] = type.allocate(dsm, "e" + type, 2 * type.perPage(PAGE), Placement.cyclic());
            }
            final Object[] views = new Object[3 * arrays.length];
            makeViews(arrays, views);
            dsm.barrier();
            assertExpired(views, "a barrier");

            makeViews(arrays, views);
            final DsmLock mine = dsm.lock(10 + me);
            mine.lock();
            assertExpired(views, "a lock");
            makeViews(arrays, views);
            mine.unlock();
            assertExpired(views, "an unlock");

            makeViews(arrays, views);
            assertTrue(mine.tryLock());
            assertExpired(views, "a tryLock");
            mine.unlock();

            makeViews(arrays, views);
            if (0 == me)
            {
                dsm.semaphorePost(1);
                assertExpired(views, "a semaphore post");
            }
            else
            {
                dsm.semaphoreWait(1);
                assertExpired(views, "a semaphore wait");
            }
            dsm.barrier();
            for (final Object array : arrays)
            {
                final int n = TypedViews.length(array);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(0, get(array, i), "an expired view wrote element " + i + " of " + array);
                }
            }
            dsm.barrier();
            makeViews(arrays, views);
            dsm.close();
            assertExpired(views, "close");
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldRefuseBadRangesAndChangeNothing(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            for (final TypedViews type : TypedViews.values())
            {
                final int n = 2 * type.perPage(PAGE);
                final Object a = type.allocate(dsm, "b" + type, n, Placement.onNode(0));
                for (final TypedViews.Mode mode : TypedViews.Mode.values())
                {
                    final Object reuse = TypedViews.view(mode, a, 1, 2, null);
                    final DsmStats before = dsm.stats();
                    TypedViews.assertBadRangesRefused(mode, a, reuse);
                    final DsmStats after = dsm.stats();
                    for (final Statistic counter : new Statistic[]
                        {Statistic.READ_FAULTS, Statistic.WRITE_FAULTS, Statistic.TWINS, Statistic.PAGES_FETCHED})
                    {
                        assertEquals(before.get(counter), after.get(counter), counter + " after bad " + mode);
                    }
                    TypedViews.assertIndicesChecked(mode, a, reuse);
                }
                dsm.barrier();
                assertEquals(0, get(a, 9), type + ": nothing written");
                assertEquals(0, get(a, 20), type + ": nothing written");
                dsm.barrier();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldNameTheViewOfAnIndexOutsideItAlsoAfterItsLoopIsCompiled(final String provider)
    {
        LocalCluster.run(1, provider, context -> { }, dsm ->
        {
            final int n = 4 * PAGE / Double.BYTES;
            final SharedDoubleArray a = dsm.allocDoubles("outside", n);
            final String outside = " is outside view [8, " + (n - 8) + ") of 'outside'";
            final DoubleView view = TypedViews.assertOutsideNamedAfterCompiledLoops(a, outside);
            dsm.barrier();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> view.set(n - 8, 1));
            assertTrue(ex.getMessage().contains("expired at a synchronization of node"), ex.getMessage());
            assertEquals(0, a.get(n - 8));
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldMakeTheRangesPagesValidOnce(final String provider)
    {
        final int pages = 3;
        final List<DsmStats> stats = LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            for (final TypedViews type : TypedViews.values())
            {
                final int n = pages * type.perPage(PAGE);
                final Object a = type.allocate(dsm, "v" + type, n, Placement.onNode(0));
                final Object sub = type.allocate(dsm, "s" + type, n, Placement.onNode(0));
                if (1 == dsm.nodeId())
                {
                    final Object r = TypedViews.read(a, 0, n, null);
                    long sum = 0;
                    for (int i = 0; i < n; i++)
                    {
                        sum += get(r, i);
                    }
                    assertEquals(0, sum);
                    final Object u = TypedViews.update(a, 0, n, null);
                    for (int i = 0; i < n; i++)
                    {
                        set(u, i, get(u, i) + value(i, 5));
                    }
                    final Object tail = TypedViews.range(sub, type.perPage(PAGE), n);
                    final Object w = TypedViews.write(tail, 0, 3, null);
                    set(w, 2, 42);
                }
                dsm.barrier();
                for (int i = 0; i < n; i++)
                {
                    assertEquals(value(i, 5), get(a, i));
                }
                assertEquals(42, get(sub, type.perPage(PAGE) + 2), "a sub-array's view uses its indices");
                dsm.barrier();
            }
        });
        final int types = TypedViews.values().length;
        final DsmStats reader = stats.get(1);
        assertEquals(types * 2, reader.get(Statistic.READ_FAULTS), "one fetch per run: the read view's, the write's");
        assertEquals(types * (pages + 1), reader.get(Statistic.PAGES_FETCHED), "each page once");
        assertEquals(types * (pages + 1), reader.get(Statistic.WRITE_FAULTS), "one write fault per page");
        assertEquals(types * (pages + 1), reader.get(Statistic.TWINS), "one twin per page");
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldFetchARunLongerThanTheMaximumTransferSizeInSeveralReads(final String provider)
    {
        // 2.5 MiB of doubles homed at node 0: node 1's read view needs one run of 640 invalid pages
        final int n = 5 * 65_536;
        final List<DsmStats> stats = LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("big", n, Placement.onNode(0));
            if (0 == dsm.nodeId())
            {
                final DoubleView w = a.write(0, n, null);
                for (int i = 0; i < n; i++)
                {
                    w.set(i, i * 0.5);
                }
            }
            dsm.barrier();
            if (1 == dsm.nodeId())
            {
                final DoubleReadView r = a.read(0, n, null);
                for (int i = 0; i < n; i++)
                {
                    assertEquals(i * 0.5, r.get(i), "element " + i);
                }
            }
            dsm.barrier();
        });
        assertEquals((long)n * Double.BYTES / PAGE, stats.get(1).get(Statistic.PAGES_FETCHED), "each page once");
        assertEquals(1, stats.get(1).get(Statistic.READ_FAULTS), "one run, fetched in reads of 1, 1 and 0.5 MiB");
    }

    private static void makeViews(final Object[] arrays, final Object[] views)
    {
        for (int a = 0; a < arrays.length; a++)
        {
            final int n = TypedViews.length(arrays[a]);
            for (final TypedViews.Mode mode : TypedViews.Mode.values())
            {
                final int slot = 3 * a + mode.ordinal();
                views[slot] = TypedViews.view(mode, arrays[a], 0, n, views[slot]);
            }
        }
    }

    private static void assertExpired(final Object[] views, final String synchronization)
    {
        for (final Object view : views)
        {
            assertIllegalState(() -> get(view, 0), view, synchronization);
            if (TypedViews.writable(view))
            {
                assertIllegalState(() -> set(view, 0, 99), view, synchronization);
            }
        }
    }

    private static void assertIllegalState(final Executable access, final Object view, final String synchronization)
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, access,
            () -> view + " after " + synchronization);
        assertTrue(ex.getMessage().contains("expired at a synchronization of node"), ex.getMessage());
    }
}
