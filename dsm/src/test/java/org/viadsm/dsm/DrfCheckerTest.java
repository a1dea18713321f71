package org.viadsm.dsm;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random data-race-free programs on 2 to 8 nodes, every read checked against a sequential model. The default run
 * checks over 10^5 operations; {@code -Dviadsm.drf.ops=N} scales every configuration (see the README for a run of
 * 10^7), and {@code -Dviadsm.drf.seed=S} reproduces one seed.
 */
class DrfCheckerTest
{
    private static final AtomicLong TOTAL = new AtomicLong();
    private static final List<DsmStats> TRANSITIONS = new ArrayList<>();

    static Stream<Arguments> configurations()
    {
        final long base = Long.getLong("viadsm.drf.seed", 20261121L);
        return Stream.of(
            Arguments.of("jvm", 2, base, 1, false),
            Arguments.of("jvm", 3, base + 1, 4, false),
            Arguments.of("jvm", 4, base + 2, 1, true),
            Arguments.of("jvm", 8, base + 3, 2, false),
            Arguments.of("shm", 2, base + 4, 1, false),
            Arguments.of("shm", 4, base + 5, 8, true),
            Arguments.of("jvm", 5, base + 6, 1, false),
            Arguments.of("shm", 3, base + 7, 1, false),
            Arguments.of("tcp", 3, base + 8, 2, false));
    }

    @ParameterizedTest(name = "{0} x{1} seed {2} prefetch {3} small log {4}")
    @MethodSource("configurations")
    @Timeout(300)
    void shouldReadWhatTheSequentialModelPredicts(
        final String provider, final int nodes, final long seed, final int prefetch, final boolean smallLog)
    {
        final long target = Long.getLong("viadsm.drf.ops", 40_000L);
        final RandomDrfProgram program = new RandomDrfProgram(seed, nodes, target);
        final AtomicLong ops = new AtomicLong();
        final List<DsmStats> stats = LocalCluster.run(nodes, provider,
            context -> context.prefetchPages(prefetch).noticeLog(smallLog ? 16 : 16 * 1024, smallLog ? 1024 : 1 << 18),
            dsm -> ops.addAndGet(program.run(dsm)));
        TOTAL.addAndGet(ops.get());
        assertTrue(ops.get() >= target / 2, "checked " + ops.get() + " operations of " + program);
        final DsmStats total = DsmStats.total(stats);
        assertTrue(total.get(Statistic.BARRIERS) > 0);
        synchronized (TRANSITIONS)
        {
            TRANSITIONS.add(total);
        }
    }

    /**
     * The programs took pages through every sharing state: private to shared (an exclusive page another node starts
     * to cache), shared to private (a written page nobody caches any more), copies given up when invalidated, pages
     * read again after that (shared again), and pages written by nodes that are not their home, next to their home's
     * own writes (multiple writers, diffs).
     */
    @AfterAll
    static void shouldHaveTakenPagesThroughEverySharingTransition()
    {
        if (!TRANSITIONS.isEmpty())
        {
            final DsmStats total = DsmStats.total(TRANSITIONS);
            assertTrue(total.get(Statistic.EXCLUSIVE_LOSSES) > 0, "private to shared: " + total);
            assertTrue(total.get(Statistic.EXCLUSIVE_GAINS) > 0, "shared to private: " + total);
            assertTrue(total.get(Statistic.COPYSET_LEAVES) > 0, "copies given up: " + total);
            assertTrue(total.get(Statistic.COPYSET_REJOINS) > 0, "copies given up, read again: " + total);
            assertTrue(total.get(Statistic.DIFFS) > 0, "multiple writers: " + total);
        }
    }

    @Test
    @Tag("slow")
    @Timeout(7200)
    void shouldCheckTenMillionOperations()
    {
        final long target = Long.getLong("viadsm.drf.ops", 10_000_000L);
        long checked = 0;
        long programs = 0;
        final long firstSeed = Long.getLong("viadsm.drf.seed", 1L);
        long seed = firstSeed;
        while (checked < target)
        {
            final int nodes = 2 + (int)(seed % 7);
            final RandomDrfProgram program = new RandomDrfProgram(seed, nodes, 60_000L);
            final AtomicLong ops = new AtomicLong();
            LocalCluster.run(nodes, seed % 2 == 0 ? "jvm" : "shm", context -> { },
                dsm -> ops.addAndGet(program.run(dsm)));
            checked += ops.get();
            programs++;
            seed++;
        }
        System.out.println("checked " + checked + " operations in " + programs + " random programs, seeds " +
            firstSeed + ".." + (seed - 1));
    }
}
