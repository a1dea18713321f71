package org.viadsm.bench.apps;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.examples.cli.ViadsmCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Smoke tests: one tiny application in every mode, each run in its own JVMs, cold and warm; the JSON rows and
 * tables are checked for shape and verification, never for timing.
 */
class AppsBenchCommandTest
{
    private static final String NUMBER = "(-?[0-9.E-]+|null)";
    private static final Pattern ROW = Pattern.compile("\\{\"app\":\"fft\",\"args\":\"-m10 -t\",\"mode\":\"(\\w+)\"," +
        "\"provider\":\"(\\w+)\",\"nodes\":(\\d+),\"time_s\":([0-9.E-]+),(\"warm\":(\\d+),\"cold_s\":([0-9.E-]+),)?" +
        "\"time_source\":\"Total time without initialization\",\"app_run_s\":([0-9.E-]+),\"speedup\":([0-9.E-]+)," +
        "\"dsm_vs_threads\":([0-9.E-]+|null),\"verified\":true,\"pages_fetched\":(\\d+|null),\"diff_kib\":" + NUMBER +
        ",\"lock_wait_ms\":" + NUMBER + ",\"barrier_wait_ms\":" + NUMBER + ",\"messages\":(\\d+|null)," +
        "\"breakdown_ms\":(null|\\{\"compute\":" + NUMBER + ",\"read_fault\":" + NUMBER + ",\"write_fault\":" +
        NUMBER + ",\"release\":" + NUMBER + ",\"lock_wait\":" + NUMBER + ",\"barrier_wait\":" + NUMBER +
        ",\"semaphore_wait\":" + NUMBER + "}),\"node_breakdown_ms\":(null|\\[\\{\"node\":0,[^\\]]*\\])," +
        "\"homes\":(null|\\[[0-9,]+\\]),\"cpu_ms\":(null|\\[[0-9.E,-]+\\]),\"jit_ms\":(null|\\[[0-9.E,-]+\\])," +
        "\"error\":null}");

    @Test
    @Timeout(300)
    void shouldRunOneApplicationInEveryModeAndWriteTheJson(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("apps.json");
        final Path plot = dir.resolve("apps.png");
        assertEquals(0, ViadsmCommand.execute("bench", "apps", "--apps", "fft", "--nodes", "1,2",
            "--input", "fft=-m10 -t", "--json", json.toString(), "--plot", plot.toString()));

        final List<String> configurations = new ArrayList<>();
        for (final MatchResult row : rows(Files.readString(json, StandardCharsets.UTF_8)))
        {
            configurations.add(row.group(1) + "/" + row.group(2) + "/" + row.group(3));
            assertEquals(null, row.group(5), "no warm figures without --warm: " + row.group());
        }
        assertEquals(List.of("seq/threads/1", "dsm/shm/1", "threads/threads/2", "dsm/shm/2"), configurations);
        assertTrue(Files.size(plot) > 0);
    }

    @Test
    @Timeout(300)
    void shouldRunWarmInTheSameJvmsAndReportColdBeside(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("apps.json");
        final Path plot = dir.resolve("apps.png");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(0, ViadsmCommand.execute("bench", "apps", "--apps", "fft", "--nodes", "2", "--warm", "2",
                "--input", "fft=-m10 -t", "--json", json.toString(), "--plot", plot.toString()));
        }
        finally
        {
            System.setOut(saved);
        }

        final List<String> configurations = new ArrayList<>();
        for (final MatchResult row : rows(Files.readString(json, StandardCharsets.UTF_8)))
        {
            configurations.add(row.group(1) + "/" + row.group(3));
            assertEquals("2", row.group(6), row.group());
            assertTrue(Double.parseDouble(row.group(7)) > 0, row.group());
        }
        assertEquals(List.of("seq/1", "threads/2", "dsm/2"), configurations);
        final String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("Warm: the median of runs 2 to 3 in the same JVMs"), table);
        assertTrue(table.contains("Cold: the first run, in fresh JVMs"), table);
        assertTrue(table.contains("Where the time went, DSM runs (the program's timed phase, mean over the 2 warm " +
            "runs"), table);
        for (final String node : List.of("0", "1", "mean"))
        {
            assertTrue(table.matches("(?s).*\\Rfft\\s+2\\s+" + node + "\\s+[0-9.]+\\s.*"),
                "a breakdown row for node " + node + " of the DSM run: " + table);
        }
        assertTrue(Files.size(plot) > 0);
        assertEquals(2, ViadsmCommand.execute("bench", "apps", "--warm", "-1"));
    }

    @Test
    @Timeout(300)
    void shouldNameWhatARunRefusedRatherThanTheHintAfterIt(@TempDir final Path dir)
    {
        // RADIX sorts on a power of two of processors only; bench apps refuses 3 members before running anything,
        // so the runs are started here as it starts them
        for (final String[] modeAndProvider : new String[][] {{"threads", "threads"}, {"dsm", "shm"}})
        {
            final AppMeasurement run = AppProcess.run("radix", List.of("-n1024", "-t"), modeAndProvider[0],
                modeAndProvider[1], 3, 0, dir, TimeUnit.SECONDS.toNanos(120));
            assertEquals("exited with 2: viadsm: P must be a power of 2 in [1, 1024] (the prefix tree assumes it): " +
                "team size 3 (see 'viadsm run radix --app-help')", run.error);
        }
    }

    /** Every JSON row, checked for shape: figures positive, DSM figures on DSM rows only. */
    private static List<MatchResult> rows(final String text)
    {
        assertTrue(text.startsWith("{\"bench\":\"apps\",\"cores\":"), text);
        final List<MatchResult> rows = new ArrayList<>();
        final Matcher row = ROW.matcher(text);
        while (row.find())
        {
            assertTrue(Double.parseDouble(row.group(4)) > 0, row.group());
            assertTrue(Double.parseDouble(row.group(8)) > 0, row.group());
            final boolean dsm = "dsm".equals(row.group(1));
            // dsm_vs_threads, pages fetched, messages, the breakdown (mean, its seven figures, per node), homes, and
            // the nodes' CPU and compiler time (FFT marks its timed phase)
            for (final int group : new int[] {10, 11, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27})
            {
                assertEquals(dsm, null != row.group(group) && !"null".equals(row.group(group)),
                    group + " in " + row.group());
            }
            rows.add(row.toMatchResult());
        }
        assertEquals(text.split("\\{\"app\":", -1).length - 1, rows.size(), "every row has the shape: " + text);
        return rows;
    }
}
