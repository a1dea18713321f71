package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;
import org.viadsm.examples.runtime.CFormat;

/**
 * The statistics a run prints: a table with one row per node and a row of totals, and the same as JSON.
 */
final class StatsReport
{
    private static final String HEADER = CFormat.format("%-6s %7s %9s %9s %9s %8s %8s %10s %9s %8s %9s",
        "node", "homes", "rd-fault", "wr-fault", "fetched", "twins", "diffs", "diff-KiB", "locks l/r", "barriers",
        "messages");
    private static final String TIME_HEADER = CFormat.format(
        "%-6s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s", "ms", "compute", "rd-fault", "wr-fault", "release",
        "lock", "barrier", "bar-last", "semaphore", "cpu", "jit");

    private StatsReport()
    {
    }

    /**
     * Prints the counts, then where each node's time went, one row per node and a row of totals each.
     */
    static void printTable(final PrintStream out, final List<DsmStats> nodes)
    {
        final DsmStats total = DsmStats.total(nodes);
        out.println(HEADER);
        for (final DsmStats stats : nodes)
        {
            out.println(row(String.valueOf(stats.nodeId()), stats));
        }
        out.println(row("total", total));
        out.println(TIME_HEADER);
        for (final DsmStats stats : nodes)
        {
            out.println(timeRow(String.valueOf(stats.nodeId()), stats));
        }
        out.println(timeRow("total", total));
    }

    /**
     * What the statistics cover, as the line above the tables: the program's timed phase (if it marks one) of the
     * run, or the sums over the warm runs.
     */
    static String scope(final DsmStats node0, final int warmRuns)
    {
        final boolean phases = node0.get(Statistic.MEASURED_PHASES) > 0;
        if (0 == warmRuns)
        {
            return phases ? "statistics of the timed phase:" : "statistics of the whole run:";
        }
        return "statistics summed over the " + warmRuns + " warm runs" + (phases ? "' timed phases:" : ":");
    }

    static String row(final String label, final DsmStats s)
    {
        return CFormat.format("%-6s %7d %9d %9d %9d %8d %8d %10.1f %9s %8d %9d",
            label, s.get(Statistic.HOMES), s.get(Statistic.READ_FAULTS), s.get(Statistic.WRITE_FAULTS),
            s.get(Statistic.PAGES_FETCHED), s.get(Statistic.TWINS), s.get(Statistic.DIFFS),
            s.get(Statistic.DIFF_BYTES) / 1024.0,
            s.get(Statistic.LOCK_ACQUIRES_LOCAL) + "/" + s.get(Statistic.LOCK_ACQUIRES_REMOTE),
            s.get(Statistic.BARRIERS), s.get(Statistic.MESSAGES_SENT));
    }

    static String timeRow(final String label, final DsmStats s)
    {
        // the CPU and JIT times are taken in measured phases only: a program that marks none has no figure, not 0
        final boolean phases = s.get(Statistic.MEASURED_PHASES) > 0;
        return CFormat.format("%-6s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10s %10s", label,
            s.get(Statistic.COMPUTE_NS) / 1e6, s.get(Statistic.READ_FAULT_NS) / 1e6,
            s.get(Statistic.WRITE_FAULT_NS) / 1e6, s.get(Statistic.RELEASE_NS) / 1e6,
            s.get(Statistic.LOCK_WAIT_NS) / 1e6, s.get(Statistic.BARRIER_WAIT_NS) / 1e6,
            s.get(Statistic.BARRIER_LAST_NS) / 1e6, s.get(Statistic.SEMAPHORE_WAIT_NS) / 1e6,
            phases ? CFormat.format("%.1f", s.get(Statistic.PHASE_CPU_NS) / 1e6) : "-",
            phases ? CFormat.format("%.1f", s.get(Statistic.PHASE_JIT_NS) / 1e6) : "-");
    }

    static String json(
        final String app, final String provider, final int nodeCount, final double seconds, final long[] runNs,
        final boolean verified, final List<DsmStats> nodes)
    {
        final StringBuilder sb = new StringBuilder("{\"app\":\"").append(app).append("\",\"provider\":\"")
            .append(provider).append("\",\"nodes\":").append(nodeCount).append(",\"time_s\":")
            .append(CFormat.format("%.6f", seconds));
        if (null != runNs)
        {
            sb.append(",\"app_time_s\":").append(CFormat.format("%.6f", runNs[0] / 1e9)).append(",\"app_times_s\":[");
            for (int i = 0; i < runNs.length; i++)
            {
                sb.append(0 == i ? "" : ",").append(CFormat.format("%.6f", runNs[i] / 1e9));
            }
            sb.append(']');
        }
        sb.append(",\"verified\":").append(verified)
            .append(",\"per_node\":[");
        for (int i = 0; i < nodes.size(); i++)
        {
            sb.append(i == 0 ? "" : ",").append(nodes.get(i).toJson());
        }
        return sb.append("],\"total\":").append(DsmStats.total(nodes).toJson()).append("}\n").toString();
    }

    static void writeJson(final Path file, final String json)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (null != parent)
            {
                Files.createDirectories(parent);
            }
            Files.writeString(file, json, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot write statistics to " + file + ": " + ex.getMessage(), ex);
        }
    }
}
