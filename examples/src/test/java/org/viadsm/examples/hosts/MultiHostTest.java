package org.viadsm.examples.hosts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.examples.cli.NodeSettings;
import org.viadsm.examples.cli.ViadsmCommand;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Three hosts with real addresses ({@link NamespaceHosts}) run {@code viadsm node} as a launcher would start it
 * (rank and size from Slurm's variables, the rendezvous in a directory they share): an application verifies over
 * tcp and over ucx with UCX's TCP transport; a link taken down mid-run (over either) makes every node fail, the
 * survivors naming the lost node, and nothing is left behind.
 * The waits are hang detectors; nothing here measures time, though the link test prints how long detection took.
 */
@Timeout(300)
class MultiHostTest
{
    private static final int HOSTS = 3;
    private static final long HANG_MS = TimeUnit.SECONDS.toMillis(180);

    @TempDir
    Path rendezvous;

    private NamespaceHosts hosts;
    private final List<Process> ranks = new ArrayList<>();
    private final List<Captured> outs = new ArrayList<>();
    private final List<Captured> errs = new ArrayList<>();

    @BeforeEach
    void createHosts()
    {
        hosts = NamespaceHosts.create(HOSTS);
    }

    @AfterEach
    void removeHosts()
    {
        ranks.forEach(Process::destroyForcibly);
        hosts.close();
    }

    /**
     * The providers that cross hosts; each runs the application across the namespace hosts, ucx over its TCP
     * transport (as between hosts without RDMA).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ucx"})
    void shouldRunAnApplicationAcrossHosts(final String provider) throws Exception
    {
        if ("ucx".equals(provider))
        {
            NamespaceHosts.requireUcx();
        }
        start(provider, "--app", "lu", "--provider", provider, "-n256", "-t");
        final int[] codes = awaitRanks();
        assertEquals(List.of(0, 0, 0), List.of(codes[0], codes[1], codes[2]), this::errors);
        final String out = outs.get(0).text();
        assertTrue(out.contains("lu on 3 node(s), provider " + provider + ": ") && out.contains(", verified"), out);
        for (final String row : List.of("\n0 ", "\n1 ", "\n2 ", "\ntotal "))
        {
            assertTrue(out.contains(row), "statistics row '" + row.strip() + "' in " + out);
        }
        assertNothingLeftBehind();
    }

    /**
     * A link cut is noticed by every node through the provider's heartbeats (ucx over UCX's TCP transport, whose
     * endpoints are not told that a link went down while they have nothing outstanding).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ucx"})
    void shouldStopEveryNodeWhenALinkGoesDownNamingTheLostNode(final String provider) throws Exception
    {
        if ("ucx".equals(provider))
        {
            NamespaceHosts.requireUcx();
        }
        start(provider, "--class", Looper.class.getName(), "--provider", provider);
        final long deadlineMs = System.currentTimeMillis() + HANG_MS;
        while (!errs.stream().allMatch(err -> err.text().contains("looping")))
        {
            if (System.currentTimeMillis() > deadlineMs || ranks.stream().anyMatch(rank -> !rank.isAlive()))
            {
                fail("the nodes never got going: " + errors());
            }
            Thread.sleep(10);
        }
        final long cutNs = System.nanoTime();
        hosts.linkDown(2);
        final long[] failedAfterMs = new long[HOSTS];
        while (ranks.stream().anyMatch(Process::isAlive))
        {
            for (int node = 0; node < HOSTS; node++)
            {
                if (0 == failedAfterMs[node] && errs.get(node).text().contains("NodeLostException"))
                {
                    failedAfterMs[node] = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutNs));
                }
            }
            assertTrue(System.currentTimeMillis() < deadlineMs, "nodes still running: " + errors());
            Thread.sleep(10);
        }
        System.out.println(provider + ", link of host 2 cut: nodes 0, 1, 2 failed after " + failedAfterMs[0] + ", " +
            failedAfterMs[1] + ", " + failedAfterMs[2] + " ms");
        boolean sawSilence = false;
        for (int node = 0; node < 2; node++)
        {
            final String err = errs.get(node).text();
            assertTrue(0 != ranks.get(node).exitValue() && err.contains("NodeLostException: node " + node + ": ") &&
                err.contains("node 2 was lost ("), "node " + node + ": " + err);
            // a survivor noticed the silence itself, or learned of the loss from one that did
            sawSilence |= err.contains("node 2 was lost (CONNECTION_LOST (nothing arrived from ") &&
                err.contains("its link is down or its process stopped");
        }
        assertTrue(sawSilence, errors());
        assertTrue(0 != ranks.get(2).exitValue() && errs.get(2).text().contains("NodeLostException: node 2: "),
            "node 2: " + errs.get(2).text());
        assertNothingLeftBehind();
    }

    private void start(final String provider, final String... args) throws IOException
    {
        final List<String> nodeArgs = new ArrayList<>(List.of("node"));
        nodeArgs.addAll(List.of(args));
        final String job = "multi-host-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        for (int rank = 0; rank < HOSTS; rank++)
        {
            final ProcessBuilder builder = new ProcessBuilder(hosts.on(rank,
                JavaProcess.command(ViadsmCommand.class.getName(), NodeSettings.JVM_OPTIONS, nodeArgs)));
            final Map<String, String> env = builder.environment();
            env.putAll(slurm(rank, job));
            env.put("VIADSM_RENDEZVOUS_DIR", rendezvous.toString());
            if ("ucx".equals(provider))
            {
                env.put("UCX_TLS", "tcp");
            }
            final Process process = builder.start();
            process.getOutputStream().close();
            ranks.add(process);
            outs.add(Captured.of(process.getInputStream()));
            errs.add(Captured.of(process.getErrorStream()));
        }
    }

    /** What {@code srun} gives each task. */
    private static Map<String, String> slurm(final int rank, final String job)
    {
        final Map<String, String> env = new HashMap<>();
        env.put("SLURM_PROCID", Integer.toString(rank));
        env.put("SLURM_NTASKS", Integer.toString(HOSTS));
        env.put("SLURM_JOB_ID", job);
        env.put("SLURM_STEP_ID", "0");
        return env;
    }

    private int[] awaitRanks() throws InterruptedException
    {
        final int[] codes = new int[ranks.size()];
        final long deadlineMs = System.currentTimeMillis() + HANG_MS;
        for (int rank = 0; rank < codes.length; rank++)
        {
            final long leftMs = Math.max(1, deadlineMs - System.currentTimeMillis());
            assertTrue(ranks.get(rank).waitFor(leftMs, TimeUnit.MILLISECONDS), "rank " + rank + " hangs: " +
                errors());
            codes[rank] = ranks.get(rank).exitValue();
        }
        return codes;
    }

    private void assertNothingLeftBehind() throws Exception
    {
        for (final Captured captured : outs)
        {
            captured.await(HANG_MS);
        }
        try (Stream<Path> left = Files.walk(rendezvous))
        {
            assertEquals(List.of(rendezvous), left.toList(), "rendezvous files left behind");
        }
        for (final Process rank : ranks)
        {
            assertTrue(Files.notExists(Path.of(System.getProperty("java.io.tmpdir"),
                "viadsm-stats-" + rank.pid() + ".json")), "statistics file left behind");
        }
    }

    private String errors()
    {
        final StringBuilder text = new StringBuilder();
        for (int rank = 0; rank < errs.size(); rank++)
        {
            text.append("\n--- rank ").append(rank).append(":\n").append(errs.get(rank).text());
        }
        return text.toString();
    }
}
