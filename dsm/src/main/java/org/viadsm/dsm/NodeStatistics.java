package org.viadsm.dsm;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.viadsm.consistency.Counters;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.page.SharedSpace;

/**
 * A node's statistics over time: its protocol counters, the time since they were last reset (up to the close),
 * the pages homed at the node, and the JSON file {@link Dsm#close()} leaves them in. Once a measured phase has
 * begun, they are the sums over the measured phases since the reset instead: the counters' growth and the time
 * between each phase's begin and end (up to now for a phase still under way).
 * <p>
 * <b>Note:</b> used by the thread that uses the node.
 */
final class NodeStatistics
{
    /**
     * The JVM's compilation time, in ns: the CPU time of its compiler threads where the system gives it (Linux),
     * else the compilation bean's sum of the compilations' elapsed times, else 0.
     */
    static final LongSupplier JVM_COMPILATION_NS = compilationClock();
    /**
     * {@link #JVM_COMPILATION_NS} as a phase's end reads it: over the compiler threads the clock knows, without
     * looking for new ones (see {@link CompilerThreadsCpu#knownThreadsNs()}), as the end of a program's phase is often
     * inside the time the program measures.
     */
    static final LongSupplier JVM_COMPILATION_NS_AT_END = JVM_COMPILATION_NS instanceof CompilerThreadsCpu cpu ?
        cpu::knownThreadsNs : JVM_COMPILATION_NS;
    /**
     * The JVM's thread bean, looked up once: {@code ManagementFactory.getThreadMXBean()} searches the platform's
     * components at each call (maps, streams), about half of the CPU a phase's end took where it was called there.
     */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final int nodeId;
    private final SharedSpace space;
    private final Counters counters;
    private final long[] phaseBegin;
    private final long[] measured;
    private final LongSupplier compilationNs;
    private final LongSupplier compilationNsAtEnd;
    private long startNs;
    private long endNs;
    private boolean stopped;
    private long phaseBeginNs;
    private long measuredNs;
    private long phaseBeginCpuNs;
    private long phaseThreadId;
    private long measuredCpuNs;
    private long phaseBeginJitNs;
    private long measuredJitNs;
    private int phases;
    private boolean inPhase;

    NodeStatistics(final int nodeId, final SharedSpace space, final Counters counters)
    {
        this(nodeId, space, counters, JVM_COMPILATION_NS, JVM_COMPILATION_NS_AT_END);
    }

    /**
     * Statistics that take the JVM's compilation time from {@code compilationNs}.
     *
     * @param compilationNs the JVM's compilation time so far, in ns, read at each phase's begin and end.
     */
    NodeStatistics(
        final int nodeId, final SharedSpace space, final Counters counters, final LongSupplier compilationNs)
    {
        this(nodeId, space, counters, compilationNs, compilationNs);
    }

    private NodeStatistics(
        final int nodeId, final SharedSpace space, final Counters counters, final LongSupplier compilationNs,
        final LongSupplier compilationNsAtEnd)
    {
        this.nodeId = nodeId;
        this.space = space;
        this.counters = counters;
        this.compilationNs = compilationNs;
        this.compilationNsAtEnd = compilationNsAtEnd;
        final int length = counters.snapshot().length;
        this.phaseBegin = new long[length];
        this.measured = new long[length];
    }

    /** A snapshot: the counters, the time since the last reset (up to the stop, if stopped) and the homes. */
    DsmStats snapshot()
    {
        final long nowNs = stopped ? endNs : System.nanoTime();
        final long[] values = counters.snapshot();
        if (0 == phases)
        {
            return DsmStats.of(nodeId, values, nowNs - startNs, homes(), 0, 0, 0);
        }
        long elapsedNs = measuredNs;
        long cpuNs = measuredCpuNs;
        long jitNs = measuredJitNs;
        for (int i = 0; i < values.length; i++)
        {
            values[i] = measured[i] + (inPhase ? values[i] - phaseBegin[i] : 0);
        }
        if (inPhase)
        {
            elapsedNs += nowNs - phaseBeginNs;
            cpuNs += threadCpuNs(phaseThreadId) - phaseBeginCpuNs;
            jitNs += compilationNs.getAsLong() - phaseBeginJitNs;
        }
        return DsmStats.of(nodeId, values, elapsedNs, homes(), phases, Math.max(0, cpuNs), Math.max(0, jitNs));
    }

    /** Sets the counters to zero and forgets the measured phases; times count from now. */
    void reset()
    {
        counters.reset();
        Arrays.fill(measured, 0L);
        measuredNs = 0;
        measuredCpuNs = 0;
        measuredJitNs = 0;
        phases = 0;
        inPhase = false;
        startNs = System.nanoTime();
    }

    /** Begins a measured phase (ending the one under way, if any). */
    void beginPhase()
    {
        endPhase();
        final long[] now = counters.snapshot();
        System.arraycopy(now, 0, phaseBegin, 0, now.length);
        phaseThreadId = Thread.currentThread().threadId();
        phaseBeginCpuNs = threadCpuNs(phaseThreadId);
        phaseBeginJitNs = compilationNs.getAsLong();
        phaseBeginNs = System.nanoTime();
        phases++;
        inPhase = true;
    }

    /** Ends the measured phase under way, adding what it counted to the sums; nothing if none is. */
    void endPhase()
    {
        if (inPhase)
        {
            final long nowNs = System.nanoTime();
            final long[] now = counters.snapshot();
            for (int i = 0; i < now.length; i++)
            {
                measured[i] += now[i] - phaseBegin[i];
            }
            measuredNs += nowNs - phaseBeginNs;
            measuredCpuNs += threadCpuNs(phaseThreadId) - phaseBeginCpuNs;
            measuredJitNs += compilationNsAtEnd.getAsLong() - phaseBeginJitNs;
            inPhase = false;
        }
    }

    /** Stops the clock: snapshots from now on cover the time up to {@code endNs}. */
    void stop(final long endNs)
    {
        this.endNs = endNs;
        stopped = true;
    }

    /** Writes a snapshot as one JSON line to {@code file}, if any; a failure is reported, not thrown. */
    void write(final Path file)
    {
        if (null != file)
        {
            try
            {
                Files.writeString(file, snapshot().toJson() + System.lineSeparator(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                System.err.println("node " + nodeId + ": cannot write statistics to " + file + ": " + ex);
            }
        }
    }

    /**
     * The CPU time of the thread that began the phase, whichever thread asks (the statistics may be read by
     * another), or 0 where the JVM does not measure it or the thread ended.
     */
    private static long threadCpuNs(final long threadId)
    {
        return THREADS.isThreadCpuTimeSupported() ? Math.max(0, THREADS.getThreadCpuTime(threadId)) : 0;
    }

    private static LongSupplier compilationClock()
    {
        final CompilerThreadsCpu cpu = CompilerThreadsCpu.ofThisJvm();
        return null != cpu ? cpu : NodeStatistics::jvmCompilationNs;
    }

    /**
     * The time this JVM's compiler threads spent compiling so far (each compilation counted when it ends), or 0 where
     * the JVM has no JIT or does not time it.
     */
    static long jvmCompilationNs()
    {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return null != jit && jit.isCompilationTimeMonitoringSupported() ?
            jit.getTotalCompilationTime() * 1_000_000L : 0;
    }

    private long homes()
    {
        long homes = 0;
        for (final PageTable table : space.tables())
        {
            for (int page = 0; page < table.pages(); page++)
            {
                if (table.homes().home(page) == nodeId)
                {
                    homes++;
                }
            }
        }
        return homes;
    }
}
