package org.viadsm.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.examples.hosts.Captured;
import org.viadsm.testsupport.Providers;
import org.viadsm.via.NicContext;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code viadsm run barnes --nodes 3}, with node 1 killed by SIGKILL mid-run: the launcher says first that node 1
 * was lost and why, then what that broke on the others, and stops, leaving no files behind. The launcher runs as a
 * process of its own, as a user starts it; nothing here measures time (the waits are hang detectors).
 */
class NodeLossTest
{
    private static final long HANG_NS = TimeUnit.SECONDS.toNanos(120);

    /** One round per provider whose nodes are processes, each killing at another moment. */
    static Stream<Arguments> rounds()
    {
        final List<String> providers = Providers.processes().toList();
        return IntStream.range(0, providers.size()).mapToObj(round -> Arguments.of(providers.get(round), round));
    }

    static Stream<Arguments> manyRounds()
    {
        return Providers.processes().flatMap(provider -> IntStream.range(0, 33)
            .mapToObj(round -> Arguments.of(provider, round)));
    }

    @ParameterizedTest(name = "{0} round {1}")
    @MethodSource("rounds")
    @Timeout(300)
    void shouldNameTheKilledNodeFirstAndStopTheOthers(final String provider, final int round) throws Exception
    {
        killNodeOneOfBarnes(provider, round);
    }

    @ParameterizedTest(name = "{0} round {1}")
    @MethodSource("manyRounds")
    @Tag("slow")
    @Timeout(300)
    void shouldNameTheKilledNodeFirstAndStopTheOthersEveryTime(final String provider, final int round)
        throws Exception
    {
        killNodeOneOfBarnes(provider, round);
    }

    private static void killNodeOneOfBarnes(final String provider, final int round) throws Exception
    {
        final Process launcher = JavaProcess.builder(ViadsmCommand.class, List.of(),
            List.of("run", "barnes", "--nodes", "3", "--provider", provider)).start();
        launcher.getOutputStream().close();
        final Captured out = Captured.of(launcher.getInputStream());
        final Captured err = Captured.of(launcher.getErrorStream());
        try
        {
            awaitOutput(out, launcher, "step");
            Thread.sleep(round * 211L % 1500);
            final ProcessHandle node1 = node(launcher, 1)
                .orElseThrow(() -> new AssertionError("no node 1 under the launcher; " + err.text()));
            assertTrue(node1.destroyForcibly(), "SIGKILL sent");
            assertTrue(launcher.waitFor(HANG_NS, TimeUnit.NANOSECONDS), "the launcher did not stop: " + err.text());
            out.join();
            err.join();
            assertEquals(1, launcher.exitValue(), err.text());
            final List<String> lines = err.text().lines().filter(line -> line.startsWith("viadsm: ")).toList();
            assertEquals("viadsm: barnes failed: node 1 was lost: its process was killed by signal 9 (SIGKILL)",
                lines.get(0), err.text());
            for (final String line : lines.subList(1, lines.size()))
            {
                assertTrue(line.matches("viadsm: then node [02] (was stopped by the launcher|failed \\(exit code " +
                    "1\\): .*node 1 was lost \\(.*; the cluster has stopped)"), line);
            }
            assertTrue(launcher.children().noneMatch(ProcessHandle::isAlive), "nodes left running");
            assertEquals(List.of(), leftFiles(), "files left behind");
        }
        finally
        {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    private static void awaitOutput(final Captured out, final Process launcher, final String text) throws Exception
    {
        final long deadlineNs = System.nanoTime() + HANG_NS;
        while (!out.text().contains(text))
        {
            if (!launcher.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                fail("barnes never started: " + out.text());
            }
            Thread.sleep(20);
        }
    }

    /** The node process with {@code VIADSM_NODE_ID=node} among the launcher's children. */
    private static Optional<ProcessHandle> node(final Process launcher, final int node)
    {
        return launcher.children().filter(child ->
        {
            try
            {
                final String environ = Files.readString(Paths.get("/proc", Long.toString(child.pid()), "environ"),
                    StandardCharsets.ISO_8859_1);
                return environ.contains("\0VIADSM_NODE_ID=" + node + "\0") ||
                    environ.startsWith("VIADSM_NODE_ID=" + node + "\0");
            }
            catch (final IOException ex)
            {
                return false;
            }
        }).findFirst();
    }

    private static List<String> leftFiles() throws IOException
    {
        try (Stream<Path> files = Files.list(new NicContext().conclude().shmDirectory()))
        {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("viadsm-"))
                .toList();
        }
    }
}
