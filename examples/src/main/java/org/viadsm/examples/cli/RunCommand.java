package org.viadsm.examples.cli;

import java.io.Console;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.FailureReport;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.TeamFailure;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viadsm run <app> --nodes N [--provider ...] [app options]}: runs an application on local nodes, verifies
 * it, and reports per-node statistics.
 */
@Command(name = "run", sortOptions = false,
    description = {
        "Runs an application on N local nodes, verifies it, and prints the nodes' statistics.",
        "The nodes are DSM nodes over the jvm (threads), shm, tcp or ucx (processes) provider, or Java threads over " +
            "plain arrays (--provider threads, the baseline). Options the launcher does not know go to the " +
            "application: 'viadsm run APP --app-help' shows them, and 'viadsm list' the arguments of each " +
            "application's SPLASH-2 default input."})
final class RunCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "APP", description = "The application, as 'viadsm list' names it.")
    private String appName;

    @Option(names = "--nodes", defaultValue = "4", description = "Number of nodes (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--provider", defaultValue = "shm",
        description = "jvm, shm, tcp, ucx, or threads (plain arrays, no DSM) (default: ${DEFAULT-VALUE}).")
    private String provider;

    @Option(names = "--placement",
        description = "Home placement of every shared array, overriding the application's own: block, cyclic, " +
            "first-touch or node:<n> (default: each array where the application's partitioning puts it).")
    private String placement;

    @Option(names = "--page-size", defaultValue = "4096", description = "Coherence unit in bytes (default: " +
        "${DEFAULT-VALUE}).")
    private int pageSize;

    @Option(names = "--stats-json", paramLabel = "FILE", description = "Also write the statistics as JSON.")
    private Path statsJson;

    @Option(names = "--warm", paramLabel = "K", defaultValue = "0",
        description = "Runs the application K more times in the same JVMs (the same nodes) after the first, cold " +
            "run, each verified; the statistics are then the sums over the warm runs (default: ${DEFAULT-VALUE}).")
    private int warm;

    @Option(names = "--app-help", description = "Shows the application's own options and exits.")
    private boolean appHelp;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Shows this help and exits.")
    private boolean help;

    @CommandLine.Unmatched
    private List<String> appArgs = new ArrayList<>();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call()
    {
        final RunSpec run = validate();
        if (appHelp)
        {
            System.out.print(AppArguments.usage(run.entry));
            return 0;
        }
        final long startNs = System.nanoTime();
        try
        {
            final RunResult result = execute(run);
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            report(run, result, seconds);
            return 0;
        }
        catch (final ClusterFailure | TeamFailure ex)
        {
            final int node = ex instanceof ClusterFailure ? ((ClusterFailure)ex).nodeId() : ((TeamFailure)ex).member();
            final Throwable cause = null == ex.getCause() ? ex : ex.getCause();
            final FailureReport report = ex instanceof ClusterFailure ? ((ClusterFailure)ex).report() : null;
            if (cause instanceof VerificationException)
            {
                System.err.println("viadsm: " + run.entry.name() + " verification failed on node " + node + ": " +
                    cause.getMessage());
            }
            else if (null != report)
            {
                System.err.println("viadsm: " + run.entry.name() + " failed: " + report.lines().get(0));
            }
            else
            {
                System.err.println("viadsm: " + run.entry.name() + " failed on node " + node + ": " +
                    cause.getMessage());
            }
            if (null != report)
            {
                report.lines().stream().skip(1).forEach(line -> System.err.println("viadsm: " + line));
            }
            if (null != statsJson)
            {
                StatsReport.writeJson(statsJson, StatsReport.json(run.entry.name(), run.provider, run.nodes,
                    (System.nanoTime() - startNs) / 1e9, null, false, Collections.emptyList()));
            }
            return 1;
        }
        catch (final RuntimeException ex)
        {
            System.err.println("viadsm: " + run.entry.name() + " failed: " + ex.getMessage());
            return 1;
        }
    }

    private RunSpec validate()
    {
        final CommandLine commandLine = spec.commandLine();
        NodesOption.check(commandLine, nodes, !"threads".equalsIgnoreCase(provider));
        if (warm < 0)
        {
            throw new CommandLine.ParameterException(commandLine, "--warm must not be negative, not " + warm);
        }
        final RunSpec run = new RunSpec();
        run.nodes = nodes;
        run.runs = warm + 1;
        run.provider = provider.toLowerCase(Locale.ROOT);
        if (!List.of("jvm", "shm", "tcp", "ucx", "threads").contains(run.provider))
        {
            throw new CommandLine.ParameterException(commandLine,
                "unknown --provider '" + provider + "'; expected jvm, shm, tcp, ucx or threads");
        }
        run.pageSize = PageSizeOption.check(commandLine, pageSize);
        run.args = appArgs;
        run.placement = PlacementOption.check(commandLine, placement, nodes);
        // before a deck is read from standard input, and before the run rather than after it
        OutputFileOption.check(commandLine, "--stats-json", statsJson);
        try
        {
            run.entry = AppCatalog.find(appName);
            if (!appHelp)
            {
                final App probe = AppArguments.parse(run.entry, appArgs);
                run.probe = probe;
                final Console console = System.console();
                if (probe.readsStandardInput() && null != console && console.isTerminal())
                {
                    // otherwise the command waits for the deck in silence
                    System.err.println("viadsm: " + run.entry.name() + " reads its input deck from standard input: " +
                        "type it and end with Ctrl-D, or give the deck's file");
                }
                if (probe.readsStandardInput() && !List.of("threads", "jvm").contains(run.provider))
                {
                    run.input = StandardInput.copyToFile();
                }
                probe.validate(nodes);
            }
        }
        catch (final IllegalArgumentException | CommandLine.ParameterException ex)
        {
            final String hint = null == run.entry ? "" : " (see 'viadsm run " + run.entry.name() + " --app-help')";
            throw new CommandLine.ParameterException(commandLine, ex.getMessage() + hint);
        }
        return run;
    }

    private RunResult execute(final RunSpec run)
    {
        final AtomicInteger finished = new AtomicInteger();
        try (ProgressLine progress = ProgressLine.start(run.entry.name() + " on " + run.nodes + " " + run.provider +
            " node(s)", finished::get, run.nodes))
        {
            final PrintStream out = progress.wrap(System.out);
            switch (run.provider)
            {
                case "threads":
                    final long[] runNs = AppRuns.onThreads(run.nodes, run.entry, run.args, out, run.runs);
                    finished.set(run.nodes);
                    return new RunResult(Collections.emptyList(), runNs);
                case "jvm":
                    return runInThreads(run, out, finished);
                default:
                    return ProcessRun.run(run, out, finished);
            }
        }
    }

    /** Runs the nodes as threads of this JVM over the jvm provider. */
    static RunResult runInThreads(final RunSpec run, final PrintStream out, final AtomicInteger finished)
    {
        final long[][] runNs = new long[run.nodes][];
        final List<DsmStats> stats = LocalCluster.run(run.nodes, "jvm", context -> context.pageSize(run.pageSize)
            .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES), dsm ->
            {
                runNs[dsm.nodeId()] = AppRuns.onNode(dsm, run.entry, run.args, run.placement, out, run.runs);
                finished.incrementAndGet();
            });
        return new RunResult(stats, runNs[0]);
    }

    private void report(final RunSpec run, final RunResult result, final double seconds)
    {
        System.out.println();
        final StringBuilder warmRuns = new StringBuilder();
        for (int i = 1; i < result.runNs.length; i++)
        {
            warmRuns.append(1 == i ? " cold, then " : ", ").append(CFormat.format("%.3f", result.runNs[i] / 1e9));
        }
        System.out.println(CFormat.format("%s on %d node(s), provider %s: %.3f s, %s", run.entry.name(), run.nodes,
            run.provider, seconds, AppArguments.verdict(run.entry, run.probe, CFormat.format(
                "the application ran %.3f s on node 0%s", result.runNs[0] / 1e9,
                warmRuns.length() > 0 ? warmRuns + " s warm" : ""))));
        if (!result.stats.isEmpty())
        {
            System.out.println(StatsReport.scope(result.stats.get(0), result.runNs.length - 1));
            StatsReport.printTable(System.out, result.stats);
        }
        if (null != statsJson)
        {
            StatsReport.writeJson(statsJson, StatsReport.json(run.entry.name(), run.provider, run.nodes, seconds,
                result.runNs, run.probe.checksResult(), result.stats));
        }
    }

    /** What to run, once validated. */
    static final class RunSpec
    {
        AppCatalog.Entry entry;
        List<String> args;
        int nodes;
        String provider;
        /** Every array's placement, or null for the application's own. */
        Placement placement;
        int pageSize;
        int runs = 1;
        Path input;
        /** The application as the run's arguments set it, asked whether the run checks its result. */
        App probe;
    }
}
