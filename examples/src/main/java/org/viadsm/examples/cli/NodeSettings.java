package org.viadsm.examples.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What the launcher gives every node: enough lock and semaphore ids for the SPLASH programs (BARNES locks cells,
 * WATER molecules), and the options of a node's JVM. Tools that run applications in their own JVMs (benchmarks)
 * use the same.
 */
public final class NodeSettings
{
    /** Lock ids every node is configured with. */
    public static final int MAX_LOCKS = 4096;
    /** Semaphore ids every node is configured with. */
    public static final int MAX_SEMAPHORES = 1024;
    /**
     * The JIT command that compiles the DSM's port (its calls to the NIC: reads, writes, atomics, notifications) out
     * of line in a node's JVM, see {@link #JVM_OPTIONS}.
     */
    public static final String PORT_OUT_OF_LINE = "-XX:CompileCommand=dontinline,org.viadsm.dsm.ViaProtocolPort::*";

    /**
     * Options of every node's JVM: one GC thread, as nodes outnumber cores; and the DSM's port compiled out of line
     * ({@link #PORT_OUT_OF_LINE}, after {@code quiet}, which keeps the JVM from announcing the command on standard
     * output, the application's).
     * <p>
     * Each port operation inlines the NIC's whole posting path (its checks, the send queue, every operation kind's
     * execution), and C2 inlined that into every protocol method that calls the port, several times into some
     * (a notice read, a release, a barrier's round: 20 to 135 KB of code each). Those methods run a few times per
     * synchronization, so they reach C2's thresholds one after the other over tens of warm runs, and each node's JVM
     * compiles them for itself: in warm runs 30 to 150 of {@code run fft --nodes 2 -m16 -t} each node's C2 thread was
     * busy 6 to 8 s of 8.4, as much CPU as the node's own thread, on a machine of 2 cores. Compiled out of line, the
     * posting path is compiled once, and the protocol methods stay small; a port call costs a call more, against an
     * operation of a microsecond or more. Warm runs of {@code run radix --nodes 2 --warm 40 -n1048576 -r1024 -t}, 3
     * alternated pairs at a load of 8 to 10, runs 10 to 40: node JVMs' compiler CPU 1 661, 1 106, 1 224 ms (node 0)
     * against 802, 771, 1 121 ms, the node thread's CPU per timed phase (runs 12-16) 22.6, 18.6, 20.1 ms against 18.4,
     * 16.7, 18.0 ms.
     */
    public static final List<String> JVM_OPTIONS =
        List.of("-XX:+UseSerialGC", "-XX:CompileCommand=quiet", PORT_OUT_OF_LINE);

    private NodeSettings()
    {
    }

    /** Environment variable with the user's extra options of node JVMs, separated by white space. */
    public static final String EXTRA_OPTIONS_ENV = "VIADSM_NODE_JAVA_OPTS";

    /**
     * The options of a node's (or a benchmark run's) JVM: {@link #JVM_OPTIONS}, the jar's startup cache if this JVM
     * was started from one, then the options in {@link #EXTRA_OPTIONS_ENV} (last, so that they win).
     *
     * @return the options.
     */
    public static List<String> jvmOptions()
    {
        return jvmOptions(System.getenv(EXTRA_OPTIONS_ENV));
    }

    /**
     * {@link #jvmOptions()} with the given extra options instead of the environment's.
     *
     * @param extra options separated by white space; {@code null} or blank for none.
     * @return the options.
     */
    static List<String> jvmOptions(final String extra)
    {
        final List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.addAll(AotCache.jvmOptions());
        options.addAll(extraOptions(extra));
        return options;
    }

    /**
     * The user's extra options of a node JVM, split at white space.
     *
     * @param extra options separated by white space, as {@link #EXTRA_OPTIONS_ENV} holds them; {@code null} or blank
     *              for none.
     * @return the options in their order; empty for none.
     */
    public static List<String> extraOptions(final String extra)
    {
        return null == extra || extra.isBlank() ? List.of() : List.of(extra.strip().split("\\s+"));
    }
}
