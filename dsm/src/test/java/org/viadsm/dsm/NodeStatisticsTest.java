package org.viadsm.dsm;

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
}
