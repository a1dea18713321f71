package org.viadsm.bench.dsm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.bench.ReportJson;
import org.viadsm.examples.cli.ViadsmCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A smoke test: every row runs a few operations on real node processes; no timing is asserted, only that each row
 * measured something positive against a positive baseline.
 */
class DsmBenchCommandTest
{
    private static final List<String> METRICS = List.of("dsm.read_miss", "dsm.write_release_1word",
        "dsm.lock_cached", "dsm.lock_remote", "dsm.barrier_2", "dsm.barrier_4", "dsm.sweep_read", "dsm.sweep_write",
        "dsm.view_sweep_read", "dsm.view_sweep_write", "dsm.sweep_read_bulk", "dsm.sweep_write_bulk");

    @Test
    @Timeout(240)
    void shouldMeasureEveryRowAndWriteTheJson(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("dsm.json");
        final int exitCode = ViadsmCommand.execute("bench", "dsm", "--iterations", "200", "--warmup", "50",
            "--rounds", "2", "--cold-mib", "1", "--sweep-kib", "16", "--json", json.toString());
        assertEquals(0, exitCode);

        final String text = new String(Files.readAllBytes(json), StandardCharsets.UTF_8);
        final List<String> metrics = new ArrayList<>();
        for (final String[] row : ReportJson.rows("dsm", text))
        {
            metrics.add(row[0]);
            assertTrue(Double.parseDouble(row[1]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[3]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[5]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[6]) >= 0 && Double.parseDouble(row[7]) >= 0, String.join(" ", row));
            assertTrue(row[2].equals("us") || row[2].equals("ns"), String.join(" ", row));
        }
        assertEquals(METRICS, metrics);
    }

    @Test
    @Timeout(120)
    void shouldRunOnlyTheSelectedRows(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("dsm.json");
        assertEquals(0, ViadsmCommand.execute("bench", "dsm", "--only", "sweep_read", "--iterations", "100",
            "--warmup", "0", "--rounds", "1", "--sweep-kib", "8", "--json", json.toString()));

        final List<String> metrics = new ArrayList<>();
        for (final String[] row : ReportJson.rows("dsm", Files.readString(json, StandardCharsets.UTF_8)))
        {
            metrics.add(row[0]);
        }
        assertEquals(List.of("dsm.sweep_read", "dsm.view_sweep_read", "dsm.sweep_read_bulk"), metrics);
    }

    @Test
    void shouldAppendTheUsersNodeOptionsLast()
    {
        final List<String> own = List.of("-XX:+UseSerialGC", "-Xmx512m");
        assertEquals(own, DsmBenchCommand.nodeJvmOptions(null));
        assertEquals(own, DsmBenchCommand.nodeJvmOptions(" \t"));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xmx512m", "-Xmx1g", "-Dviadsm.x=1"),
            DsmBenchCommand.nodeJvmOptions(" -Xmx1g \t -Dviadsm.x=1\n"));
    }
}
