package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.DsmContext;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.cli.NodeSettings;
import org.viadsm.examples.cli.NodesOption;
import org.viadsm.examples.cli.OutputFileOption;
import org.viadsm.examples.runtime.App;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viadsm bench apps}: runs each selected application sequentially, on N Java threads and on N DSM nodes for
 * each N, every run in fresh JVMs and verified by the application's self-check, and reports times, speedups, the
 * DSM/threads ratio and the DSM's statistics.
 */
@Command(
    name = "apps",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpWidth = 120,
    description = {
        "Runs the application suite sequentially (one thread, plain arrays), on N Java threads (plain arrays) and on " +
            "N DSM nodes, for each N of --nodes; every run is verified by the application's self-check.",
        "Prints a table (time, speedup over sequential, DSM time / threads time with as many members, DSM statistics " +
            "summed over the nodes) and, with --json, one row per (app, mode, N)."},
    footer = {
        "",
        "How runs are made: each measured run is 'viadsm run APP --provider P --nodes N' in a fresh child JVM",
        "(sequential and threads: --provider threads; DSM over shm: that JVM starts one fresh JVM per node; over jvm:",
        "all nodes are threads of that JVM), all with the node JVMs' options (-XX:+UseSerialGC, the DSM port compiled",
        "out of line: " + NodeSettings.PORT_OUT_OF_LINE + "). Without --warm no run",
        "is warmed up: every configuration pays class loading and JIT compilation inside its timed phase, so small",
        "inputs favour the sequential run. --warm K runs the application K+1 times in the same JVMs (for the DSM, the",
        "same nodes, the arrays freed between runs), each run verified: time-s is the median of the last K runs,",
        "cold-s the first, and both tables are printed. --repeat R runs each configuration R times, each in fresh",
        "JVMs, and keeps the medians.",
        "",
        "Where the time went: for every DSM run, ms per node (the mean over the nodes) computing and in read faults,",
        "write faults, releases, lock, barrier and semaphore waits, from the nodes' statistics (with --warm, of the",
        "last run), the pages homed at each node, and the CPU time of each node's thread and of its JVM's compiler",
        "threads in the timed phase (cpu, jit: '-' for WATER, which marks none); --plot draws the categories as",
        "stacked bars beside the speedups.",
        "",
        "Time per application: the time the program prints for its measured phase, read from member 0's output",
        "(FFT, LU, RADIX, OCEAN: 'Total time without initialization'; SOR: 'Iteration time'; BARNES: COMPUTETIME;",
        "TSP: 'Search time'); WATER prints whole seconds only, so for WATER-NSQUARED and WATER-SPATIAL the time is",
        "the wall time of the application's run on member 0 (initialization included). JSON rows also carry",
        "app_run_s, that wall time, for every application.",
        "",
        "Inputs: quick by default (each application well under a few seconds sequentially); --full uses the SPLASH-2",
        "defaults: FFT -m16, LU -n512 -b16, RADIX -n1048576 -r1024, OCEAN -n258, WATER 512 molecules (3 steps),",
        "BARNES 16384 bodies (4 steps), and SOR -m2000 -n1000 -i50, TSP -n19. Each application's arguments are",
        "checked against every N before anything runs: one it refuses (FFT, RADIX, OCEAN: N a power of 2) is a usage",
        "error with its own message.",
        "On a machine with fewer cores than N, N members oversubscribe the cores: the header says how many there are."})
public final class AppsBenchCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--apps", paramLabel = "LIST", split = ",",
        description = "Applications, comma-separated (default: all of 'viadsm list').")
    private List<String> apps = new ArrayList<>();

    @Option(names = "--nodes", paramLabel = "LIST", split = ",", defaultValue = "1,2,4",
        description = "Member counts N, each at most " + DsmContext.MAX_NODES + " (default ${DEFAULT-VALUE}).")
    private List<Integer> nodes;

    @Option(names = "--provider", paramLabel = "P", defaultValue = "shm",
        description = "DSM provider: shm (one JVM per node) or jvm (nodes as threads of one JVM); default " +
            "${DEFAULT-VALUE}.")
    private String provider;

    @Option(names = "--full", description = "The SPLASH-2 default inputs instead of the quick set.")
    private boolean full;

    @Option(names = "--input", paramLabel = "APP=ARGS",
        description = "Arguments to give APP instead of the suite's input, e.g. --input 'fft=-m10 -t' " +
            "(repeatable); FFT, LU, RADIX and SOR check their result only with -t, and a run without it is " +
            "reported as not checked.")
    private List<String> inputArgs = new ArrayList<>();

    private final Map<String, String> overrides = new HashMap<>();

    @Option(names = "--warm", paramLabel = "K", defaultValue = "0",
        description = "Runs each configuration K+1 times in the same JVMs; the time is the median of the last K, " +
            "the first is reported as cold (default ${DEFAULT-VALUE}: one cold run).")
    private int warm;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
        description = "Runs per configuration, each in fresh JVMs; the median is kept (default ${DEFAULT-VALUE}).")
    private int repeat;

    @Option(names = "--timeout-s", paramLabel = "S", defaultValue = "1800",
        description = "Longest one run may take; it is then stopped and counts as failed (default ${DEFAULT-VALUE}).")
    private int timeoutS;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the rows as JSON to FILE.")
    private Path json;

    @Option(names = "--plot", paramLabel = "FILE.png",
        description = "Also draw speedup against N per application, and where the DSM runs' time went.")
    private Path plot;

    /**
     * Creates the command; picocli sets its options.
     */
    public AppsBenchCommand()
    {
    }

    /**
     * Runs the suite and publishes the report.
     *
     * @return 0, or 1 if a run failed.
     * @throws ParameterException for an unknown application, provider or a bad count (the command exits 2).
     */
    @Override
    public Integer call()
    {
        final List<String> selected = selection();
        final List<Integer> counts = counts();
        OutputFileOption.check(spec.commandLine(), "--json", json);
        OutputFileOption.check(spec.commandLine(), "--plot", plot);
        final Path dir = tempDirectory();
        final AppInputs inputs = new AppInputs(dir, full, overrides);
        try
        {
            checkArguments(selected, counts, inputs);
        }
        catch (final ParameterException ex)
        {
            delete(dir);
            throw ex;
        }
        final int cores = Runtime.getRuntime().availableProcessors();
        final AppsReport report = new AppsReport(cores, describe(cores, counts), inputs);
        boolean failed = false;
        for (final String app : selected)
        {
            final List<String> args = inputs.args(app);
            failed |= !measure(report, app, args, AppMeasurement.SEQ, "threads", 1, dir);
            for (final int n : counts)
            {
                if (n > 1)
                {
                    failed |= !measure(report, app, args, AppMeasurement.THREADS, "threads", n, dir);
                }
                failed |= !measure(report, app, args, AppMeasurement.DSM, provider, n, dir);
            }
        }
        report.printTable(System.out);
        if (null != json)
        {
            report.writeJson(json);
            System.out.println("JSON written to " + json);
        }
        if (null != plot)
        {
            AppsPlot.write(report, counts, plot);
            System.out.println("plot written to " + plot);
        }
        delete(dir);
        return failed ? 1 : 0;
    }

    private boolean measure(
        final AppsReport report, final String app, final List<String> args, final String mode,
        final String runProvider, final int n, final Path dir)
    {
        System.err.print(String.format(Locale.ROOT, "bench apps: %s %s N=%d ...", app, mode, n));
        final AppMeasurement[] runs = new AppMeasurement[repeat];
        final double[] cold = new double[repeat];
        for (int i = 0; i < repeat; i++)
        {
            runs[i] = AppProcess.run(app, args, mode, runProvider, n, warm, dir, TimeUnit.SECONDS.toNanos(timeoutS));
            if (null != runs[i].error)
            {
                System.err.println(" FAILED: " + runs[i].error);
                report.add(runs[i]);
                return false;
            }
            cold[i] = runs[i].coldS;
        }
        Arrays.sort(runs, (a, b) -> Double.compare(a.timeS, b.timeS));
        Arrays.sort(cold);
        final AppMeasurement median = runs[(repeat - 1) / 2];
        final AppMeasurement row = new AppMeasurement(median.app, median.mode, median.provider, median.nodes, warm,
            median.timeS, cold[(repeat - 1) / 2], median.runS, median.verified, null, median.perNode);
        System.err.println(String.format(Locale.ROOT, " %.3f s", row.timeS) +
            (warm > 0 ? String.format(Locale.ROOT, " warm, %.3f s cold", row.coldS) : ""));
        report.add(row);
        return true;
    }

    private AppCatalog.Entry find(final String app)
    {
        try
        {
            return AppCatalog.find(app);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    private List<String> selection()
    {
        final List<String> selected = new ArrayList<>();
        if (apps.isEmpty())
        {
            for (final AppCatalog.Entry entry : AppCatalog.all())
            {
                selected.add(entry.name());
            }
            return selected;
        }
        for (final String app : apps)
        {
            selected.add(find(app.trim()).name());
        }
        return selected;
    }

    private List<Integer> counts()
    {
        if (!"shm".equals(provider) && !"jvm".equals(provider))
        {
            throw new ParameterException(spec.commandLine(), "--provider must be shm or jvm, not '" + provider + "'");
        }
        if (repeat < 1 || timeoutS < 1)
        {
            throw new ParameterException(spec.commandLine(), "--repeat and --timeout-s must be positive, not " +
                repeat + " and " + timeoutS);
        }
        if (warm < 0)
        {
            throw new ParameterException(spec.commandLine(), "--warm must not be negative, not " + warm);
        }
        for (final String input : inputArgs)
        {
            final int eq = input.indexOf('=');
            if (eq < 1)
            {
                throw new ParameterException(spec.commandLine(),
                    "--input must be APP=ARGS, e.g. --input 'fft=-m10 -t', not '" + input + "'");
            }
            overrides.put(find(input.substring(0, eq).trim()).name(), input.substring(eq + 1));
        }
        final List<Integer> counts = new ArrayList<>();
        for (final int n : nodes)
        {
            if (n < 1 || counts.contains(n))
            {
                throw new ParameterException(spec.commandLine(),
                    "--nodes must list distinct counts >= 1, not " + nodes);
            }
            counts.add(NodesOption.check(spec.commandLine(), n, true));
        }
        counts.sort(Integer::compare);
        return counts;
    }

    /**
     * Parses the arguments each selected application will run with (those {@code --input} gives it, or the suite's
     * own, with the input decks the suite writes) and checks them against every member count, as its runs will, so
     * that an application that refuses its arguments or a count is a usage error before anything runs, with the
     * application's own message, rather than a failure of every such run.
     */
    private void checkArguments(final List<String> selected, final List<Integer> counts, final AppInputs inputs)
    {
        final List<Integer> sizes = new ArrayList<>(counts);
        if (!sizes.contains(1))
        {
            sizes.add(0, 1);
        }
        for (final String app : selected)
        {
            final String given = overrides.containsKey(app) ? "--input " + app + "=" + overrides.get(app) :
                app + " (" + (full ? "--full" : "quick") + " input: " + inputs.describe(app) + ")";
            final App instance = find(app).newInstance();
            try
            {
                new CommandLine(instance).parseArgs(inputs.args(app).toArray(new String[0]));
            }
            catch (final ParameterException ex)
            {
                throw new ParameterException(spec.commandLine(), given + ": " + ex.getMessage());
            }
            for (final int n : instance.readsStandardInput() ? List.<Integer>of() : sizes)
            {
                try
                {
                    instance.validate(n);
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new ParameterException(spec.commandLine(),
                        given + ": " + ex.getMessage() + " (N=" + n + ")");
                }
            }
        }
    }

    private String describe(final int cores, final List<Integer> counts)
    {
        final int most = counts.get(counts.size() - 1);
        return (full ? "SPLASH-2 default inputs" : "quick inputs") + (overrides.isEmpty() ? "" : " (" +
            overrides.keySet() + " as given by --input)") + "; DSM over " + provider +
            (warm > 0 ? "; " + (warm + 1) + " runs in the same JVM(s), the first cold" :
                "; each run in fresh JVM(s), not warmed up") +
            (repeat > 1 ? ", median of " + repeat + " processes" : "") +
            (most > cores ? "; runs with N > " + cores + " members oversubscribe the " + cores + " cores" : "");
    }

    private static Path tempDirectory()
    {
        try
        {
            return Files.createTempDirectory("viadsm-bench-apps-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary directory", ex);
        }
    }

    private static void delete(final Path dir)
    {
        final java.io.File[] files = dir.toFile().listFiles();
        if (null != files)
        {
            for (final java.io.File file : files)
            {
                file.delete();
            }
        }
        dir.toFile().delete();
    }
}
