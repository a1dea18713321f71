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
import org.viadsm.dsm.launch.FailureReport;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.NodeExit;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.examples.runtime.VerificationException;

/**
 * Runs an application on nodes that are child JVMs ({@code shm} or {@code tcp}), each running
 * {@code viadsm node}.
 */
final class ProcessRun
{
    private static final long TIMEOUT_NS = TimeUnit.HOURS.toNanos(2);
    /**
     * How long the other nodes may take to stop by themselves once one failed, before the launcher stops them: a
     * cluster that lost a node stops within its failure detection, and its nodes then say what the loss broke.
     */
    static final long ABORT_GRACE_NS = TimeUnit.SECONDS.toNanos(2);

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
            List.of(), NodeSettings.jvmOptions(), statsEnvironment(statsDir), run.input, out);
        final Thread hook = new Thread(cluster::close, "viadsm-run-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            cluster.abortOnFailure(ABORT_GRACE_NS).await(TIMEOUT_NS, finished);
            final FailureReport report = cluster.failureReport();
            if (null != report)
            {
                throw failure(report);
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

    /** The failure to report: the root cause's, a {@link VerificationException} if that was a failed self-check. */
    static ClusterFailure failure(final FailureReport report)
    {
        final NodeExit root = report.root();
        final String message = null == root ? report.lines().get(0) : FailureReport.firstMessageLine(root.error());
        final Throwable cause = null != root && NodeCommand.VERIFICATION_FAILED == root.code() ?
            new VerificationException(message) : new IllegalStateException(message);
        return new ClusterFailure(report.rootNode(), report.lines().get(0), cause, report);
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
