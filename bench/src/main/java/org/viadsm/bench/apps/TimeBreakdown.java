package org.viadsm.bench.apps;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.viadsm.bench.BenchReport;
import org.viadsm.dsm.DsmStats;

/**
 * Where a DSM run's time went, from its nodes' statistics (the whole run of the application, initialization
 * included, not only the phase the program times): milliseconds per node (the mean over the nodes) in
 * computation outside the DSM, read faults (fetches), write faults (twins), releases (diffs), and waits for locks,
 * barriers and semaphores. The categories add up to a node's elapsed time, so a row compares directly with the
 * run's time; waits include the imbalance between nodes (a node that computes longer makes the others wait at the
 * next barrier). Homes (pages homed at each node) show the placement.
 */
final class TimeBreakdown
{
    /** The categories, in stacking order, with the statistics they come from. */
    static final List<Category> CATEGORIES = List.of(
        new Category("compute", "compute_ns"),
        new Category("read fault", "read_fault_ns"),
        new Category("write fault", "write_fault_ns"),
        new Category("release", "release_ns"),
        new Category("lock wait", "lock_wait_ns"),
        new Category("barrier wait", "barrier_wait_ns"),
        new Category("semaphore wait", "semaphore_wait_ns"));

    private static final String HOMES = "homes";
    private static final String FORMAT = "%-15s %3s %9s %9s %9s %9s %9s %9s %9s  %s";

    private TimeBreakdown()
    {
    }

    /**
     * Milliseconds per category, the mean over the nodes.
     *
     * @param nodes every node's statistics.
     * @return one figure per {@link #CATEGORIES} entry, NaN where the statistics lack it.
     */
    static double[] meanMs(final List<DsmStats> nodes)
    {
        final double[] ms = new double[CATEGORIES.size()];
        for (final DsmStats stats : nodes)
        {
            final Map<String, Long> values = stats.asMap();
            for (int i = 0; i < ms.length; i++)
            {
                final Long ns = values.get(CATEGORIES.get(i).key);
                ms[i] += null == ns ? Double.NaN : ns / 1e6 / nodes.size();
            }
        }
        if (nodes.isEmpty())
        {
            Arrays.fill(ms, Double.NaN);
        }
        return ms;
    }

    /**
     * Pages homed at each node.
     *
     * @param nodes every node's statistics.
     * @return e.g. {@code 128/128}, or {@code -} if the statistics lack them.
     */
    static String homes(final List<DsmStats> nodes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final DsmStats stats : nodes)
        {
            final Long homes = stats.asMap().get(HOMES);
            if (null == homes)
            {
                return "-";
            }
            sb.append(sb.length() > 0 ? "/" : "").append(homes);
        }
        return sb.toString();
    }

    /**
     * Prints one row per DSM run.
     *
     * @param out  where.
     * @param rows the report's rows; those without DSM statistics are skipped.
     * @param runs which runs the statistics are of, for the heading.
     */
    static void printTable(final PrintStream out, final List<AppMeasurement> rows, final String runs)
    {
        out.println("Where the time went, DSM runs (" + runs + ", initialization included): ms per node, mean " +
            "over the nodes; homes = pages homed at each node");
        out.println(String.format(Locale.ROOT, FORMAT, "app", "N", "compute", "rd-fault", "wr-fault", "release",
            "lock", "barrier", "semaphore", "homes"));
        for (final AppMeasurement row : rows)
        {
            if (null == row.perNode)
            {
                continue;
            }
            final double[] ms = meanMs(row.perNode);
            out.println(String.format(Locale.ROOT, FORMAT, row.app, row.nodes, BenchReport.figure(ms[0]),
                BenchReport.figure(ms[1]), BenchReport.figure(ms[2]), BenchReport.figure(ms[3]),
                BenchReport.figure(ms[4]), BenchReport.figure(ms[5]), BenchReport.figure(ms[6]), homes(row.perNode)));
        }
    }

    /**
     * The breakdown as JSON members: {@code "breakdown_ms":{"compute":1.5,...},"homes":[128,128]}, or nulls for
     * a run without DSM statistics.
     *
     * @param nodes every node's statistics, or null.
     * @return the members, without braces.
     */
    static String json(final List<DsmStats> nodes)
    {
        if (null == nodes)
        {
            return "\"breakdown_ms\":null,\"homes\":null";
        }
        final StringBuilder sb = new StringBuilder("\"breakdown_ms\":{");
        final double[] ms = meanMs(nodes);
        for (int i = 0; i < ms.length; i++)
        {
            sb.append(0 == i ? "" : ",").append(BenchReport.quote(CATEGORIES.get(i).key.replace("_ns", "")))
                .append(':').append(BenchReport.number(ms[i]));
        }
        sb.append("},\"homes\":[");
        for (int i = 0; i < nodes.size(); i++)
        {
            final Map<String, Long> stats = nodes.get(i).asMap();
            sb.append(0 == i ? "" : ",").append(stats.containsKey(HOMES) ? stats.get(HOMES).toString() : "null");
        }
        return sb.append(']').toString();
    }

    /** A category of the breakdown: its label and the statistic (ns per node) it comes from. */
    static final class Category
    {
        final String label;
        final String key;

        Category(final String label, final String key)
        {
            this.label = label;
            this.key = key;
        }
    }
}
