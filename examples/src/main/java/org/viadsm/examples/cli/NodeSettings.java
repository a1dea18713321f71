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

    /**
     * The options of a node's (or a benchmark run's) JVM: {@link #JVM_OPTIONS}, and the jar's startup cache if
     * this JVM was started from one.
     *
     * @return the options.
     */
    public static List<String> jvmOptions()
    {
        final List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.addAll(AotCache.jvmOptions());
        return options;
    }
}
