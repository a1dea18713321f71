package org.viadsm.bench.via;

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
import org.viadsm.via.NicProviders;
import org.viadsm.via.provider.ucx.UcxNicProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A smoke test: every row runs a few operations; no timing is asserted, only that each row measured something.
 */
class ViaBenchCommandTest
{
    private static final List<String> METRICS = List.of("shm.send_recv_64B_oneway", "shm.rdma_write_4KiB_oneway",
        "shm.rdma_read_4KiB", "shm.rdma_write_4KiB_stream", "tcp.send_recv_64B_rtt", "ucx.send_recv_64B_oneway",
        "ucx.rdma_write_4KiB_oneway", "ucx.rdma_read_4KiB", "ucx.atomic_faa", "jvm.send_recv_64B_oneway");

    @Test
    @Timeout(180)
    void shouldMeasureEveryRowAndWriteTheJson(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("via.json");
        final int exitCode = ViadsmCommand.execute("bench", "via", "--iterations", "200", "--warmup", "50",
            "--rounds", "2", "--cold-mib", "1", "--json", json.toString());
        assertEquals(0, exitCode);

        final String text = new String(Files.readAllBytes(json), StandardCharsets.UTF_8);
        final List<String> metrics = new ArrayList<>();
        for (final String[] row : ReportJson.rows("via", text))
        {
            metrics.add(row[0]);
            if ("tcp.send_recv_64B_rtt".equals(row[0]) && !NicProviders.all().containsKey("tcp") ||
                row[0].startsWith("ucx.") && !UcxNicProvider.isAvailable())
            {
                assertEquals("null", row[1], String.join(" ", row));
                continue;
            }
            assertTrue(Double.parseDouble(row[1]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[3]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[5]) > 0, String.join(" ", row));
            assertTrue(Double.parseDouble(row[6]) >= 0 && Double.parseDouble(row[7]) >= 0, String.join(" ", row));
        }
        assertEquals(METRICS, metrics);
    }
}
