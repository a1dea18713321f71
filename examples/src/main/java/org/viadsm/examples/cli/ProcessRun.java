package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.examples.runtime.VerificationException;

/**
 * Runs an application on nodes that are child JVMs ({@code shm} or {@code tcp}), each running
 * {@code viadsm node}.
 */
final class ProcessRun
{
    private static final long TIMEOUT_NS = TimeUnit.HOURS.toNanos(2);

    private ProcessRun()
    {
    }

    static RunResult run(final RunCommand.RunSpec run, final PrintStream out, final AtomicInteger finished)
    {
        final List<String> addresses = LocalCluster.addresses(run.provider, run.nodes);
        final Path statsDir = tempDirectory();
        final Path appTime = statsDir.resolve("app-time-0.txt");
        final List<String> args = new ArrayList<>(List.of("node", "--app", run.entry.name(),
            "--page-size", Integer.toString(run.pageSize),
            "--app-time-file", statsDir.resolve("app-time-{node}.txt").toString(), "--runs",
            Integer.toString(run.runs)));
        if (null != run.placement)
        {
            args.addAll(List.of("--placement", run.placement.toString()));
        }
        args.add("--");
        args.addAll(run.args);
        final ProcessCluster cluster = ProcessCluster.start(addresses, ViadsmCommand.class.getName(), args,
            List.of(), NodeSettings.JVM_OPTIONS, statsEnvironment(statsDir), run.input, out);
        final Thread hook = new Thread(cluster::close, "viadsm-run-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            final int[] codes = cluster.await(TIMEOUT_NS, finished);
            final int failed = culprit(codes, cluster);
            if (failed >= 0)
            {
                final String message = firstMessageLine(cluster.errorOutput(failed));
                final Throwable cause = NodeCommand.VERIFICATION_FAILED == codes[failed] ?
                    new VerificationException(message) : new IllegalStateException(message);
                throw new ClusterFailure(failed, "node " + failed + " exited with " + codes[failed], cause);
            }
            return new RunResult(readStats(statsDir, run.nodes), Arrays.stream(
                Files.readString(appTime, StandardCharsets.US_ASCII).strip().split(",")).mapToLong(Long::parseLong)
                .toArray());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the nodes' statistics in " + statsDir, ex);
        }
        finally
        {
            cluster.close();
            removeQuietly(statsDir);
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ignore)
            {
                // Already shutting down: the hook runs anyway.
            }
        }
    }

    /** The environment that makes every node's {@code Dsm.close()} write its statistics into {@code dir}. */
    static Map<String, String> statsEnvironment(final Path dir)
    {
        return Map.of("VIADSM_STATS_FILE", dir.resolve("node-{node}.json").toString());
    }

    /** Reads the statistics every node wrote into {@code dir}. */
    static List<DsmStats> readStats(final Path dir, final int nodes) throws IOException
    {
        final List<DsmStats> stats = new ArrayList<>();
        for (final Path file : ProcessCluster.perNode(dir.resolve("node-{node}.json").toString(), nodes))
        {
            stats.add(DsmStats.fromJson(Files.readString(file, StandardCharsets.UTF_8)));
        }
        return stats;
    }

    /** The node to blame: a failed self-check first, then a node that failed on its own, then any failure. */
    static int culprit(final int[] codes, final ProcessCluster cluster)
    {
        int any = -1;
        int own = -1;
        for (int node = 0; node < codes.length; node++)
        {
            if (0 == codes[node])
            {
                continue;
            }
            if (NodeCommand.VERIFICATION_FAILED == codes[node])
            {
                return node;
            }
            final String error = cluster.errorOutput(node);
            if (own < 0 && !error.contains("left the cluster") && !error.contains(") while this node waited"))
            {
                own = node;
            }
            if (any < 0)
            {
                any = node;
            }
        }
        return own >= 0 ? own : any;
    }

    static String firstMessageLine(final String text)
    {
        final String[] lines = text.strip().split("\\R");
        for (final String line : lines)
        {
            if (!line.isBlank() && !line.startsWith("\tat "))
            {
                return line.strip();
            }
        }
        return lines.length > 0 ? lines[lines.length - 1] : "no error output";
    }

    static Path tempDirectory()
    {
        try
        {
            return Files.createTempDirectory("viadsm-run-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary directory", ex);
        }
    }

    static void removeQuietly(final Path directory)
    {
        try (java.util.stream.Stream<Path> files = Files.list(directory))
        {
            files.forEach(file -> file.toFile().delete());
        }
        catch (final IOException ignore)
        {
            // Best effort: the directory is in the temporary area.
        }
        directory.toFile().delete();
    }
}
