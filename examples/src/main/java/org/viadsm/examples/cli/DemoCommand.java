package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.CFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viadsm demo}: the README's first command. Runs a selection of the applications on local nodes over
 * shared memory, each verified by its own self-check, and sums up what the DSM did.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, subcommands = ViaDemoCommand.class,
    description = {"Runs SOR, LU, WATER-NSQUARED and RADIX on local nodes, verifies each, and prints a summary.",
        "By default the nodes are 4 separate processes over shared memory. 'viadsm demo via' shows the emulated NIC " +
            "instead."})
final class DemoCommand implements Callable<Integer>
{
    private static final String WATER_DECK = "1.5e-16 216 6 6 -1 3000 3 0 4 6.212752\n";

    @Option(names = "--nodes", defaultValue = "4", description = "Nodes per application (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--provider", defaultValue = "shm",
        description = "jvm, shm, tcp or ucx (default: ${DEFAULT-VALUE}).")
    private String provider;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call()
    {
        NodesOption.check(spec.commandLine(), nodes, true);
        if (!List.of("jvm", "shm", "tcp", "ucx").contains(provider.toLowerCase(Locale.ROOT)))
        {
            throw new ParameterException(spec.commandLine(),
                "unknown --provider '" + provider + "'; expected jvm, shm, tcp or ucx");
        }
        final Path deck = waterDeck();
        final List<String[]> selection = List.of(
            new String[] {"sor", "-m1000", "-n500", "-i20", "-t"},
            new String[] {"lu", "-n256", "-b16", "-t"},
            new String[] {"water-nsquared", deck.toString()},
            new String[] {"radix", "-n262144", "-r1024", "-t"});
        final List<String> summary = new ArrayList<>();
        boolean allVerified = true;
        for (final String[] spec : selection)
        {
            final RunCommand.RunSpec run = spec(spec);
            System.out.println(CFormat.format("=== %s %s on %d nodes (%s) ===", run.entry.name(),
                String.join(" ", run.args), run.nodes, run.provider));
            final long startNs = System.nanoTime();
            boolean verified = true;
            List<DsmStats> stats = List.of();
            try
            {
                final AtomicInteger finished = new AtomicInteger();
                stats = ("jvm".equals(run.provider) ? RunCommand.runInThreads(run, System.out, finished) :
                    ProcessRun.run(run, System.out, finished)).stats;
            }
            catch (final ClusterFailure ex)
            {
                verified = false;
                allVerified = false;
                System.out.println("FAILED on node " + ex.nodeId() + ": " +
                    (null == ex.getCause() ? ex.getMessage() : ex.getCause().getMessage()));
            }
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            summary.add(summaryRow(run, seconds, verified, DsmStats.total(stats)));
            System.out.println();
        }
        System.out.println(CFormat.format("%-15s %5s %8s %9s %9s %10s %10s %11s", "app", "nodes", "time-s",
            "verified", "fetched", "diff-KiB", "lock-ms", "barrier-ms"));
        summary.forEach(System.out::println);
        deck.toFile().delete();
        return allVerified ? 0 : 1;
    }

    private RunCommand.RunSpec spec(final String[] spec)
    {
        final RunCommand.RunSpec run = new RunCommand.RunSpec();
        run.entry = AppCatalog.find(spec[0]);
        run.args = List.of(spec).subList(1, spec.length);
        run.nodes = nodes;
        run.provider = provider.toLowerCase(Locale.ROOT);
        run.pageSize = 4096;
        run.probe = AppArguments.parse(run.entry, run.args);
        run.probe.validate(nodes);
        return run;
    }

    private static String summaryRow(
        final RunCommand.RunSpec run, final double seconds, final boolean verified, final DsmStats total)
    {
        final String check = !verified ? "NO" : run.probe.checksResult() ? "yes" : "unchecked";
        return CFormat.format("%-15s %5d %8.2f %9s %9d %10.1f %10.1f %11.1f", run.entry.name(), run.nodes, seconds,
            check, total.get(Statistic.PAGES_FETCHED), total.get(Statistic.DIFF_BYTES) / 1024.0,
            total.get(Statistic.LOCK_WAIT_NS) / 1e6, total.get(Statistic.BARRIER_WAIT_NS) / 1e6);
    }

    private static Path waterDeck()
    {
        try
        {
            final Path deck = Files.createTempFile("viadsm-water-", ".deck");
            deck.toFile().deleteOnExit();
            Files.writeString(deck, WATER_DECK, StandardCharsets.US_ASCII);
            return deck;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the WATER input deck", ex);
        }
    }
}
