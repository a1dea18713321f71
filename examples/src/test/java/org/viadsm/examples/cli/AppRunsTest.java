package org.viadsm.examples.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.Statistic;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.SmallInputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every application run three times on the same DSM nodes, and twice on threads: every run verifies and prints
 * what a single run on plain arrays prints, timing lines aside; the first run's output is a single run's, exactly.
 */
@Timeout(180)
class AppRunsTest
{
    private static final int RUNS = 3;

    static Stream<Arguments> apps()
    {
        final List<Arguments> apps = new ArrayList<>();
        for (final List<String> app : SmallInputs.all())
        {
            apps.add(Arguments.of(app.get(0), app.subList(1, app.size())));
        }
        return apps.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("apps")
    void shouldRepeatEveryRunOnTheSameNodesAndVerifyEachOne(final String name, final List<String> args)
    {
        final AppCatalog.Entry entry = AppCatalog.find(name);
        final ByteArrayOutputStream single = new ByteArrayOutputStream();
        final long[] once = AppRuns.onThreads(2, entry, args, new PrintStream(single, true, StandardCharsets.UTF_8),
            1);
        assertEquals(1, once.length);
        final String plain = single.toString(StandardCharsets.UTF_8);
        final List<String> expected = AppHarness.withoutTimings(plain);

        final ByteArrayOutputStream shared = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(shared, true, StandardCharsets.UTF_8);
        final long[][] runNs = new long[2][];
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> context
            .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES), dsm ->
                runNs[dsm.nodeId()] = AppRuns.onNode(dsm, entry, args, Placement.block(), out, RUNS));
        final List<String> runs = split(shared.toString(StandardCharsets.UTF_8));
        assertEquals(RUNS, runs.size());
        for (final String run : runs)
        {
            assertEquals(expected, AppHarness.withoutTimings(run));
        }
        assertEquals(plain.lines().count(), runs.get(0).lines().count(), "the first run prints a single run's lines");
        assertEquals(RUNS, runNs[0].length);
        assertTrue(stats.get(0).get(Statistic.BARRIERS) > 0, "the statistics are the last run's");

        final ByteArrayOutputStream threads = new ByteArrayOutputStream();
        AppRuns.onThreads(2, entry, args, new PrintStream(threads, true, StandardCharsets.UTF_8), 2);
        final List<String> threadRuns = split(threads.toString(StandardCharsets.UTF_8));
        assertEquals(2, threadRuns.size());
        for (final String run : threadRuns)
        {
            assertEquals(expected, AppHarness.withoutTimings(run));
        }
    }

    /** The output of each run: the first, then one per warm run announced by its own line. */
    private static List<String> split(final String output)
    {
        final List<String> runs = new ArrayList<>(List.of(output.split("(?m)^--- warm run \\d+ of \\d+ ---$", -1)));
        for (int i = 0; i < runs.size() - 1; i++)
        {
            final String run = runs.get(i);
            assertTrue(run.endsWith(System.lineSeparator() + System.lineSeparator()) || run.endsWith("\n\n"), run);
            runs.set(i, run.substring(0, run.length() - System.lineSeparator().length()));
        }
        return runs;
    }
}
