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
    /** Options of every node's JVM: one GC thread, as nodes outnumber cores. */
    public static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC");

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
