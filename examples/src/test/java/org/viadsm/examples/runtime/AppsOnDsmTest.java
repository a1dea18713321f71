package org.viadsm.examples.runtime;

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
import org.viadsm.dsm.Statistic;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.via.provider.ucx.UcxNicProvider;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every application on DSM nodes (1, 2 and 4 over the jvm provider, 4 over shm, 2 and 4 over ucx) prints what
 * the same application prints on plain arrays with the same number of threads, timing lines aside, and passes its
 * self-check.
 */
@Timeout(180)
class AppsOnDsmTest
{
    /** Where UCX is installed, and always in CI (where a missing library must fail the runs). */
    private static final boolean WITH_UCX = UcxNicProvider.isAvailable() || null != System.getenv("CI");

    static Stream<Arguments> runs()
    {
        final List<Arguments> runs = new ArrayList<>();
        for (final List<String> app : SmallInputs.all())
        {
            for (final int nodes : new int[] {1, 2, 4})
            {
                runs.add(Arguments.of(app.get(0), nodes, "jvm", app.subList(1, app.size())));
            }
            runs.add(Arguments.of(app.get(0), 4, "shm", app.subList(1, app.size())));
            if (WITH_UCX)
            {
                runs.add(Arguments.of(app.get(0), 2, "ucx", app.subList(1, app.size())));
                runs.add(Arguments.of(app.get(0), 4, "ucx", app.subList(1, app.size())));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0} on {1} {2} node(s)")
    @MethodSource("runs")
    void shouldPrintWhatThePlainArraysPrint(
        final String name, final int nodes, final String provider, final List<String> args)
    {
        final AppCatalog.Entry entry = AppCatalog.find(name);
        final ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ThreadTeam.run(nodes, new PrintStream(plain, true, StandardCharsets.UTF_8),
            team -> parse(entry, args).run(team));
        final ByteArrayOutputStream shared = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(shared, true, StandardCharsets.UTF_8);
        final List<DsmStats> stats = LocalCluster.run(nodes, provider, context -> context.maxLocks(4096)
            .maxSemaphores(1024), dsm -> parse(entry, args).run(new DsmTeam(dsm, out)));
        final List<String> expected = AppHarness.withoutTimings(plain.toString(StandardCharsets.UTF_8));
        assertTrue(expected.size() > 2, "the application printed " + expected);
        assertEquals(expected, AppHarness.withoutTimings(shared.toString(StandardCharsets.UTF_8)));
        if (nodes > 1)
        {
            assertTrue(DsmStats.total(stats).get(Statistic.BARRIERS) > 0, "the nodes synchronized");
        }
    }

    private static App parse(final AppCatalog.Entry entry, final List<String> args)
    {
        final App app = entry.newInstance();
        new CommandLine(app).parseArgs(args.toArray(new String[0]));
        return app;
    }
}
