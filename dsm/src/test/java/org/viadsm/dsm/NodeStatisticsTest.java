package org.viadsm.dsm;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.page.SharedSpace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A node's statistics: counters zeroed by a reset, a clock that stops at close, and the JSON line left in the
 * statistics file (or a message on standard error, never an exception, if it cannot be written).
 */
class NodeStatisticsTest
{
    @Test
    void shouldCountFromTheResetAndStopTheClockAtClose(@TempDir final Path dir) throws Exception
    {
        final Counters counters = new Counters();
        final NodeStatistics statistics = new NodeStatistics(2, new SharedSpace(), counters);
        counters.add(Counter.READ_FAULTS, 5);
        statistics.reset();
        counters.add(Counter.READ_FAULTS, 3);
        statistics.stop(System.nanoTime());
        final DsmStats first = statistics.snapshot();
        assertEquals(2, first.nodeId());
        assertEquals(3, first.get(Statistic.READ_FAULTS));
        assertEquals(0, first.get(Statistic.HOMES));
        assertEquals(first.get(Statistic.COMPUTE_NS), statistics.snapshot().get(Statistic.COMPUTE_NS));

        final Path file = dir.resolve("stats.json");
        statistics.write(file);
        final String json = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(json.endsWith(System.lineSeparator()), json);
        assertEquals(first.asMap(), DsmStats.fromJson(json.strip()).asMap());

        statistics.write(dir.resolve("missing").resolve("stats.json"));
        statistics.write(null);
    }

    @Test
    void shouldSumTheMeasuredPhasesOnly()
    {
        final Counters counters = new Counters();
        final NodeStatistics statistics = new NodeStatistics(0, new SharedSpace(), counters);
        statistics.reset();
        counters.add(Counter.READ_FAULTS, 5);
        assertEquals(0, statistics.snapshot().get(Statistic.MEASURED_PHASES));
        statistics.beginPhase();
        counters.add(Counter.READ_FAULTS, 3);
        assertEquals(3, statistics.snapshot().get(Statistic.READ_FAULTS), "a phase under way counts up to now");
        statistics.endPhase();
        counters.add(Counter.READ_FAULTS, 100);
        counters.add(Counter.BARRIERS, 7);
        statistics.endPhase();
        statistics.beginPhase();
        counters.add(Counter.READ_FAULTS, 4);
        counters.add(Counter.BARRIERS, 1);
        statistics.beginPhase();
        counters.add(Counter.READ_FAULTS, 2);
        statistics.endPhase();
        counters.add(Counter.READ_FAULTS, 1000);
        final DsmStats measured = statistics.snapshot();
        assertEquals(3, measured.get(Statistic.MEASURED_PHASES), measured.toString());
        assertEquals(3 + 4 + 2, measured.get(Statistic.READ_FAULTS), measured.toString());
        assertEquals(1, measured.get(Statistic.BARRIERS), measured.toString());
        assertEquals(measured.asMap(), statistics.snapshot().asMap(), "no phase under way: nothing moves");

        statistics.reset();
        counters.add(Counter.READ_FAULTS, 6);
        final DsmStats whole = statistics.snapshot();
        assertEquals(0, whole.get(Statistic.MEASURED_PHASES), whole.toString());
        assertEquals(0, whole.get(Statistic.PHASE_CPU_NS), "CPU time is measured in phases only: " + whole);
        assertEquals(6, whole.get(Statistic.READ_FAULTS), whole.toString());
    }

    @Test
    void shouldSumTheJvmsCompilationTimeInTheMeasuredPhasesOnly()
    {
        final long[] compilationNs = {1_000};
        final NodeStatistics statistics =
            new NodeStatistics(0, new SharedSpace(), new Counters(), () -> compilationNs[0]);
        statistics.reset();
        compilationNs[0] += 50;
        assertEquals(0, statistics.snapshot().get(Statistic.PHASE_JIT_NS), "no phase yet: the whole run counts none");
        statistics.beginPhase();
        compilationNs[0] += 300;
        assertEquals(300, statistics.snapshot().get(Statistic.PHASE_JIT_NS), "a phase under way counts up to now");
        statistics.endPhase();
        compilationNs[0] += 7_000;
        statistics.beginPhase();
        compilationNs[0] += 20;
        statistics.beginPhase();
        compilationNs[0] += 4;
        statistics.endPhase();
        compilationNs[0] += 9_000;
        final DsmStats measured = statistics.snapshot();
        assertEquals(3, measured.get(Statistic.MEASURED_PHASES), measured.toString());
        assertEquals(300 + 20 + 4, measured.get(Statistic.PHASE_JIT_NS), measured.toString());
        assertEquals(measured.asMap(), DsmStats.fromJson(measured.toJson()).asMap());

        statistics.reset();
        compilationNs[0] += 5;
        assertEquals(0, statistics.snapshot().get(Statistic.PHASE_JIT_NS), "a reset forgets the phases");
    }

    @Test
    void shouldReadTheJvmsCompilationTimeInNanoseconds()
    {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        assumeTrue(null != jit && jit.isCompilationTimeMonitoringSupported(), "this JVM does not time its JIT");
        final long beforeMs = jit.getTotalCompilationTime();
        final long ns = NodeStatistics.jvmCompilationNs();
        final long afterMs = jit.getTotalCompilationTime();
        assertTrue(beforeMs * 1_000_000L <= ns && ns <= afterMs * 1_000_000L, ns + " ns, " + beforeMs + " ms");
        assertEquals(0, ns % 1_000_000L, "the JVM times its compilations in whole milliseconds: " + ns);
    }

    @Test
    void shouldCountTheCpuTimeOfTheThreadThatMarksThePhasesWhoeverReadsIt() throws Exception
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadCpuTimeSupported(), "this JVM measures no thread CPU time");
        final Counters counters = new Counters();
        final NodeStatistics statistics = new NodeStatistics(0, new SharedSpace(), counters);
        statistics.reset();
        final long[] spentNs = new long[1];
        final Thread member = new Thread(() ->
        {
            statistics.beginPhase();
            final long beginNs = threads.getCurrentThreadCpuTime();
            while (threads.getCurrentThreadCpuTime() - beginNs < 20_000_000L)
            {
                Thread.onSpinWait();
            }
            spentNs[0] = threads.getCurrentThreadCpuTime() - beginNs;
            statistics.endPhase();
        });
        member.start();
        member.join();
        final DsmStats measured = statistics.snapshot();
        assertEquals(1, measured.get(Statistic.MEASURED_PHASES), measured.toString());
        assertTrue(measured.get(Statistic.PHASE_CPU_NS) >= spentNs[0], measured + " against " + spentNs[0]);
    }
}
