package org.viadsm.dsm.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.DsmStats;

/**
 * Runs a cluster of nodes as threads of this JVM, over any provider: {@code jvm} (the natural choice), {@code shm}
 * or {@code tcp} on loopback.
 * <pre>{@code
 * List<DsmStats> stats = LocalCluster.run(4, "jvm", context -> { }, dsm ->
 * {
 *     SharedLongArray counter = dsm.allocLongs("counter", 1);
 *     ...
 * });
 * }</pre>
 */
public final class LocalCluster
{
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    /** The lowest port a cluster's tcp or ucx node is given; below are the well-known and registered services. */
    private static final int FIRST_PORT = 10_000;
    private static final int PORT_ATTEMPTS = 1_000;
    private static final int DEFAULT_EPHEMERAL_LOW = 32_768;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private LocalCluster()
    {
    }

    /**
     * Fresh NIC addresses for a cluster of {@code nodes} nodes on this host.
     *
     * @param provider {@code jvm}, {@code shm}, {@code tcp} or {@code ucx}.
     * @param nodes    number of nodes.
     * @return one address per node, node 0 first.
     * @throws IllegalArgumentException if the provider is unknown or nodes is not positive.
     */
    public static List<String> addresses(final String provider, final int nodes)
    {
        if (nodes < 1)
        {
            throw new IllegalArgumentException("a cluster needs at least one node: nodes=" + nodes);
        }
        final String name = "c" + ProcessHandle.current().pid() + "x" + CLUSTERS.incrementAndGet();
        final List<String> addresses = new ArrayList<>();
        switch (provider.toLowerCase(Locale.ROOT))
        {
            case "jvm":
            case "shm":
                for (int i = 0; i < nodes; i++)
                {
                    addresses.add(provider.toLowerCase(Locale.ROOT) + ":" + name + "n" + i);
                }
                return addresses;
            case "tcp":
            case "ucx":
                for (final int port : freePorts(nodes))
                {
                    addresses.add(provider.toLowerCase(Locale.ROOT) + ":127.0.0.1:" + port);
                }
                return addresses;
            default:
                throw new IllegalArgumentException(
                    "unknown provider '" + provider + "'; expected jvm, shm, tcp or ucx");
        }
    }

    /**
     * Runs {@code program} on {@code nodes} nodes, each on its own thread, and waits for all of them.
     *
     * @param nodes     number of nodes.
     * @param provider  {@code jvm}, {@code shm} or {@code tcp}.
     * @param configure applied to every node's context (page size, timeouts...) after id and addresses are set.
     * @param program   what every node runs.
     * @return every node's statistics, node 0 first.
     * @throws ClusterFailure naming the first node that failed.
     */
    public static List<DsmStats> run(
        final int nodes, final String provider, final Consumer<DsmContext> configure, final DsmProgram program)
    {
        final List<String> addresses = addresses(provider, nodes);
        final DsmStats[] stats = new DsmStats[nodes];
        final Throwable[] failures = new Throwable[nodes];
        final long[] failedAt = new long[nodes];
        final Thread[] threads = new Thread[nodes];
        for (int i = 0; i < nodes; i++)
        {
            final int id = i;
            threads[i] = new Thread(() ->
            {
                final DsmContext context = new DsmContext().nodeId(id).addresses(addresses);
                configure.accept(context);
                try (Dsm dsm = Dsm.join(context))
                {
                    try
                    {
                        program.run(dsm);
                    }
                    catch (final Throwable ex)
                    {
                        // Noted before closing: closing waits for the other nodes, which this failure may fail.
                        failedAt[id] = System.nanoTime();
                        failures[id] = ex;
                    }
                    finally
                    {
                        stats[id] = dsm.stats();
                    }
                }
                catch (final Throwable ex)
                {
                    if (null == failures[id])
                    {
                        failedAt[id] = System.nanoTime();
                        failures[id] = ex;
                    }
                    else
                    {
                        failures[id].addSuppressed(ex);
                    }
                }
            }, "node-" + i);
            threads[i].start();
        }
        join(threads);
        int first = -1;
        for (int i = 0; i < nodes; i++)
        {
            if (null != failures[i] && (first < 0 || failedAt[i] < failedAt[first]))
            {
                first = i;
            }
        }
        if (first >= 0)
        {
            final ClusterFailure failure = new ClusterFailure(
                first, "node " + first + " failed: " + failures[first], failures[first]);
            for (int i = 0; i < nodes; i++)
            {
                if (i != first && null != failures[i])
                {
                    failure.addSuppressed(failures[i]);
                }
            }
            throw failure;
        }
        return Arrays.asList(stats);
    }

    private static void join(final Thread[] threads)
    {
        for (final Thread thread : threads)
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new ClusterFailure(-1, "interrupted while waiting for the nodes", ex);
            }
        }
    }

    private static int[] freePorts(final int count)
    {
        // The ports are closed again before the nodes listen on them. A port of the kernel's ephemeral range could
        // meanwhile be handed to a bind to port 0 (UCX's own transports bind some while a node's NIC opens), so the
        // ports are taken at random below that range, where only explicit binds go.
        final int below = ephemeralLow();
        final List<ServerSocket> sockets = new ArrayList<>();
        try
        {
            final int[] ports = new int[count];
            for (int i = 0; i < count; i++)
            {
                final ServerSocket socket = bindBelow(below);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot find free TCP ports on loopback", ex);
        }
        finally
        {
            for (final ServerSocket socket : sockets)
            {
                try
                {
                    socket.close();
                }
                catch (final IOException ignore)
                {
                    // Only the port number was wanted.
                }
            }
        }
    }

    private static ServerSocket bindBelow(final int below) throws IOException
    {
        final ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; below > FIRST_PORT && attempt < PORT_ATTEMPTS; attempt++)
        {
            final ServerSocket socket = new ServerSocket();
            try
            {
                // no SO_REUSEADDR: a port that a closed connection still holds (TIME_WAIT) is refused here too
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress("127.0.0.1", random.nextInt(FIRST_PORT, below)));
                return socket;
            }
            catch (final IOException ex)
            {
                socket.close();
            }
        }
        final ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(false);
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        return socket;
    }

    /**
     * The first port of the kernel's ephemeral range (Linux's {@code ip_local_port_range}), or the usual default.
     */
    private static int ephemeralLow()
    {
        try
        {
            // read by lines: a file of /proc has size 0, and Files.readString took only its first byte
            final String range = Files.readAllLines(EPHEMERAL_RANGE).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        }
        catch (final IOException | RuntimeException ex)
        {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
