package org.viadsm.bench.dsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.viadsm.bench.BenchOptions;
import org.viadsm.bench.BenchReport;
import org.viadsm.bench.BenchRow;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.examples.cli.NodeSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code viadsm bench dsm}: the shared memory's operations against raw baselines measured between the same node
 * processes, in the same run. Each cluster is a {@link ProcessCluster} of {@link DsmBenchNode} processes over the
 * shm provider, or the one {@code --provider} names; node 0 measures and hands its rows back in a file.
 */
@Command(
    name = "dsm",
    mixinStandardHelpOptions = true,
    usageHelpWidth = 120,
    description = {
        "Measures the DSM's own operations against raw baselines taken in the same run, between the same node " +
            "processes (shm).",
        "Prints a table (p50 and p99 of value and baseline, ratio = value / baseline, spread over rounds) and, " +
            "with --json, writes {\"bench\":\"dsm\",\"cores\":N,\"rows\":[{metric,value,unit,baseline," +
            "baseline_name,ratio,bytes_per_op,baseline_bytes_per_op}]} (value and baseline = p50)."},
    footer = {
        "",
        "Rows (node processes over shm, or --provider; node 0 measures; every wait spins ~20 us then parks, except",
        "a barrier's, which first polls for about two wake-ups while the machine has a core for it; see the README):",
        "  dsm.read_miss              2 nodes. First read of an element of a page that is invalid on node 0 and whose",
        "                             home is node 1: fault + RDMA Read of the 4 KiB page + load, pages in order over",
        "                             --cold-mib after an untimed pass. Baseline: copy a cold 4 KiB page node 1 wrote",
        "                             in a /dev/shm file into a cold page of node 0. Target: value <= 1 us.",
        "  dsm.write_release_1word    2 nodes. Node 0 holds lock 0 (which it manages; the acquire is untimed), then",
        "                             timed: write one word of a valid page homed at node 1 (write fault, twin) and",
        "                             unlock (diff, RDMA Write of the word home, write notice, release). Baseline:",
        "                             one 8-byte RDMA Write to node 1 over a VI between the same processes.",
        "  dsm.lock_cached            2 nodes. lock() + unlock() of lock 1 (managed by node 1) while it stays cached",
        "                             at node 0, in batches of 100. Baseline: an uncontended ReentrantLock lock() +",
        "                             unlock(). Target: value <= 0.1 us.",
        "  dsm.lock_remote            2 nodes. Uncontended lock + unlock of lock 1, managed by node 1. Baseline: one",
        "                             remote fetch-and-add round trip to node 1 over a VI. Target: value <= 1 us.",
        "  dsm.barrier_2, barrier_4   2 and 4 nodes. Barrier latency on node 0, back-to-back barriers. Baseline: a",
        "                             sense-reversing counter barrier in a /dev/shm file the same processes map, same",
        "                             spin-then-park waiting. Target for 2 nodes: value <= 1.5 us. With 4 nodes on a",
        "                             2-core machine the processes outnumber the cores: expect parking and wake-ups.",
        "  dsm.sweep_read, sweep_write   1 node. ns per element of a sweep over a valid SharedDoubleArray (every page",
        "                             at home, written once) with element get/set loops, vs the same loop over a",
        "                             double[]. Targets: ratio <= 1.2 (read), <= 1.5 (write).",
        "  dsm.view_sweep_read, view_sweep_write   the same loops over a view of the whole array (read(0, n) and",
        "                             write(0, n), re-wrapped each sweep), vs the double[] loops. Targets: <= 1.10.",
        "  dsm.sweep_read_bulk, sweep_write_bulk   the same sweeps with the bulk get(from, dst, off, len) and set",
        "                             forms in page-sized chunks, vs the plain element loop.",
        "Rounds alternate which side goes first; rows whose rounds differ by more than x1.5 are marked noisy."})
public final class DsmBenchCommand implements Callable<Integer>
{
    private static final long CLUSTER_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(15);

    @Mixin
    private BenchOptions options;

    @Option(names = "--provider", paramLabel = "PROVIDER", defaultValue = "shm",
        description = "The nodes' provider: shm, tcp or ucx (default ${DEFAULT-VALUE}). The baselines stay the " +
            "same: the raw file and, for the VI baselines, a shm VI between the same processes.")
    private String provider;

    @Option(names = "--sweep-kib", paramLabel = "KIB", defaultValue = "512",
        description = "Size of the swept arrays in KiB (default ${DEFAULT-VALUE}: fits in L2, so the loops " +
            "measure the access path rather than memory).")
    private int sweepKib;

    /**
     * Creates the command; picocli sets its options.
     */
    public DsmBenchCommand()
    {
    }

    /**
     * Runs the clusters and publishes the report.
     *
     * @return 0, or 1 if a row or a node failed.
     */
    @Override
    public Integer call()
    {
        options.validate();
        if (!List.of("shm", "tcp", "ucx").contains(provider))
        {
            throw options.usageError("--provider must be shm, tcp or ucx, not '" + provider + "'");
        }
        if (sweepKib < 4 || sweepKib > 1 << 20)
        {
            throw options.usageError("--sweep-kib must be 4..1048576, not " + sweepKib);
        }
        final BenchReport report = new BenchReport("dsm", Runtime.getRuntime().availableProcessors(),
            options.describe() + "; node processes over " + provider + " (2 nodes; 4 for barrier_4; 1 for the sweeps)");
        final List<NodeCase> rows = new ArrayList<>();
        for (final int nodes : DsmCases.CLUSTERS)
        {
            rows.addAll(DsmCases.forCluster(null, nodes, coldLength(), sweepLength()));
        }
        final List<String> selected = new ArrayList<>();
        options.select(rows).forEach((row) -> selected.add(row.metric()));
        boolean failed = false;
        for (final int nodes : DsmCases.CLUSTERS)
        {
            final List<String> metrics = metricsOf(selected, nodes);
            if (!metrics.isEmpty())
            {
                failed |= !runCluster(nodes, metrics, report);
            }
        }
        options.publish(report, System.out);
        return failed ? 1 : 0;
    }

    private List<String> metricsOf(final List<String> selected, final int nodes)
    {
        final List<String> metrics = new ArrayList<>();
        for (final NodeCase benchCase : DsmCases.forCluster(null, nodes, coldLength(), sweepLength()))
        {
            if (selected.contains(benchCase.metric()))
            {
                metrics.add(benchCase.metric());
            }
        }
        return metrics;
    }

    private int coldLength()
    {
        return options.coldBytes();
    }

    private int sweepLength()
    {
        return (sweepKib << 10) / Double.BYTES;
    }

    private boolean runCluster(final int nodes, final List<String> metrics, final BenchReport report)
    {
        final Path dir = tempDirectory();
        final Path results = dir.resolve("rows.tsv");
        final List<String> args = List.of("cluster=db" + ProcessHandle.current().pid() + "n" + nodes,
            "rounds=" + options.rounds(), "warmup=" + options.warmup(), "iterations=" + options.iterations(),
            "budget-ms=" + options.budgetNs() / 1_000_000, "cold-bytes=" + (2 == nodes ? coldLength() : 0),
            "sweep-length=" + sweepLength(), "results=" + results, "metrics=" + String.join(",", metrics));
        System.err.println("bench dsm: starting " + nodes + " node process(es) for " + metrics);
        String failure = null;
        final List<String> jvmOptions = nodeJvmOptions(System.getenv(NodeSettings.EXTRA_OPTIONS_ENV));
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, nodes),
            DsmBenchNode.class.getName(), args, List.of(), jvmOptions,
            Map.of("VIADSM_SYNC_TIMEOUT_MS", "120000"), null, System.err))
        {
            final int[] codes = cluster.await(CLUSTER_TIMEOUT_NS);
            for (int node = 0; node < codes.length && null == failure; node++)
            {
                if (0 != codes[node])
                {
                    failure = "node " + node + " exited with " + codes[node] + ": " +
                        lastLine(cluster.errorOutput(node));
                }
            }
        }
        catch (final RuntimeException ex)
        {
            failure = ex.toString();
        }
        final List<BenchRow> rows = Files.exists(results) ? RowFile.read(results) : List.of();
        for (final String metric : metrics)
        {
            report.add(find(rows, metric, nodes, failure));
        }
        results.toFile().delete();
        dir.toFile().delete();
        if (null != failure)
        {
            System.err.println("bench dsm: " + failure);
        }
        return null == failure;
    }

    /**
     * The node JVMs' options: the serial collector and a bounded heap, then the user's extra options from
     * {@code VIADSM_NODE_JAVA_OPTS} (last, so that they win), e.g. to profile the nodes.
     *
     * @param extra the extra options separated by white space; null or blank for none.
     * @return the options.
     */
    static List<String> nodeJvmOptions(final String extra)
    {
        final List<String> options = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xmx512m"));
        options.addAll(NodeSettings.extraOptions(extra));
        return options;
    }

    private BenchRow find(final List<BenchRow> rows, final String metric, final int nodes, final String failure)
    {
        for (final BenchRow row : rows)
        {
            if (row.metric().equals(metric))
            {
                return row;
            }
        }
        for (final NodeCase benchCase : DsmCases.forCluster(null, nodes, coldLength(), sweepLength()))
        {
            if (benchCase.metric().equals(metric))
            {
                return BenchRow.unavailable(metric, benchCase.unit(), benchCase.baselineName(), benchCase.target(),
                    null == failure ? "not measured" : failure);
            }
        }
        throw new IllegalStateException("unknown metric " + metric);
    }

    private static String lastLine(final String text)
    {
        final String[] lines = text.strip().split("\\R");
        return lines[lines.length - 1];
    }

    private static Path tempDirectory()
    {
        try
        {
            return Files.createTempDirectory("viadsm-bench-dsm-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary directory", ex);
        }
    }
}
