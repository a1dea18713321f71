package org.viadsm.examples.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.home.Placement;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.launch.LocalCluster;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every application on DSM nodes (1, 2 and 4, over the jvm and shm providers) prints what the same application
 * prints on plain arrays with the same number of threads, timing lines aside, and passes its self-check.
 */
@Timeout(180)
class AppsOnDsmTest
{
    private static final Path INPUTS = inputs();

    static Stream<Arguments> runs()
    {
        final List<Arguments> runs = new ArrayList<>();
        final String[][] apps = {
            {"fft", "-m10", "-t"},
            {"lu", "-n64", "-b16", "-t"},
            {"radix", "-n4096", "-r16", "-t"},
            {"ocean", "-n34", "-o"},
            {"water-nsquared", INPUTS.resolve("water.deck").toString()},
            {"water-spatial", INPUTS.resolve("water.deck").toString()},
            {"sor", "-m64", "-n64", "-i10", "-t"},
            {"barnes", INPUTS.resolve("barnes.in").toString()},
            {"tsp", "-n10"}};
        for (final String[] app : apps)
        {
            for (final int nodes : new int[] {1, 2, 4})
            {
                runs.add(Arguments.of(app[0], nodes, "jvm", List.of(app).subList(1, app.length)));
            }
            runs.add(Arguments.of(app[0], 4, "shm", List.of(app).subList(1, app.length)));
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
            .maxSemaphores(1024), dsm -> parse(entry, args).run(new DsmTeam(dsm, Placement.block(), out)));
        final List<String> expected = withoutTimings(plain.toString(StandardCharsets.UTF_8));
        assertTrue(expected.size() > 2, "the application printed " + expected);
        assertEquals(expected, withoutTimings(shared.toString(StandardCharsets.UTF_8)));
        if (nodes > 1)
        {
            assertTrue(DsmStats.total(stats).get(Counter.BARRIERS) > 0, "the nodes synchronized");
        }
    }

    private static App parse(final AppCatalog.Entry entry, final List<String> args)
    {
        final App app = entry.newInstance();
        new CommandLine(app).parseArgs(args.toArray(new String[0]));
        return app;
    }

    /** The output without timing lines and the per-processor timing tables. */
    static List<String> withoutTimings(final String output)
    {
        final List<String> lines = new ArrayList<>();
        boolean inStatistics = false;
        for (final String line : output.split("\\R"))
        {
            if (line.contains("PROCESS STATISTICS"))
            {
                inStatistics = true;
                continue;
            }
            if (inStatistics && (line.contains("TIMING") || line.contains("TEST") || line.contains("time")))
            {
                inStatistics = false;
            }
            if (inStatistics || line.isBlank() || line.matches("(?i).*(time|compute|fraction|step [0-9]+:).*"))
            {
                continue;
            }
            lines.add(line);
        }
        return lines;
    }

    private static Path inputs()
    {
        try
        {
            final Path dir = Files.createTempDirectory("viadsm-app-inputs-");
            dir.toFile().deleteOnExit();
            final Path deck = dir.resolve("water.deck");
            Files.writeString(deck, "1.5e-16 64 3 6 -1 3000 3 0 1 6.212752\n", StandardCharsets.US_ASCII);
            deck.toFile().deleteOnExit();
            final Path barnes = dir.resolve("barnes.in");
            Files.writeString(barnes, String.join("\n", "", "256", "123", "", "0.025", "0.05", "1.0", "2.0", "5.0",
                "0.05", "0.25", "1") + "\n", StandardCharsets.US_ASCII);
            barnes.toFile().deleteOnExit();
            return dir;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
