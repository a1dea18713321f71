package org.viadsm.bench.apps;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.viadsm.bench.BenchReport;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;
import org.viadsm.examples.cli.OutputFileOption;

/**
 * The report of {@code bench apps}: one row per (application, mode, N) with the time, the speedup over the
 * sequential run, for DSM rows the ratio to the threads run with as many members (the sequential run for N = 1),
 * the DSM's statistics summed over the nodes and where the time went ({@link TimeBreakdown}), both over the phase
 * the program times. With warm runs, the time is the median of the warm runs, the statistics the mean over the
 * warm runs, and a second table gives the first (cold) runs' times. A table for people,
 * JSON for tools:
 * <pre>
 * {"bench":"apps","cores":2,"rows":[
 * {"app":"fft","args":"-m14 -t","mode":"dsm","provider":"shm","nodes":2,"time_s":0.5,"warm":3,"cold_s":0.9,
 *  "time_source":"...","app_run_s":0.6,"speedup":0.4,"dsm_vs_threads":2.5,"verified":true,"pages_fetched":10,
 *  "diff_kib":1.5,"lock_wait_ms":0,"barrier_wait_ms":3.2,"messages":40,
 *  "breakdown_ms":{"compute":300,"read_fault":20,...},"node_breakdown_ms":[{"node":0,"compute":310,...},...],
 *  "homes":[64,64],"cpu_ms":[310,305],"jit_ms":[20,24],"error":null}
 * ]}
 * </pre>
 * {@code verified} is true only if every run passed the application's self-check; false if a run failed or its
 * options left the check off (FFT, LU, RADIX and SOR check only with {@code -t}). {@code warm} and {@code cold_s}
 * appear only with warm runs. Figures not measured (a failed run, statistics of a
 * run without DSM) are {@code null}.
 */
final class AppsReport
{
    private static final String FORMAT = "%-15s %-7s %3s %9s %8s %8s %9s %10s %9s %10s %9s  %s";
    private static final String COLD_FORMAT = "%-15s %-7s %3s %9s %8s %8s";

    private final int cores;
    private final String description;
    private final AppInputs inputs;
    private final List<AppMeasurement> rows = new ArrayList<>();

    AppsReport(final int cores, final String description, final AppInputs inputs)
    {
        this.cores = cores;
        this.description = description;
        this.inputs = inputs;
    }

    void add(final AppMeasurement row)
    {
        rows.add(row);
    }

    List<AppMeasurement> rows()
    {
        return Collections.unmodifiableList(rows);
    }

    /**
     * Speedup of a row over the sequential run.
     *
     * @param row the row.
     * @return sequential time / the row's time.
     */
    double speedup(final AppMeasurement row)
    {
        return speedup(row, false);
    }

    /**
     * Speedup of a row over the sequential run, warm or cold.
     *
     * @param row  the row.
     * @param cold compare the first runs rather than the (warm) times.
     * @return sequential time / the row's time.
     */
    double speedup(final AppMeasurement row, final boolean cold)
    {
        return time(row.app, AppMeasurement.SEQ, 1, cold) / row.time(cold);
    }

    /**
     * A DSM row's time over the threads run with as many members (the sequential run for one member).
     *
     * @param row  the row.
     * @param cold compare the first runs rather than the (warm) times.
     * @return the ratio, NaN for other modes or if either is missing.
     */
    double dsmVsThreads(final AppMeasurement row, final boolean cold)
    {
        if (!AppMeasurement.DSM.equals(row.mode))
        {
            return Double.NaN;
        }
        final double threads = 1 == row.nodes ? time(row.app, AppMeasurement.SEQ, 1, cold) :
            time(row.app, AppMeasurement.THREADS, row.nodes, cold);
        return row.time(cold) / threads;
    }

    private double time(final String app, final String mode, final int nodes, final boolean cold)
    {
        for (final AppMeasurement row : rows)
        {
            if (row.app.equals(app) && row.mode.equals(mode) && row.nodes == nodes)
            {
                return row.time(cold);
            }
        }
        return Double.NaN;
    }

    private int warm()
    {
        return rows.isEmpty() ? 0 : rows.get(0).warm;
    }

    void printTable(final PrintStream out)
    {
        out.println("bench apps, " + cores + " cores: " + description);
        final int warm = warm();
        if (warm > 0)
        {
            out.println("Warm: the median of runs 2 to " + (warm + 1) + " in the same JVMs (statistics: the timed " +
                "phase, mean over the warm runs)");
        }
        out.println(String.format(Locale.ROOT, FORMAT, "app", "mode", "N", "time-s", "speedup", "dsm/thr",
            "fetched", "diff-KiB", "lock-ms", "barrier-ms", "messages", "time source"));
        for (final AppMeasurement row : rows)
        {
            final DsmStats s = row.total;
            out.println(String.format(Locale.ROOT, FORMAT, row.app, row.mode, row.nodes, BenchReport.figure(row.timeS),
                BenchReport.figure(speedup(row)), BenchReport.figure(dsmVsThreads(row, false)),
                null == s ? "-" : Long.toString(s.get(Statistic.PAGES_FETCHED)),
                null == s ? "-" : BenchReport.figure(s.get(Statistic.DIFF_BYTES) / 1024.0),
                null == s ? "-" : BenchReport.figure(s.get(Statistic.LOCK_WAIT_NS) / 1e6),
                null == s ? "-" : BenchReport.figure(s.get(Statistic.BARRIER_WAIT_NS) / 1e6),
                null == s ? "-" : Long.toString(s.get(Statistic.MESSAGES_SENT)),
                null != row.error ? "FAILED: " + row.error :
                    AppTime.source(row.app) + (row.verified ? "" : " (result not checked)")));
        }
        out.println();
        if (warm > 0)
        {
            out.println("Cold: the first run, in fresh JVMs (class loading and JIT compilation included)");
            out.println(String.format(Locale.ROOT, COLD_FORMAT, "app", "mode", "N", "cold-s", "speedup", "dsm/thr"));
            for (final AppMeasurement row : rows)
            {
                out.println(String.format(Locale.ROOT, COLD_FORMAT, row.app, row.mode, row.nodes,
                    BenchReport.figure(row.coldS), BenchReport.figure(speedup(row, true)),
                    BenchReport.figure(dsmVsThreads(row, true))));
            }
            out.println();
        }
        TimeBreakdown.printTable(out, rows, warm > 0 ? "mean over the " + warm + " warm runs" : "the run");
        out.println();
        final List<String> seen = new ArrayList<>();
        for (final AppMeasurement row : rows)
        {
            if (!seen.contains(row.app))
            {
                seen.add(row.app);
                out.println("  " + row.app + ": " + inputs.describe(row.app));
            }
        }
    }

    String toJson()
    {
        final StringBuilder sb = new StringBuilder("{\"bench\":\"apps\",\"cores\":").append(cores)
            .append(",\"rows\":[");
        for (int i = 0; i < rows.size(); i++)
        {
            final AppMeasurement row = rows.get(i);
            final DsmStats s = row.total;
            sb.append(0 == i ? "\n" : ",\n")
                .append("{\"app\":").append(BenchReport.quote(row.app))
                .append(",\"args\":").append(BenchReport.quote(inputs.describe(row.app)))
                .append(",\"mode\":").append(BenchReport.quote(row.mode))
                .append(",\"provider\":").append(BenchReport.quote(row.provider))
                .append(",\"nodes\":").append(row.nodes)
                .append(",\"time_s\":").append(BenchReport.number(row.timeS));
            if (row.warm > 0)
            {
                sb.append(",\"warm\":").append(row.warm).append(",\"cold_s\":").append(BenchReport.number(row.coldS));
            }
            sb
                .append(",\"time_source\":").append(BenchReport.quote(AppTime.source(row.app)))
                .append(",\"app_run_s\":").append(BenchReport.number(row.runS))
                .append(",\"speedup\":").append(BenchReport.number(speedup(row)))
                .append(",\"dsm_vs_threads\":").append(BenchReport.number(dsmVsThreads(row, false)))
                .append(",\"verified\":").append(row.verified)
                .append(",\"pages_fetched\":").append(counter(s, Statistic.PAGES_FETCHED, 1))
                .append(",\"diff_kib\":").append(counter(s, Statistic.DIFF_BYTES, 1024))
                .append(",\"lock_wait_ms\":").append(counter(s, Statistic.LOCK_WAIT_NS, 1e6))
                .append(",\"barrier_wait_ms\":").append(counter(s, Statistic.BARRIER_WAIT_NS, 1e6))
                .append(",\"messages\":").append(counter(s, Statistic.MESSAGES_SENT, 1))
                .append(',').append(TimeBreakdown.json(row.perNode))
                .append(",\"error\":").append(null == row.error ? "null" : BenchReport.quote(row.error))
                .append('}');
        }
        return sb.append(rows.isEmpty() ? "" : "\n").append("]}\n").toString();
    }

    void writeJson(final Path file)
    {
        try
        {
            OutputFileOption.createDirectories(file);
            Files.writeString(file, toJson(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static String counter(final DsmStats stats, final Statistic counter, final double divisor)
    {
        return null == stats ? "null" : BenchReport.number(stats.get(counter) / divisor);
    }
}
