package org.viadsm.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchReportTest
{
    private static final String NAME = "ring \"raw\" \\ ping-pong";

    private static BenchReport report()
    {
        return new BenchReport("via", 2, "test")
            .add(new BenchRow("shm.x_oneway", "ns", NAME, "<= 3",
                new Spread(300, 900, 290, 310, 3), new Spread(100, 200, 95, 105, 3), null, 0, 24.5))
            .add(new BenchRow("shm.y_stream", "GB/s", "memcpy", ">= 0.5",
                new Spread(1.0 / 3, 0.1, 0.3, 0.4, 3), new Spread(12.5, 3, 12, 13, 3), "a note"))
            .add(BenchRow.unavailable("tcp.z_rtt", "us", "nio", "<= 1.5", "provider missing"));
    }

    @Test
    void shouldWriteJsonOfTheExactShape()
    {
        assertEquals("{\"bench\":\"via\",\"cores\":2,\"rows\":[\n" +
            "{\"metric\":\"shm.x_oneway\",\"value\":300,\"unit\":\"ns\",\"baseline\":100," +
            "\"baseline_name\":\"ring \\\"raw\\\" \\\\ ping-pong\",\"ratio\":3,\"bytes_per_op\":0," +
            "\"baseline_bytes_per_op\":24.5},\n" +
            "{\"metric\":\"shm.y_stream\",\"value\":0.33333,\"unit\":\"GB/s\",\"baseline\":12.5," +
            "\"baseline_name\":\"memcpy\",\"ratio\":0.026667,\"bytes_per_op\":null," +
            "\"baseline_bytes_per_op\":null},\n" +
            "{\"metric\":\"tcp.z_rtt\",\"value\":null,\"unit\":\"us\",\"baseline\":null," +
            "\"baseline_name\":\"nio\",\"ratio\":null,\"bytes_per_op\":null," +
            "\"baseline_bytes_per_op\":null}\n" +
            "]}\n", report().toJson());
    }

    @Test
    void shouldWriteEmptyRowsAsAnEmptyArray()
    {
        assertEquals("{\"bench\":\"dsm\",\"cores\":4,\"rows\":[]}\n", new BenchReport("dsm", 4, "none").toJson());
    }

    @Test
    void writeJsonReplacesTheFile(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("sub/report.json");
        report().writeJson(file);
        report().writeJson(file);
        assertEquals(report().toJson(), new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    }

    @Test
    void shouldPrintEveryRowWithItsRoundsAndNotes() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report().printTable(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final String table = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("shm.x_oneway"), table);
        assertTrue(table.contains("   B/op   base"), table);
        assertTrue(table.contains(" 0.000  24.50  3:"), table);
        assertTrue(table.contains("3: 290.0..310.0 / 95.00..105.0"), table);
        assertTrue(table.contains("note: a note"), table);
        assertTrue(table.contains("not measured"), table);
        assertTrue(table.contains("note: provider missing"), table);
        assertFalse(table.contains("noisy"), table);
    }

    @Test
    void shouldFlagRowsWhoseRoundsVaryMoreThanTheNoiseFactor()
    {
        assertTrue(BenchReport.isNoisy(new BenchRow("m", "ns", "b", "t",
            new Spread(100, 100, 100, 151, 3), new Spread(1, 1, 1, 1, 3), null)));
        assertFalse(BenchReport.isNoisy(new BenchRow("m", "ns", "b", "t",
            new Spread(100, 100, 100, 149, 3), new Spread(1, 1, 1, 1.4, 3), null)));
    }

    @Test
    void spreadTakesMediansAndExtremes()
    {
        final Spread spread = Spread.of(new double[]{5, 1, 3, 2}, new double[]{50, 10, 30, 20});
        assertEquals(2.5, spread.typical());
        assertEquals(25, spread.tail());
        assertEquals(1, spread.min());
        assertEquals(5, spread.max());
        assertEquals(4, spread.rounds());
    }
}
