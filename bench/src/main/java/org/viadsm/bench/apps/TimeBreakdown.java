package org.viadsm.bench.apps;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.viadsm.bench.BenchReport;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;

/**
 * Where a DSM run's time went, from its nodes' statistics over the phase the program times (each node from where
 * its part of the timed phase begins to where it ends; the whole run for the WATER programs, whose time is the
 * run's): milliseconds in computation outside the DSM, read faults
 * (fetches), write faults (twins), releases (diffs), and waits for locks, barriers and semaphores. The categories
 * add up to a node's elapsed time, so a node's row compares directly with the run's time; waits include the
 * imbalance between nodes (a node that computes longer makes the others wait at the next barrier). Homes (pages
 * homed at each node) show the placement.
 */
final class TimeBreakdown
{
    /** The categories, in stacking order. */
    static final List<Category> CATEGORIES = List.of(
        new Category("compute", Statistic.COMPUTE_NS),
        new Category("read fault", Statistic.READ_FAULT_NS),
        new Category("write fault", Statistic.WRITE_FAULT_NS),
        new Category("release", Statistic.RELEASE_NS),
        new Category("lock wait", Statistic.LOCK_WAIT_NS),
        new Category("barrier wait", Statistic.BARRIER_WAIT_NS),
        new Category("semaphore wait", Statistic.SEMAPHORE_WAIT_NS));

    private static final String FORMAT = "%-15s %3s %5s %9s %9s %9s %9s %9s %9s %9s %7s %9s %9s";

    private TimeBreakdown()
    {
    }

    /**
     * One node's milliseconds per category.
     *
     * @param stats the node's statistics.
     * @return one figure per {@link #CATEGORIES} entry.
     */
    static double[] ms(final DsmStats stats)
    {
        final double[] ms = new double[CATEGORIES.size()];
        for (int i = 0; i < ms.length; i++)
        {
            ms[i] = stats.get(CATEGORIES.get(i).statistic) / 1e6;
        }
        return ms;
    }

    /**
     * Milliseconds per category, the mean over the nodes: one node's share of the run, for the stacked bars.
     *
     * @param nodes every node's statistics, at least one.
     * @return one figure per {@link #CATEGORIES} entry.
     */
    static double[] meanMs(final List<DsmStats> nodes)
    {
        final double[] mean = ms(DsmStats.total(nodes));
        for (int i = 0; i < mean.length; i++)
        {
            mean[i] /= nodes.size();
        }
        return mean;
    }

    /**
     * Prints, for every DSM run, one row per node and a row of the mean over its nodes.
     *
     * @param out  where.
     * @param rows the report's rows; those without DSM statistics are skipped.
     * @param runs which runs the statistics are of, for the heading.
     */
    static void printTable(final PrintStream out, final List<AppMeasurement> rows, final String runs)
    {
        out.println("Where the time went, DSM runs (the program's timed phase, " + runs + "; WATER: the whole run): " +
            "ms per node; homes = pages homed at the node; cpu = CPU time of the node's thread in the timed phase; " +
            "jit = CPU time of its JVM's compiler threads in it (both - for WATER, which marks no timed phase)");
        out.println(String.format(Locale.ROOT, FORMAT, "app", "N", "node", "compute", "rd-fault", "wr-fault",
            "release", "lock", "barrier", "semaphore", "homes", "cpu", "jit"));
        for (final AppMeasurement row : rows)
        {
            if (null == row.perNode || row.perNode.isEmpty())
            {
                continue;
            }
            for (final DsmStats stats : row.perNode)
            {
                out.println(line(row, Integer.toString(stats.nodeId()), ms(stats),
                    Long.toString(stats.get(Statistic.HOMES)), phaseMs(stats, Statistic.PHASE_CPU_NS, 1),
                    phaseMs(stats, Statistic.PHASE_JIT_NS, 1)));
            }
            final DsmStats total = DsmStats.total(row.perNode);
            out.println(line(row, "mean", meanMs(row.perNode), "",
                phaseMs(total, Statistic.PHASE_CPU_NS, row.perNode.size()),
                phaseMs(total, Statistic.PHASE_JIT_NS, row.perNode.size())));
        }
    }

    /**
     * A statistic taken in measured phases only ({@link Statistic#PHASE_CPU_NS}, {@link Statistic#PHASE_JIT_NS}),
     * in ms: not measured (NaN, printed {@code -}, as {@code viadsm run} prints it) for a program that marks no
     * phase, such as the WATER programs, whose statistics then hold 0 for it.
     */
    private static double phaseMs(final DsmStats stats, final Statistic statistic, final int nodes)
    {
        return 0 == stats.get(Statistic.MEASURED_PHASES) ? Double.NaN : stats.get(statistic) / 1e6 / nodes;
    }

    private static String line(
        final AppMeasurement row, final String node, final double[] ms, final String homes, final double cpuMs,
        final double jitMs)
    {
        return String.format(Locale.ROOT, FORMAT, row.app, row.nodes, node, BenchReport.figure(ms[0]),
            BenchReport.figure(ms[1]), BenchReport.figure(ms[2]), BenchReport.figure(ms[3]),
            BenchReport.figure(ms[4]), BenchReport.figure(ms[5]), BenchReport.figure(ms[6]), homes,
            BenchReport.figure(cpuMs), BenchReport.figure(jitMs));
    }

    /**
     * The breakdown as JSON members: the mean over the nodes ({@code "breakdown_ms":{"compute":1.5,...}}), each
     * node's ({@code "node_breakdown_ms":[{"node":0,"compute":1.2,...},...]}), the homes
     * ({@code "homes":[128,128]}) and each node's CPU and compiler time in the timed phase, as the table's
     * {@code cpu} and {@code jit} columns ({@code "cpu_ms":[14.5,13.9],"jit_ms":[20.1,22.4]}, null for a node whose
     * program marks no phase), or nulls for a run without DSM statistics.
     *
     * @param nodes every node's statistics, or null.
     * @return the members, without braces.
     */
    static String json(final List<DsmStats> nodes)
    {
        if (null == nodes || nodes.isEmpty())
        {
            return "\"breakdown_ms\":null,\"node_breakdown_ms\":null,\"homes\":null,\"cpu_ms\":null," +
                "\"jit_ms\":null";
        }
        final StringBuilder sb = new StringBuilder("\"breakdown_ms\":{");
        categories(sb, meanMs(nodes)).append("},\"node_breakdown_ms\":[");
        for (int i = 0; i < nodes.size(); i++)
        {
            sb.append(0 == i ? "{\"node\":" : ",{\"node\":").append(nodes.get(i).nodeId()).append(',');
            categories(sb, ms(nodes.get(i))).append('}');
        }
        sb.append("],\"homes\":[");
        for (int i = 0; i < nodes.size(); i++)
        {
            sb.append(0 == i ? "" : ",").append(nodes.get(i).get(Statistic.HOMES));
        }
        return perNode(perNode(sb.append(']'), "cpu_ms", nodes, Statistic.PHASE_CPU_NS), "jit_ms", nodes,
            Statistic.PHASE_JIT_NS).toString();
    }

    private static StringBuilder perNode(
        final StringBuilder sb, final String key, final List<DsmStats> nodes, final Statistic statistic)
    {
        sb.append(",\"").append(key).append("\":[");
        for (int i = 0; i < nodes.size(); i++)
        {
            sb.append(0 == i ? "" : ",").append(BenchReport.number(phaseMs(nodes.get(i), statistic, 1)));
        }
        return sb.append(']');
    }

    private static StringBuilder categories(final StringBuilder sb, final double[] ms)
    {
        for (int i = 0; i < ms.length; i++)
        {
            sb.append(0 == i ? "" : ",").append(BenchReport.quote(CATEGORIES.get(i).key()))
                .append(':').append(BenchReport.number(ms[i]));
        }
        return sb;
    }

    /**
     * A category of the breakdown: its label and the statistic (ns per node) it comes from.
     *
     * @param label     the label in the plot's legend.
     * @param statistic the statistic.
     */
    record Category(String label, Statistic statistic)
    {
        /**
         * The category's name in the JSON: the statistic's label without its unit.
         *
         * @return e.g. {@code read_fault}.
         */
        String key()
        {
            return statistic.label().replace("_ns", "");
        }
    }
}
