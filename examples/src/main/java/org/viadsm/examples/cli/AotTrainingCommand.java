package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.catalog.AppCatalog;
import picocli.CommandLine.Command;

/**
 * {@code viadsm aot-training}: the workload the {@code viadsm} script records the jar's ahead-of-time cache from
 * (JDK 25's {@code -XX:AOTCacheOutput}), started by the script, not by users. It does what a launcher and its
 * nodes do, in one JVM: parses a run's command line, then runs every application once on two threads and once on
 * two DSM nodes over shm (as threads of this JVM), with small inputs, so that the classes they load and link go
 * into the cache. Output goes nowhere; the exit code says whether every run verified.
 */
@Command(name = "aot-training", hidden = true, description = "Runs the workload the startup cache is recorded from.")
final class AotTrainingCommand implements Callable<Integer>
{
    private static final String WATER_DECK = "1.5e-16 64 3 6 -1 3000 3 0 2 6.212752\n";
    private static final String BARNES_INPUT =
        String.join("\n", "", "1024", "123", "", "0.025", "0.05", "1.0", "2.0", "5.0", "0.05", "0.25", "2") + "\n";

    @Override
    public Integer call() throws IOException
    {
        final Path dir = Files.createTempDirectory("viadsm-aot-training-");
        try
        {
            final String water = write(dir.resolve("water.deck"), WATER_DECK);
            final String barnes = write(dir.resolve("barnes.in"), BARNES_INPUT);
            final PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
            ViadsmCommand.commandLine().parseArgs("run", "lu", "--nodes", "2", "--warm", "1", "-n64");
            for (final List<String> app : List.of(
                List.of("fft", "-m12", "-t"),
                List.of("lu", "-n128", "-b16", "-t"),
                List.of("radix", "-n65536", "-r1024", "-t"),
                List.of("ocean", "-n66", "-o"),
                List.of("water-nsquared", water),
                List.of("water-spatial", water),
                List.of("sor", "-m256", "-n256", "-i10", "-t"),
                List.of("barnes", barnes),
                List.of("tsp", "-n12")))
            {
                final AppCatalog.Entry entry = AppCatalog.find(app.get(0));
                final List<String> args = app.subList(1, app.size());
                AppRuns.onThreads(2, entry, args, sink, 1);
                final List<DsmStats> stats = LocalCluster.run(2, "shm", context -> context
                    .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES),
                    dsm -> AppRuns.onNode(dsm, entry, args, null, sink, 1));
                StatsReport.printTable(sink, stats);
            }
            return 0;
        }
        finally
        {
            ProcessRun.removeQuietly(dir);
        }
    }

    private static String write(final Path file, final String text)
    {
        try
        {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
            return file.toString();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
