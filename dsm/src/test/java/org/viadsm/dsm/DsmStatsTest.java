package org.viadsm.dsm;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.consistency.Counter;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class DsmStatsTest
{
    @Test
    void shouldReportEveryProtocolCounterUnderItsOwnName()
    {
        for (final Counter counter : Counter.values())
        {
            assertEquals(counter.name(), Statistic.valueOf(counter.name()).name());
        }
        assertEquals(Counter.values().length + 5, Statistic.values().length,
            "plus compute_ns, homes, measured_phases, phase_cpu_ns and phase_jit_ns");
    }

    @Test
    void shouldCountHomesAndSplitTheTimeIntoWhereItWent()
    {
        final long[] elapsedNs = new long[2];
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final long startNs = System.nanoTime();
            final SharedDoubleArray data = dsm.allocDoubles("data", 4 * 512, Placement.onNode(1));
            final SharedLongArray parts = dsm.allocLongs("parts", 3 * 512, Placement.byElement(i -> i < 512 ? 0 : 1));
            if (0 == dsm.nodeId())
            {
                data.set(7, 7.0);
            }
            dsm.barrier();
            double sum = 0;
            for (int i = 0; i < data.length(); i += 512)
            {
                sum += data.get(i) + parts.get(i / 2);
            }
            assertEquals(0.0, sum);
            assertEquals(7.0, data.get(7));
            dsm.lock(3).lock();
            dsm.lock(3).unlock();
            dsm.barrier();
            elapsedNs[dsm.nodeId()] = System.nanoTime() - startNs;
        });
        assertEquals(1, stats.get(0).get(Statistic.HOMES), "the first page of parts");
        assertEquals(4 + 2, stats.get(1).get(Statistic.HOMES), "data and the rest of parts");
        final DsmStats reader = stats.get(0);
        assertEquals(3 + 1 + 1, reader.get(Statistic.READ_FAULTS),
            "data's last pages, one of parts, and data's first page again (written unread, so its copy was dropped " +
            "at the barrier): " + reader);
        assertEquals(1, reader.get(Statistic.WRITE_FAULTS), reader.toString());
        assertTrue(reader.get(Statistic.READ_FAULT_NS) > 0, reader.toString());
        assertTrue(reader.get(Statistic.WRITE_FAULT_NS) > 0, "the twin of data's first page: " + reader);
        assertTrue(reader.get(Statistic.RELEASE_NS) > 0, "its diff went home: " + reader);
        assertTrue(reader.get(Statistic.BARRIER_WAIT_NS) > 0, reader.toString());
        for (final DsmStats node : stats)
        {
            long parts = node.get(Statistic.COMPUTE_NS);
            for (final Statistic time : new Statistic[] {Statistic.READ_FAULT_NS, Statistic.WRITE_FAULT_NS,
                Statistic.RELEASE_NS, Statistic.LOCK_WAIT_NS, Statistic.BARRIER_WAIT_NS, Statistic.SEMAPHORE_WAIT_NS})
            {
                parts += node.get(time);
            }
            assertTrue(node.get(Statistic.COMPUTE_NS) > 0, node.toString());
            assertTrue(parts >= elapsedNs[node.nodeId()], "the parts cover the program's time: " + node);
        }
        final DsmStats parsed = DsmStats.fromJson(reader.toJson());
        assertEquals(reader.asMap(), parsed.asMap());
        assertTrue(reader.toJson().contains("\"compute_ns\":") && reader.toJson().contains("\"homes\":"),
            reader.toJson());
    }

    @Test
    void shouldCountOnlyTheMeasuredPhases()
    {
        final int pageDoubles = 512;
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedDoubleArray data = dsm.allocDoubles("phased", 10 * pageDoubles, Placement.onNode(1));
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                // Outside any phase: 3 read faults, 2 barriers.
                for (int page = 0; page < 3; page++)
                {
                    assertEquals(0.0, data.get(page * pageDoubles));
                }
            }
            dsm.barrier();
            dsm.beginMeasuredPhase();
            if (0 == dsm.nodeId())
            {
                for (int page = 3; page < 5; page++)
                {
                    assertEquals(0.0, data.get(page * pageDoubles));
                }
                data.set(0, 1.0);
            }
            dsm.barrier();
            dsm.endMeasuredPhase();
            if (0 == dsm.nodeId())
            {
                // Between the phases: not counted.
                for (int page = 5; page < 9; page++)
                {
                    assertEquals(0.0, data.get(page * pageDoubles));
                }
            }
            dsm.barrier();
            dsm.beginMeasuredPhase();
            if (0 == dsm.nodeId())
            {
                assertEquals(0.0, data.get(9 * pageDoubles));
            }
            dsm.barrier();
            dsm.endMeasuredPhase();
            dsm.barrier();
        });
        final DsmStats reader = stats.get(0);
        assertEquals(2, reader.get(Statistic.MEASURED_PHASES), reader.toString());
        assertTrue(reader.get(Statistic.PHASE_CPU_NS) > 0, "the node's thread ran in its phases: " + reader);
        assertEquals(2 + 1, reader.get(Statistic.READ_FAULTS), "pages 3, 4 and 9: " + reader);
        assertEquals(2 + 1, reader.get(Statistic.PAGES_FETCHED), reader.toString());
        assertEquals(1, reader.get(Statistic.WRITE_FAULTS), reader.toString());
        assertEquals(1, reader.get(Statistic.DIFFS), "page 0's diff, at the phase's barrier: " + reader);
        assertEquals(2, reader.get(Statistic.BARRIERS), "one per phase: " + reader);
        assertEquals(10, reader.get(Statistic.HOMES) + stats.get(1).get(Statistic.HOMES), "homes are not counted");
        assertEquals(2, stats.get(1).get(Statistic.BARRIERS), stats.get(1).toString());
        assertEquals(0, stats.get(1).get(Statistic.READ_FAULTS), stats.get(1).toString());
        final DsmStats perRun = reader.perRun(2);
        assertEquals(1, perRun.get(Statistic.READ_FAULTS), perRun.toString());
        assertEquals(1, perRun.get(Statistic.BARRIERS), perRun.toString());
        assertEquals(1, perRun.get(Statistic.MEASURED_PHASES), perRun.toString());
        assertEquals(reader.get(Statistic.HOMES), perRun.get(Statistic.HOMES), perRun.toString());
    }

    @Test
    void shouldTakeNoWriteFaultOnANodeAlone()
    {
        final int n = 8 * 512;
        final List<DsmStats> stats = LocalCluster.run(1, "jvm", context -> { }, dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("alone", n, Placement.block());
            for (int round = 1; round <= 3; round++)
            {
                for (int i = 0; i < n / 2; i++)
                {
                    a.set(i, round * i);
                }
                final DoubleView w = a.write(n / 2, n, null);
                for (int i = n / 2; i < n; i++)
                {
                    w.set(i, round * i);
                }
                if (2 == round)
                {
                    dsm.lock(0).lock();
                    dsm.lock(0).unlock();
                }
                dsm.barrier();
                for (int i = 0; i < n; i++)
                {
                    assertEquals(round * i, a.get(i));
                }
            }
        });
        final DsmStats alone = stats.get(0);
        assertEquals(0, alone.get(Statistic.WRITE_FAULTS), "a node alone starts its pages writable: " + alone);
        assertEquals(0, alone.get(Statistic.TWINS), alone.toString());
        assertEquals(0, alone.get(Statistic.DIFFS), alone.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldCountOneLastArrivalPerBarrier(final int nodes)
    {
        final int barriers = 25;
        final List<DsmStats> stats = LocalCluster.run(nodes, "jvm", context -> { }, dsm ->
        {
            for (int i = 0; i < barriers; i++)
            {
                dsm.barrier();
            }
        });
        long last = 0;
        for (final DsmStats node : stats)
        {
            assertEquals(barriers, node.get(Statistic.BARRIERS), node.toString());
            assertTrue(node.get(Statistic.BARRIER_LAST_NS) <= node.get(Statistic.BARRIER_WAIT_NS), node.toString());
            assertEquals(0 == node.get(Statistic.BARRIERS_LAST), 0 == node.get(Statistic.BARRIER_LAST_NS),
                node.toString());
            last += node.get(Statistic.BARRIERS_LAST);
        }
        assertEquals(barriers, last, "one node completes each barrier: " + stats);
    }
}
