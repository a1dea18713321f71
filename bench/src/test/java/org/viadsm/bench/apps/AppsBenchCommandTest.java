package org.viadsm.bench.apps;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.examples.cli.ViadsmCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A smoke test: one tiny application in every mode, each run in its own JVMs; the JSON rows are checked for
 * shape and verification, never for timing.
 */
class AppsBenchCommandTest
{
    private static final Pattern ROW = Pattern.compile("\\{\"app\":\"fft\",\"args\":\"-m10 -t\",\"mode\":\"(\\w+)\"," +
        "\"provider\":\"(\\w+)\",\"nodes\":(\\d+),\"time_s\":([0-9.E-]+),\"time_source\":\"Total time without " +
        "initialization\",\"app_run_s\":([0-9.E-]+),\"speedup\":([0-9.E-]+),\"dsm_vs_threads\":([0-9.E-]+|null)," +
        "\"verified\":true,\"pages_fetched\":(\\d+|null),\"diff_kib\":([0-9.E-]+|null),\"lock_wait_ms\":" +
        "([0-9.E-]+|null),\"barrier_wait_ms\":([0-9.E-]+|null),\"messages\":(\\d+|null),\"error\":null}");

    @Test
    @Timeout(300)
    void shouldRunOneApplicationInEveryModeAndWriteTheJson(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("apps.json");
        final Path plot = dir.resolve("apps.png");
        assertEquals(0, ViadsmCommand.execute("bench", "apps", "--apps", "fft", "--nodes", "1,2",
            "--input", "fft=-m10 -t", "--json", json.toString(), "--plot", plot.toString()));

        final String text = Files.readString(json, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("{\"bench\":\"apps\",\"cores\":"), text);
        final List<String> configurations = new ArrayList<>();
        final Matcher row = ROW.matcher(text);
        while (row.find())
        {
            final String mode = row.group(1);
            configurations.add(mode + "/" + row.group(2) + "/" + row.group(3));
            assertTrue(Double.parseDouble(row.group(4)) > 0, row.group());
            assertTrue(Double.parseDouble(row.group(5)) > 0, row.group());
            final boolean dsm = "dsm".equals(mode);
            assertEquals(dsm, !"null".equals(row.group(7)), row.group());
            assertEquals(dsm, !"null".equals(row.group(8)), row.group());
            assertEquals(dsm, !"null".equals(row.group(12)), row.group());
        }
        assertEquals(List.of("seq/threads/1", "dsm/shm/1", "threads/threads/2", "dsm/shm/2"), configurations, text);
        assertTrue(Files.size(plot) > 0);
    }

}
