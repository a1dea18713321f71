package org.viadsm.dsm.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.viadsm.via.internal.JavaProcess;
import org.viadsm.via.provider.shm.ShmNicProvider;

/**
 * Runs a cluster of nodes as child JVMs on this host: node {@code i} runs a main class with the environment a
 * node's {@code DsmContext.fromEnvironment()} reads ({@code VIADSM_NODE_ID}, {@code VIADSM_ADDRESSES}), the JVM
 * options viadsm needs, and this JVM's class path plus any given. Node 0's standard output is copied to a stream;
 * every node's standard error is kept (its last lines) to explain failures.
 * <p>
 * Closing destroys every node still running, so a launcher that is interrupted (Ctrl-C) takes its nodes with it.
 */
public final class ProcessCluster implements AutoCloseable
{
    private static final int KEPT_ERROR_LINES = 40;

    private final List<Process> processes = new ArrayList<>();
    private final List<ArrayDeque<String>> errors = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final List<String> addresses;
    private final BlockingQueue<Integer> exitEvents = new LinkedBlockingQueue<>();
    private final List<Integer> exitOrder = new ArrayList<>();
    private final Set<Integer> stopped = ConcurrentHashMap.newKeySet();
    private long abortGraceNs = -1;

    private ProcessCluster(final List<String> addresses)
    {
        this.addresses = addresses;
    }

    /**
     * Starts the nodes.
     *
     * @param addresses  every node's NIC address, node 0 first (see {@link LocalCluster#addresses}).
     * @param mainClass  the class every node runs.
     * @param args       its arguments; {@code {node}} in an argument becomes the node id.
     * @param classPath  entries added before this JVM's class path, e.g. a user's program; may be empty.
     * @param jvmOptions extra JVM options.
     * @param env        extra environment; a value containing {@code {node}} gets the node id.
     * @param input      a file every node reads as its standard input, or null for none.
     * @param node0Out   where node 0's standard output goes.
     * @return the running cluster.
     * @throws UncheckedIOException if a JVM cannot be started; those already started are destroyed.
     */
    public static ProcessCluster start(
        final List<String> addresses,
        final String mainClass,
        final List<String> args,
        final List<String> classPath,
        final List<String> jvmOptions,
        final Map<String, String> env,
        final Path input,
        final OutputStream node0Out)
    {
        final ProcessCluster cluster = new ProcessCluster(addresses);
        try
        {
            for (int node = 0; node < addresses.size(); node++)
            {
                cluster.startNode(node, mainClass, args, classPath, jvmOptions, env, input, node0Out);
            }
            return cluster;
        }
        catch (final RuntimeException ex)
        {
            cluster.close();
            throw ex;
        }
    }

    /**
     * Number of nodes.
     *
     * @return the node count.
     */
    public int size()
    {
        return processes.size();
    }

    /**
     * Waits for every node to exit.
     *
     * @param timeoutNs longest wait for all of them.
     * @return each node's exit code, node 0 first.
     * @throws ClusterFailure if the nodes did not all exit in time (they are then destroyed).
     */
    public int[] await(final long timeoutNs)
    {
        return await(timeoutNs, new AtomicInteger());
    }

    /**
     * Makes {@link #await} stop the cluster when a node fails, as {@code mpirun} aborts a job: once a node exits
     * with a code other than 0, the others get {@code graceNs} to exit by themselves (a cluster that lost a node
     * stops, and its nodes say why), then the launcher stops those still running.
     *
     * @param graceNs how long the other nodes may take to stop by themselves.
     * @return this.
     */
    public ProcessCluster abortOnFailure(final long graceNs)
    {
        this.abortGraceNs = graceNs;
        return this;
    }

    /**
     * Waits for every node to exit, counting them as they do.
     *
     * @param timeoutNs longest wait for all of them.
     * @param exited    incremented as each node exits, e.g. for a progress display.
     * @return each node's exit code, node 0 first.
     * @throws ClusterFailure if the nodes did not all exit in time (they are then destroyed).
     */
    public int[] await(final long timeoutNs, final AtomicInteger exited)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        long abortNs = Long.MAX_VALUE;
        int remaining = processes.size() - exitOrder.size();
        try
        {
            while (remaining > 0)
            {
                final long nowNs = System.nanoTime();
                if (nowNs - deadlineNs >= 0)
                {
                    final int late = firstRunning();
                    close();
                    throw new ClusterFailure(late, "node " + late + " did not finish within " +
                        TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s; every node was stopped", null);
                }
                if (Long.MAX_VALUE != abortNs && nowNs - abortNs >= 0)
                {
                    stopRunning();
                    abortNs = Long.MAX_VALUE;
                }
                final long waitNs = Math.min(deadlineNs - nowNs, Long.MAX_VALUE == abortNs ? Long.MAX_VALUE :
                    abortNs - nowNs);
                final Integer node = exitEvents.poll(Math.max(0, waitNs), TimeUnit.NANOSECONDS);
                if (null == node)
                {
                    continue;
                }
                exitOrder.add(node);
                exited.incrementAndGet();
                remaining--;
                if (abortGraceNs >= 0 && Long.MAX_VALUE == abortNs && 0 != processes.get(node).exitValue() &&
                    !stopped.contains(node))
                {
                    abortNs = System.nanoTime() + abortGraceNs;
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            final int running = firstRunning();
            close();
            throw new ClusterFailure(running, "interrupted while waiting for node " + running, ex);
        }
        for (final Thread pump : pumps)
        {
            try
            {
                pump.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        final int[] codes = new int[processes.size()];
        for (int node = 0; node < codes.length; node++)
        {
            codes[node] = processes.get(node).exitValue();
        }
        return codes;
    }

    /**
     * How the nodes ended, in the order they exited; complete once {@link #await} returned.
     *
     * @return one entry per node that exited.
     */
    public List<NodeExit> exits()
    {
        final List<NodeExit> exits = new ArrayList<>();
        for (final int node : exitOrder)
        {
            exits.add(new NodeExit(node, processes.get(node).exitValue(), stopped.contains(node), errorOutput(node)));
        }
        return exits;
    }

    /**
     * Why the run failed, root cause first; complete once {@link #await} returned.
     *
     * @return the report, or null if every node exited with 0.
     */
    public FailureReport failureReport()
    {
        return FailureReport.of(exits());
    }

    /**
     * The last lines node {@code node} wrote to standard error.
     *
     * @param node the node.
     * @return its kept error output.
     */
    public String errorOutput(final int node)
    {
        synchronized (errors.get(node))
        {
            return String.join(System.lineSeparator(), errors.get(node));
        }
    }

    /**
     * Kills one node at once, as a crash would.
     *
     * @param node the node.
     */
    public void kill(final int node)
    {
        processes.get(node).destroyForcibly();
    }

    private int firstRunning()
    {
        for (int node = 0; node < processes.size(); node++)
        {
            if (processes.get(node).isAlive())
            {
                return node;
            }
        }
        return 0;
    }

    /** Stops the nodes still running, remembering that the launcher stopped them. */
    private void stopRunning()
    {
        for (int node = 0; node < processes.size(); node++)
        {
            if (processes.get(node).isAlive())
            {
                stopped.add(node);
                processes.get(node).destroy();
            }
        }
    }

    /**
     * Destroys every node still running, then deletes the shared-memory files the dead nodes left. Idempotent.
     */
    @Override
    public void close()
    {
        stopRunning();
        for (final Process process : processes)
        {
            try
            {
                if (!process.waitFor(5, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        ShmNicProvider.removeStaleFiles();
    }

    private void startNode(
        final int node,
        final String mainClass,
        final List<String> args,
        final List<String> classPath,
        final List<String> jvmOptions,
        final Map<String, String> env,
        final Path input,
        final OutputStream node0Out)
    {
        final List<String> nodeArgs = new ArrayList<>();
        for (final String arg : args)
        {
            nodeArgs.add(arg.replace("{node}", Integer.toString(node)));
        }
        final List<String> command = JavaProcess.command(mainClass, classPath, jvmOptions, nodeArgs);
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("VIADSM_NODE_ID", Integer.toString(node));
        builder.environment().put("VIADSM_ADDRESSES", String.join(",", addresses));
        for (final Map.Entry<String, String> e : env.entrySet())
        {
            builder.environment().put(e.getKey(), e.getValue().replace("{node}", Integer.toString(node)));
        }
        builder.redirectInput(
            null == input ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.from(input.toFile()));
        if (0 != node)
        {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        final Process process;
        try
        {
            process = builder.start();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start node " + node + ": " + String.join(" ", command), ex);
        }
        processes.add(process);
        process.onExit().thenRun(() -> exitEvents.add(node));
        if (null == input)
        {
            try
            {
                process.getOutputStream().close();
            }
            catch (final IOException ignore)
            {
                // A node that reads standard input sees its end either way.
            }
        }
        final ArrayDeque<String> kept = new ArrayDeque<>();
        errors.add(kept);
        pumps.add(pump("node-" + node + "-stderr", process.getErrorStream(), null, kept));
        if (0 == node)
        {
            pumps.add(pump("node-0-stdout", process.getInputStream(), node0Out, null));
        }
    }

    private static Thread pump(
        final String name, final InputStream in, final OutputStream copy, final ArrayDeque<String> kept)
    {
        final Thread thread = new Thread(() ->
        {
            final byte[] buffer = new byte[8192];
            final StringBuilder line = new StringBuilder();
            try (InputStream input = in)
            {
                int read;
                while ((read = input.read(buffer)) > 0)
                {
                    if (null != copy)
                    {
                        copy.write(buffer, 0, read);
                        copy.flush();
                    }
                    if (null != kept)
                    {
                        keep(kept, line, new String(buffer, 0, read, StandardCharsets.UTF_8));
                    }
                }
            }
            catch (final IOException ignore)
            {
                // The process went away; what was read is kept.
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void keep(final ArrayDeque<String> kept, final StringBuilder line, final String text)
    {
        synchronized (kept)
        {
            for (int i = 0; i < text.length(); i++)
            {
                final char c = text.charAt(i);
                if ('\n' == c)
                {
                    kept.addLast(line.toString());
                    line.setLength(0);
                    if (kept.size() > KEPT_ERROR_LINES)
                    {
                        kept.removeFirst();
                    }
                }
                else
                {
                    line.append(c);
                }
            }
        }
    }

    /**
     * Paths of node-specific files named by a pattern with {@code {node}}.
     *
     * @param pattern e.g. {@code /tmp/run/node-{node}.json}.
     * @param nodes   number of nodes.
     * @return one path per node.
     */
    public static List<Path> perNode(final String pattern, final int nodes)
    {
        final List<Path> paths = new ArrayList<>();
        for (int node = 0; node < nodes; node++)
        {
            paths.add(Paths.get(pattern.replace("{node}", Integer.toString(node))));
        }
        return paths;
    }
}
