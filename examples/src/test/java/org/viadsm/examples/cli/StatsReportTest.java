package org.viadsm.examples.cli;

import org.junit.jupiter.api.Test;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The time table's rows: the CPU and JIT columns have a figure only where the program marked measured phases.
 */
class StatsReportTest
{
    @Test
    void shouldShowNoCpuOrJitFigureWithoutAMeasuredPhase()
    {
        assertEquals("0             2.0        0.0        0.0        0.0        0.0        0.0        0.0        0.0" +
            "          -          -", StatsReport.timeRow("0", stats(0)));
    }

    @Test
    void shouldShowTheCpuAndJitOfTheMeasuredPhases()
    {
        assertEquals("total         2.0        0.0        0.0        0.0        0.0        0.0        0.0        0.0" +
            "        1.5        0.3", StatsReport.timeRow("total", stats(2)));
    }

    private static DsmStats stats(final int measuredPhases)
    {
        final StringBuilder json = new StringBuilder("{\"node\":0");
        for (final Statistic statistic : Statistic.values())
        {
            final long value;
            switch (statistic)
            {
                case COMPUTE_NS:
                    value = 2_000_000;
                    break;
                case MEASURED_PHASES:
                    value = measuredPhases;
                    break;
                case PHASE_CPU_NS:
                    value = 1_500_000;
                    break;
                case PHASE_JIT_NS:
                    value = 300_000;
                    break;
                default:
                    value = 0;
                    break;
            }
            json.append(",\"").append(statistic.label()).append("\":").append(value);
        }
        return DsmStats.fromJson(json.append('}').toString());
    }
}
