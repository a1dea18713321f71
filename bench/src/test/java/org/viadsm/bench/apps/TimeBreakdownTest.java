package org.viadsm.bench.apps;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where the time went: each node's milliseconds per category from its statistics, the mean over the nodes, the
 * table's rows, the JSON members and the stacked bars of the plot, from statistics made up for the purpose.
 */
class TimeBreakdownTest
{
    private static final List<DsmStats> TWO_NODES = List.of(
        stats(0, 1, 100, 10, 4, 2, 0, 20, 0, 96, 50, 7),
        stats(1, 1, 60, 30, 8, 2, 6, 40, 0, 32, 30, 12));

    /** A program that marks no timed phase (the WATER programs): its nodes' statistics hold 0 CPU and JIT time. */
    private static final List<DsmStats> NO_PHASE = List.of(
        stats(0, 0, 900, 5, 1, 3, 0, 40, 0, 64, 0, 0),
        stats(1, 0, 850, 15, 2, 3, 0, 80, 0, 64, 0, 0));

    @Test
    void shouldGiveEachNodesMillisecondsAndTheirMean()
    {
        assertArrayEquals(new double[] {100, 10, 4, 2, 0, 20, 0}, TimeBreakdown.ms(TWO_NODES.get(0)));
        assertArrayEquals(new double[] {60, 30, 8, 2, 6, 40, 0}, TimeBreakdown.ms(TWO_NODES.get(1)));
        assertArrayEquals(new double[] {80, 20, 6, 2, 3, 30, 0}, TimeBreakdown.meanMs(TWO_NODES));
    }

    @Test
    void shouldPrintARowPerNodeAndTheMeanForEveryDsmRun()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TimeBreakdown.printTable(out, List.of(threads(2), dsm(2, TWO_NODES), dsm(1, List.of(TWO_NODES.get(0)))),
            "the whole run");
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().map(String::strip).toList();
        assertEquals(7, lines.size(), String.join("\n", lines));
        assertEquals(List.of("app", "N", "node", "compute", "rd-fault", "wr-fault", "release", "lock", "barrier",
            "semaphore", "homes", "cpu", "jit"), List.of(lines.get(1).split("\\s+")));
        assertEquals(List.of("fft", "2", "0", "100.0", "10.00", "4.000", "2.000", "0.000", "20.00", "0.000", "96",
            "50.00", "7.000"), List.of(lines.get(2).split("\\s+")));
        assertEquals(List.of("fft", "2", "1", "60.00", "30.00", "8.000", "2.000", "6.000", "40.00", "0.000", "32",
            "30.00", "12.00"), List.of(lines.get(3).split("\\s+")));
        assertEquals(List.of("fft", "2", "mean", "80.00", "20.00", "6.000", "2.000", "3.000", "30.00", "0.000",
            "40.00", "9.500"), List.of(lines.get(4).split("\\s+")));
        assertEquals(List.of("fft", "1", "0", "100.0", "10.00", "4.000", "2.000", "0.000", "20.00", "0.000", "96",
            "50.00", "7.000"), List.of(lines.get(5).split("\\s+")));
    }

    @Test
    void shouldPrintNoCpuOrJitTimeForAProgramThatMarksNoTimedPhaseAsRunDoes()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TimeBreakdown.printTable(out, List.of(dsm("water-nsquared", 2, NO_PHASE), dsm(2, TWO_NODES)), "the run");
        final List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of(
            "Where the time went, DSM runs (the program's timed phase, the run; WATER: the whole run): ms per node; " +
                "homes = pages homed at the node; cpu = CPU time of the node's thread in the timed phase; jit = CPU " +
                "time of its JVM's compiler threads in it (both - for WATER, which marks no timed phase)",
            "app               N  node   compute  rd-fault  wr-fault   release      lock   barrier semaphore   homes" +
                "       cpu       jit",
            "water-nsquared    2     0     900.0     5.000     1.000     3.000     0.000     40.00     0.000      64" +
                "         -         -",
            "water-nsquared    2     1     850.0     15.00     2.000     3.000     0.000     80.00     0.000      64" +
                "         -         -",
            "water-nsquared    2  mean     875.0     10.00     1.500     3.000     0.000     60.00     0.000        " +
                "         -         -",
            "fft               2     0     100.0     10.00     4.000     2.000     0.000     20.00     0.000      96" +
                "     50.00     7.000",
            "fft               2     1     60.00     30.00     8.000     2.000     6.000     40.00     0.000      32" +
                "     30.00     12.00",
            "fft               2  mean     80.00     20.00     6.000     2.000     3.000     30.00     0.000        " +
                "     40.00     9.500"), lines);
        assertEquals("\"breakdown_ms\":{\"compute\":875,\"read_fault\":10,\"write_fault\":1.5,\"release\":3," +
            "\"lock_wait\":0,\"barrier_wait\":60,\"semaphore_wait\":0}," +
            "\"node_breakdown_ms\":[{\"node\":0,\"compute\":900,\"read_fault\":5,\"write_fault\":1,\"release\":3," +
            "\"lock_wait\":0,\"barrier_wait\":40,\"semaphore_wait\":0},{\"node\":1,\"compute\":850,\"read_fault\":15," +
            "\"write_fault\":2,\"release\":3,\"lock_wait\":0,\"barrier_wait\":80,\"semaphore_wait\":0}]," +
            "\"homes\":[64,64],\"cpu_ms\":[null,null],\"jit_ms\":[null,null]", TimeBreakdown.json(NO_PHASE),
            "no CPU or JIT time for a program that marks no phase");
    }

    @Test
    void shouldWriteTheMeanEachNodeAndTheHomesAsJson()
    {
        assertEquals("\"breakdown_ms\":{\"compute\":80,\"read_fault\":20,\"write_fault\":6,\"release\":2," +
            "\"lock_wait\":3,\"barrier_wait\":30,\"semaphore_wait\":0}," +
            "\"node_breakdown_ms\":[{\"node\":0,\"compute\":100,\"read_fault\":10,\"write_fault\":4,\"release\":2," +
            "\"lock_wait\":0,\"barrier_wait\":20,\"semaphore_wait\":0},{\"node\":1,\"compute\":60,\"read_fault\":30," +
            "\"write_fault\":8,\"release\":2,\"lock_wait\":6,\"barrier_wait\":40,\"semaphore_wait\":0}]," +
            "\"homes\":[96,32],\"cpu_ms\":[50,30],\"jit_ms\":[7,12]", TimeBreakdown.json(TWO_NODES));
        assertEquals("\"breakdown_ms\":null,\"node_breakdown_ms\":null,\"homes\":null,\"cpu_ms\":null," +
            "\"jit_ms\":null", TimeBreakdown.json(null));
    }

    @Test
    void shouldStackTheMeanOfEveryNodeCountAndLeaveOutCategoriesThatTookNoTime()
    {
        final AppsReport report = new AppsReport(2, "made up", new AppInputs(Path.of("."), false, Map.of()));
        report.add(threads(2));
        report.add(dsm(1, List.of(TWO_NODES.get(0))));
        report.add(dsm(2, TWO_NODES));
        final CategoryChart chart = AppsPlot.breakdown(report, "fft", List.of(1, 2, 4));
        assertEquals(List.of("compute", "read fault", "write fault", "release", "lock wait", "barrier wait"),
            names(chart));
        assertEquals(List.of("1", "2"), List.copyOf(chart.getSeries("compute").getXData()));
        assertArrayEquals(new double[] {100, 80}, chart.getSeries("compute").getYData());
        assertArrayEquals(new double[] {0, 3}, chart.getSeries("lock wait").getYData());
        assertArrayEquals(new double[] {20, 30}, chart.getSeries("barrier wait").getYData());

        final AppsReport none = new AppsReport(2, "made up", new AppInputs(Path.of("."), false, Map.of()));
        none.add(threads(2));
        assertEquals(List.of("no DSM statistics"), names(AppsPlot.breakdown(none, "fft", List.of(2))));
    }

    private static List<String> names(final CategoryChart chart)
    {
        return chart.getSeriesCollection().stream().map(CategorySeries::getName).toList();
    }

    private static AppMeasurement threads(final int members)
    {
        return new AppMeasurement("fft", AppMeasurement.THREADS, "threads", members, 0, 1.0, 1.0, 1.0, true, null,
            null);
    }

    private static AppMeasurement dsm(final int nodes, final List<DsmStats> perNode)
    {
        return dsm("fft", nodes, perNode);
    }

    private static AppMeasurement dsm(final String app, final int nodes, final List<DsmStats> perNode)
    {
        return new AppMeasurement(app, AppMeasurement.DSM, "shm", nodes, 0, 1.0, 1.0, 1.0, true, null, perNode);
    }

    /**
     * A node's statistics over the given number of measured phases, with the given milliseconds per category (in
     * stacking order), homes, the phases' CPU milliseconds and its JVM's compilation milliseconds; other counts 0.
     */
    private static DsmStats stats(final int node, final int phases, final long... msAndHomes)
    {
        final StringBuilder json = new StringBuilder("{\"node\":").append(node);
        for (final Statistic statistic : Statistic.values())
        {
            long value = Statistic.MEASURED_PHASES == statistic ? phases : 0;
            for (int c = 0; c < TimeBreakdown.CATEGORIES.size(); c++)
            {
                value = TimeBreakdown.CATEGORIES.get(c).statistic() == statistic ? msAndHomes[c] * 1_000_000 : value;
            }
            value = Statistic.HOMES == statistic ? msAndHomes[TimeBreakdown.CATEGORIES.size()] : value;
            value = Statistic.PHASE_CPU_NS == statistic ?
                msAndHomes[TimeBreakdown.CATEGORIES.size() + 1] * 1_000_000 : value;
            value = Statistic.PHASE_JIT_NS == statistic ?
                msAndHomes[TimeBreakdown.CATEGORIES.size() + 2] * 1_000_000 : value;
            json.append(",\"").append(statistic.label()).append("\":").append(value);
        }
        return DsmStats.fromJson(json.append('}').toString());
    }
}
