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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viadsm aot-training [--mode M]}: the workload the {@code viadsm} script records the jar's ahead-of-time
 * caches from (JDK 25's {@code -XX:AOTCacheOutput}), started by the script, not by users. It does what a launcher
 * and its nodes do, in one JVM: parses a run's command line, then runs every application with small inputs, once on
 * two threads ({@code threads}), once on two DSM nodes over shm as threads of this JVM ({@code nodes}), or both
 * ({@code all}, the default), so that the classes they load and link, and with {@code threads} or {@code nodes}
 * the profiles of their methods, go into the cache. A mode's profiles describe only the code its JVMs run: an
 * application's kernels see only plain arrays on threads and only DSM views on nodes, as in the JVMs that start from
 * that mode's cache. Output goes nowhere; the exit code says whether every run verified.
 */
@Command(name = "aot-training", hidden = true, description = "Runs the workload the startup cache is recorded from.")
final class AotTrainingCommand implements Callable<Integer>
{
    private static final String WATER_DECK = "1.5e-16 64 3 6 -1 3000 3 0 2 6.212752\n";
    private static final String BARNES_INPUT =
        String.join("\n", "", "1024", "123", "", "0.025", "0.05", "1.0", "2.0", "5.0", "0.05", "0.25", "2") + "\n";

    /** Mode: the applications on threads and on nodes, for the launchers' cache. */
    static final String ALL = "all";
    /** Mode: the applications on threads, for the cache of JVMs that run an application on threads. */
    static final String THREADS = "threads";
    /** Mode: the applications on DSM nodes, for the node JVMs' cache. */
    static final String NODES = "nodes";

    @Option(names = "--mode", description = "all, threads or nodes (default: ${DEFAULT-VALUE}).")
    private String mode = ALL;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws IOException
    {
        if (!List.of(ALL, THREADS, NODES).contains(mode))
        {
            throw new ParameterException(spec.commandLine(),
                "--mode must be all, threads or nodes, not '" + mode + "'");
        }
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
                if (!NODES.equals(mode))
                {
                    AppRuns.onThreads(2, entry, args, sink, 1);
                }
                if (!THREADS.equals(mode))
                {
                    final List<DsmStats> stats = LocalCluster.run(2, "shm", context -> context
                        .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES),
                        dsm -> AppRuns.onNode(dsm, entry, args, null, sink, 1));
                    StatsReport.printTable(sink, stats);
                }
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
