package org.viadsm.dsm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.testsupport.Await;
import org.viadsm.testsupport.Providers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nodes as separate processes: they agree on a lock-protected counter and on writes exchanged at a barrier, and
 * when one process is killed every other fails with a {@link NodeLostException} naming it instead of hanging,
 * whatever it was doing.
 */
@Timeout(120)
class DsmProcessesTest
{
    private static final int KILL_ROUNDS = Integer.getInteger("viadsm.kill.rounds", 3);

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#processes")
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
    @MethodSource("org.viadsm.testsupport.Providers#processes")
    void shouldFailTheOtherNodesWhenANodeProcessIsKilled(final String provider) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("hang"), List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null,
            out))
        {
            Await.until(() -> cluster.errorOutput(2).contains("node 2 hangs"), "node 2 reached its hang");
            cluster.kill(2);
            assertSurvivorsNameTheLostNode(cluster);
        }
    }

    static Stream<Arguments> killRounds()
    {
        return Providers.processes().flatMap(provider -> IntStream.range(0, KILL_ROUNDS)
            .mapToObj(round -> Arguments.of(provider, round)));
    }

    /**
     * The survivors poll a flag under a lock that a live node manages (BARNES's wait): once the loss of the killed
     * node is detected, their next lock operation fails naming it, though it never touches the lost node.
     */
    @ParameterizedTest(name = "{0} round {1}")
    @MethodSource("killRounds")
    void shouldStopEverySurvivorWhoseOperationsNeverTouchTheLostNode(final String provider, final int round)
        throws Exception
    {
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("spin"), List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null,
            new ByteArrayOutputStream()))
        {
            Await.until(() -> cluster.errorOutput(2).contains("node 2 hangs") &&
                cluster.errorOutput(0).contains("spins") && cluster.errorOutput(1).contains("spins"),
                "the nodes reached their loops");
            Thread.sleep(round * 37L % 150);
            cluster.kill(2);
            assertSurvivorsNameTheLostNode(cluster);
        }
    }

    private static void assertSurvivorsNameTheLostNode(final ProcessCluster cluster)
    {
        final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(60));
        for (int node = 0; node < 2; node++)
        {
            final String error = cluster.errorOutput(node);
            assertTrue(0 != codes[node] && error.contains("NodeLostException: node " + node + ": ") &&
                error.contains("node 2 was lost (") && error.contains("; the cluster has stopped"),
                "node " + node + " exited with " + codes[node] + ": " + error);
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#processes")
    void shouldNameANodeKilledWhileALockIsCachedThereInsteadOfHanging(final String provider,
        @TempDir final Path dir) throws Exception
    {
        final Path marker = dir.resolve("killed");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("cached-hang", marker.toString()), List.of(),
            List.of("-XX:+UseSerialGC"), Map.of(), null, out))
        {
            Await.until(() -> cluster.errorOutput(2).contains("node 2 hangs"), "node 2 reached its hang");
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
    @MethodSource("org.viadsm.testsupport.Providers#processes")
    void shouldNameANodeKilledWhileOthersWaitForItsSignal(final String provider) throws Exception
    {
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses(provider, 3),
            NodeProgram.class.getName(), List.of("condition-hang"), List.of(), List.of("-XX:+UseSerialGC"), Map.of(),
            null, new ByteArrayOutputStream()))
        {
            Await.until(() -> cluster.errorOutput(2).contains("node 2 hangs"), "node 2 reached its hang");
            cluster.kill(2);
            assertSurvivorsNameTheLostNode(cluster);
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
        Await.until(() -> cluster.errorOutput(1).contains("node 1 hangs"), "node 1 reached its hang");
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
