package org.viadsm.consistency;

/**
 * What a node counts. Every counter is a plain count except those whose unit says otherwise.
 */
public enum Counter
{
    /** Reads of an invalid page. */
    READ_FAULTS("read_faults", "count"),
    /** First writes to a page in an interval. */
    WRITE_FAULTS("write_faults", "count"),
    /** Pages copied from their home. */
    PAGES_FETCHED("pages_fetched", "count"),
    /** Twins made. */
    TWINS("twins", "count"),
    /** Diffs sent home (pages with at least one changed run). */
    DIFFS("diffs", "count"),
    /** Runs in those diffs, one RDMA Write each. */
    DIFF_RUNS("diff_runs", "count"),
    /** Bytes in those diffs. */
    DIFF_BYTES("diff_bytes", "bytes"),
    /** Intervals this node closed. */
    INTERVALS("intervals", "count"),
    /** Write notices applied from other nodes' intervals. */
    NOTICES_APPLIED("notices_applied", "count"),
    /** Cached pages invalidated. */
    INVALIDATIONS("invalidations", "count"),
    /** Times a peer's notice log had dropped intervals this node needed, so it invalidated every cached page. */
    NOTICE_LOG_OVERRUNS("notice_log_overruns", "count"),
    /** Lock acquires with no remote operation: the lock was cached at this node. */
    LOCK_ACQUIRES_LOCAL("lock_acquires_local", "count"),
    /** Lock acquires that went to other nodes. */
    LOCK_ACQUIRES_REMOTE("lock_acquires_remote", "count"),
    /** Time spent in lock acquires that were not local (with their consistency actions) and in condition waits. */
    LOCK_WAIT_NS("lock_wait_ns", "ns"),
    /** Barriers passed. */
    BARRIERS("barriers", "count"),
    /** Time spent in barriers, including their consistency actions. */
    BARRIER_WAIT_NS("barrier_wait_ns", "ns"),
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
    MESSAGES_RECEIVED("messages_received", "count");

    private final String label;
    private final String unit;

    Counter(final String label, final String unit)
    {
        this.label = label;
        this.unit = unit;
    }

    /**
     * The counter's name in reports and JSON.
     *
     * @return a snake_case label.
     */
    public String label()
    {
        return label;
    }

    /**
     * The counter's unit.
     *
     * @return {@code count}, {@code bytes} or {@code ns}.
     */
    public String unit()
    {
        return unit;
    }
}
