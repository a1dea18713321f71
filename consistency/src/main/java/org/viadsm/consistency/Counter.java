package org.viadsm.consistency;

/**
 * What a node counts: plain counts, except the {@code *_NS} times in nanoseconds and the {@code *_BYTES} sizes.
 * The dsm module reports them under the same names.
 */
public enum Counter
{
    /** Reads of an invalid page. */
    READ_FAULTS,
    /** Time spent in read faults, fetches included. */
    READ_FAULT_NS,
    /** First writes to a page in an interval. */
    WRITE_FAULTS,
    /**
     * Time spent in write faults that fetch or twin a page; a write fault that only marks a valid home page
     * writable costs less than reading the clock and is not timed.
     */
    WRITE_FAULT_NS,
    /** Pages copied from their home. */
    PAGES_FETCHED,
    /** Pages read ahead of a fault and then used. */
    PREFETCHED_USED,
    /** Pages read ahead of a fault and invalidated unused. */
    PREFETCHED_UNUSED,
    /** Fetches that first joined the copysets of the pages they read, at the pages' home. */
    COPYSET_JOINS,
    /** Pages whose copysets this node left, having stopped reading them. */
    COPYSET_LEAVES,
    /** Copyset words joined again after this node had left some of their pages: it left too early. */
    COPYSET_REJOINS,
    /** Pages this node is home of that became exclusive at a release: written, and cached nowhere else. */
    EXCLUSIVE_GAINS,
    /** Exclusive pages that another node started to cache: each got a write notice. */
    EXCLUSIVE_LOSSES,
    /** Twins made. */
    TWINS,
    /**
     * Pages of other nodes written through overwrite views with neither fetch nor twin: their overwritten ranges
     * went home whole, as diffs of one run each.
     */
    OVERWRITES,
    /** Diffs sent home (pages with at least one changed run). */
    DIFFS,
    /** Runs in those diffs. */
    DIFF_RUNS,
    /**
     * RDMA Writes that carried those runs: one per run, but a run that ends at the end of its page and the next
     * page's run that starts at its start (contiguous in the array, with the same home) go as one.
     */
    DIFF_WRITES,
    /** Bytes in those diffs. */
    DIFF_BYTES,
    /** Intervals this node closed. */
    INTERVALS,
    /** Time spent closing intervals at releases: diffs sent home, notices published. */
    RELEASE_NS,
    /** Write notices applied from other nodes' intervals. */
    NOTICES_APPLIED,
    /** Intervals whose notices a lock's releaser forwarded with its grant and this node applied. */
    INTERVALS_FORWARDED,
    /** Cached pages invalidated. */
    INVALIDATIONS,
    /** Times a peer's notice log had dropped intervals this node needed, so it invalidated every cached page. */
    NOTICE_LOG_OVERRUNS,
    /** Lock acquires with no remote operation: the lock was cached at this node. */
    LOCK_ACQUIRES_LOCAL,
    /** Lock acquires that went to other nodes. */
    LOCK_ACQUIRES_REMOTE,
    /** Time spent in lock acquires that were not local (with their consistency actions) and in condition waits. */
    LOCK_WAIT_NS,
    /** Barriers passed. */
    BARRIERS,
    /**
     * Time spent in barriers, collective ones (allocation) included, with their acquires but not their releases
     * (see {@link #RELEASE_NS}).
     */
    BARRIER_WAIT_NS,
    /** Barriers this node reached last (its arrival completed the count); with 2 nodes the other one waited. */
    BARRIERS_LAST,
    /**
     * Time spent in the barriers this node reached last: the barrier's own cost (messages, acquire), with no wait
     * for a later node; part of {@link #BARRIER_WAIT_NS}.
     */
    BARRIER_LAST_NS,
    /**
     * Barrier rounds whose message was still missing when the wait's poll phase ended, so the wait slept (or
     * polled with backoff) until it came.
     */
    BARRIER_SLEEPS,
    /** Semaphore waits. */
    SEMAPHORE_WAITS,
    /** Time spent in semaphore waits. */
    SEMAPHORE_WAIT_NS,
    /** RDMA Reads issued. */
    RDMA_READS,
    /** Bytes RDMA Read. */
    RDMA_READ_BYTES,
    /** RDMA Writes issued (with or without notification). */
    RDMA_WRITES,
    /** Bytes RDMA Written. */
    RDMA_WRITE_BYTES,
    /** Remote atomics issued. */
    ATOMICS,
    /** Notifications sent (RDMA Writes with immediate data, each consuming a receive at the target). */
    MESSAGES_SENT,
    /** Notifications received. */
    MESSAGES_RECEIVED
}
