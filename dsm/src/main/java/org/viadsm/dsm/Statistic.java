package org.viadsm.dsm;

/**
 * What a node's {@link DsmStats} count, each with its name in reports and JSON and its unit. The {@code *_NS}
 * statistics split the node's time since it joined (or {@link Dsm#resetStats()}), or its measured phases, into
 * where it went: computing outside the DSM ({@link #COMPUTE_NS}), read faults, write faults, releases, and lock,
 * barrier and semaphore waits.
 */
public enum Statistic
{
    /** Reads of an invalid page. */
    READ_FAULTS("read_faults", "count"),
    /** Time spent in read faults, fetches included. */
    READ_FAULT_NS("read_fault_ns", "ns"),
    /** First writes to a page in an interval. */
    WRITE_FAULTS("write_faults", "count"),
    /** Time spent in write faults that fetch or twin a page (a fault that only marks a home page writable is not). */
    WRITE_FAULT_NS("write_fault_ns", "ns"),
    /** Pages copied from their home. */
    PAGES_FETCHED("pages_fetched", "count"),
    /** Pages read ahead of a fault and then used. */
    PREFETCHED_USED("prefetched_used", "count"),
    /** Pages read ahead of a fault and invalidated unused. */
    PREFETCHED_UNUSED("prefetched_unused", "count"),
    /** Fetches that first joined the copysets of the pages they read, at the pages' home (remote atomics). */
    COPYSET_JOINS("copyset_joins", "count"),
    /** Pages whose copysets this node left, having stopped reading them. */
    COPYSET_LEAVES("copyset_leaves", "count"),
    /**
     * Copyset words joined again after this node had left some of their pages: it left too early, and its arrays
     * wait longer before they leave.
     */
    COPYSET_REJOINS("copyset_rejoins", "count"),
    /**
     * Pages this node is home of that became exclusive at a release: written, and cached nowhere else, so
     * writable across intervals with no write fault, twin, diff or notice.
     */
    EXCLUSIVE_GAINS("exclusive_gains", "count"),
    /** Exclusive pages that another node started to cache: each got a write notice and its next write faults. */
    EXCLUSIVE_LOSSES("exclusive_losses", "count"),
    /** Twins made. */
    TWINS("twins", "count"),
    /**
     * Pages of other nodes written through overwrite views with neither fetch nor twin (their overwritten ranges
     * went home whole, each counted as a diff of one run).
     */
    OVERWRITES("overwrites", "count"),
    /** Diffs sent home (pages with at least one changed run). */
    DIFFS("diffs", "count"),
    /** Runs in those diffs. */
    DIFF_RUNS("diff_runs", "count"),
    /**
     * RDMA Writes that carried those runs: one per run, except that a range written across a page boundary goes
     * as one write (the run ending one page and the run starting the next, with the same home).
     */
    DIFF_WRITES("diff_writes", "count"),
    /** Bytes in those diffs. */
    DIFF_BYTES("diff_bytes", "bytes"),
    /** Intervals this node closed. */
    INTERVALS("intervals", "count"),
    /** Time spent closing intervals at releases (unlock, barrier, semaphore post): diffs, write notices. */
    RELEASE_NS("release_ns", "ns"),
    /** Write notices applied from other nodes' intervals. */
    NOTICES_APPLIED("notices_applied", "count"),
    /** Intervals whose notices a lock's releaser forwarded with its grant and this node applied. */
    INTERVALS_FORWARDED("intervals_forwarded", "count"),
    /** Cached pages invalidated. */
    INVALIDATIONS("invalidations", "count"),
    /** Times a peer's notice log had dropped intervals this node needed, so it invalidated every cached page. */
    NOTICE_LOG_OVERRUNS("notice_log_overruns", "count"),
    /** Lock acquires with no remote operation: the lock was cached at this node. */
    LOCK_ACQUIRES_LOCAL("lock_acquires_local", "count"),
    /** Lock acquires that went to other nodes. */
    LOCK_ACQUIRES_REMOTE("lock_acquires_remote", "count"),
    /** Time spent in lock acquires that were not local (with their acquires of write notices) and condition waits. */
    LOCK_WAIT_NS("lock_wait_ns", "ns"),
    /** Barriers passed. */
    BARRIERS("barriers", "count"),
    /** Time spent in barriers and collective calls (allocation), their acquires included, their releases not. */
    BARRIER_WAIT_NS("barrier_wait_ns", "ns"),
    /** Barriers this node reached last (its arrival completed the count). */
    BARRIERS_LAST("barriers_last", "count"),
    /**
     * Time spent in the barriers this node reached last, part of {@link #BARRIER_WAIT_NS}: what a barrier costs
     * with no wait for a later node. The rest of the barrier time is waiting for the nodes that arrived later.
     */
    BARRIER_LAST_NS("barrier_last_ns", "ns"),
    /**
     * Barrier rounds whose message had not come when the wait's poll phase ended, so the wait slept until it came
     * (a wake-up each). With no more nodes than cores a wait polls for about twice its recent length first.
     */
    BARRIER_SLEEPS("barrier_sleeps", "count"),
    /** Semaphore waits. */
    SEMAPHORE_WAITS("semaphore_waits", "count"),
    /** Time spent in semaphore waits. */
    SEMAPHORE_WAIT_NS("semaphore_wait_ns", "ns"),
    /** RDMA Reads issued. */
    RDMA_READS("rdma_reads", "count"),
    /** Bytes RDMA Read. */
    RDMA_READ_BYTES("rdma_read_bytes", "bytes"),
    /** RDMA Writes issued (with or without notification). */
    RDMA_WRITES("rdma_writes", "count"),
    /** Bytes RDMA Written. */
    RDMA_WRITE_BYTES("rdma_write_bytes", "bytes"),
    /** Remote atomics issued. */
    ATOMICS("atomics", "count"),
    /** Notifications sent (RDMA Writes with immediate data, each consuming a receive at the target). */
    MESSAGES_SENT("messages_sent", "count"),
    /** Notifications received. */
    MESSAGES_RECEIVED("messages_received", "count"),
    /**
     * Time outside the DSM: the time since the node joined (or its statistics were reset) minus the faults,
     * releases and waits above. For a closed node, up to the start of {@link Dsm#close()}.
     */
    COMPUTE_NS("compute_ns", "ns"),
    /** Pages this node is home of, over every shared array (under first touch: those it has claimed so far). */
    HOMES("homes", "pages"),
    /**
     * The measured phases the other statistics are the sums over ({@link Dsm#beginMeasuredPhase()}): 0 when they
     * cover the whole time since the node joined or reset its statistics.
     */
    MEASURED_PHASES("measured_phases", "count"),
    /**
     * CPU time of the thread that marked the measured phases, in them (0 without phases): beside the phases'
     * elapsed time it shows how long the node's thread was not running, waiting for a core or asleep.
     */
    PHASE_CPU_NS("phase_cpu_ns", "ns"),
    /**
     * Time the node's JVM spent compiling in the measured phases (0 without phases): on Linux the CPU time its JIT
     * compiler threads ran in them, from the kernel's per-thread scheduler statistics; elsewhere the sum of the
     * elapsed times of the compilations that ended in them, as the JVM's
     * {@link java.lang.management.CompilationMXBean} times them (which includes the compiler threads' own waits for
     * a core). Beside {@link #PHASE_CPU_NS} it shows whose core a node's thread waited for: a JVM's compilations run
     * on its own threads, on the cores the nodes share. Nodes that share a JVM (the jvm provider) each count all of
     * that JVM's.
     */
    PHASE_JIT_NS("phase_jit_ns", "ns");

    private final String label;
    private final String unit;

    Statistic(final String label, final String unit)
    {
        this.label = label;
        this.unit = unit;
    }

    /**
     * The statistic's name in reports and JSON.
     *
     * @return a snake_case label.
     */
    public String label()
    {
        return label;
    }

    /**
     * The statistic's unit.
     *
     * @return {@code count}, {@code bytes}, {@code ns} or {@code pages}.
     */
    public String unit()
    {
        return unit;
    }
}
