package org.viadsm.dsm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nodes as separate processes: they agree on a lock-protected counter and on writes exchanged at a barrier, and
 * when one process is killed the others fail with a message naming it instead of hanging.
 */
@Timeout(120)
class DsmProcessesTest
{
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldShareMemoryBetweenProcesses(final String provider)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of(), List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null, out))
        {
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(90));
            assertArrayEquals(new int[] {0, 0, 0}, codes, () -> cluster.errorOutput(0) + cluster.errorOutput(1));
        }
        assertEquals("node 0 counter 1500 ids 303", out.toString(StandardCharsets.UTF_8).trim());
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldFailTheOtherNodesWhenANodeProcessIsKilled(final String provider) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("hang"), List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null,
            out))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!cluster.errorOutput(2).contains("node 2 hangs"))
            {
                assertTrue(System.nanoTime() < deadlineNs, "node 2 never reached its hang");
                Thread.sleep(20);
            }
            cluster.kill(2);
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(60));
            assertTrue(codes[0] != 0 && codes[1] != 0, "the survivors fail");
            assertTrue(cluster.errorOutput(0).contains("node 2 failed") ||
                cluster.errorOutput(1).contains("node 2 failed"), cluster.errorOutput(0) + cluster.errorOutput(1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldNameANodeKilledWhileALockIsCachedThereInsteadOfHanging(final String provider,
        @TempDir final Path dir) throws Exception
    {
        final Path marker = dir.resolve("killed");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("cached-hang", marker.toString()), List.of(),
            List.of("-XX:+UseSerialGC"), Map.of(), null, out))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!cluster.errorOutput(2).contains("node 2 hangs"))
            {
                assertTrue(System.nanoTime() < deadlineNs, "node 2 never reached its hang");
                Thread.sleep(20);
            }
            cluster.kill(2);
            Files.createFile(marker);
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(60));
            assertTrue(codes[0] != 0 && codes[1] != 0, "the survivors fail");
            for (int node = 0; node < 2; node++)
            {
                assertTrue(cluster.errorOutput(node).contains("node 2"), cluster.errorOutput(node));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldNameANodeKilledWhileOthersWaitForItsSignal(final String provider) throws Exception
    {
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("condition-hang"), List.of(), List.of("-XX:+UseSerialGC"), Map.of(),
            null, new ByteArrayOutputStream()))
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!cluster.errorOutput(2).contains("node 2 hangs"))
            {
                assertTrue(System.nanoTime() < deadlineNs, "node 2 never reached its hang");
                Thread.sleep(20);
            }
            cluster.kill(2);
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(60));
            assertTrue(codes[0] != 0 && codes[1] != 0, "the waiters fail");
            for (int node = 0; node < 2; node++)
            {
                assertTrue(cluster.errorOutput(node).contains("node 2 failed"), cluster.errorOutput(node));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm"})
    void shouldStopEveryNodeAndRemoveItsFilesWhenTheLauncherIsInterrupted(final String provider) throws Exception
    {
        final List<String> addresses = LocalCluster.addresses(provider, 2);
        final String first = addresses.get(0);
        final String name = first.substring(first.indexOf(':') + 1, first.length() - 1);
        final ProcessCluster cluster = ProcessCluster.start(addresses, NodeProgram.class.getName(), List.of("hang"),
            List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null, new ByteArrayOutputStream());
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!cluster.errorOutput(1).contains("node 1 hangs"))
        {
            assertTrue(System.nanoTime() < deadlineNs, "node 1 never reached its hang");
            Thread.sleep(20);
        }
        assertTrue(shmFiles(name) > 0, "the running nodes have files in /dev/shm");
        cluster.close();
        assertEquals(0, shmFiles(name), "files left behind");
    }

    private static long shmFiles(final String clusterName) throws Exception
    {
        try (java.util.stream.Stream<java.nio.file.Path> files =
            java.nio.file.Files.list(new org.viadsm.via.NicContext().conclude().shmDirectory()))
        {
            return files.filter(file -> file.getFileName().toString().contains(clusterName)).count();
        }
    }
}
