package org.viadsm.via;

/**
 * The names and defaults of a NIC's settings, which {@link NicContext#conclude()} reads: each is a system property
 * named here and an environment variable named after it ({@code viadsm.via.wait.spin.ns} is
 * {@code VIADSM_VIA_WAIT_SPIN_NS}); a value given to the context's setter wins over the property, which wins over
 * the variable. The README's configuration table lists them all.
 */
public final class NicConfiguration
{
    /** How long a wait spins before it sleeps or parks, in ns. */
    public static final String WAIT_SPIN_NS_PROP_NAME = "viadsm.via.wait.spin.ns";
    /** Default spin phase: 20 µs, long enough to catch a partner that answers within a few round trips. */
    public static final long WAIT_SPIN_NS_DEFAULT = 20_000L;
    /**
     * Default spin phase of a wait on a tcp NIC: 100 µs, longer than elsewhere because an answer that misses the
     * spin phase costs two thread wake-ups (the engine thread's, then the waiter's), about 50 µs here; a partner
     * whose spin phase is shorter than that parks too, and a ping-pong would then pay the wake-ups on every message.
     */
    public static final long TCP_WAIT_SPIN_NS_DEFAULT = 100_000L;

    /** First park of a wait after its spin phase, in ns; later parks double up to the maximum. */
    public static final String WAIT_PARK_MIN_NS_PROP_NAME = "viadsm.via.wait.park.min.ns";
    /** Default first park: 10 µs. */
    public static final long WAIT_PARK_MIN_NS_DEFAULT = 10_000L;

    /**
     * Longest single park of a wait that polls, in ns: bounds the latency of a completion nobody wakes the waiter
     * for. Waits on receive and completion queues sleep instead and are woken ({@link #WAIT_SLEEP_MAX_NS_PROP_NAME});
     * the waits that poll are those of connection set-up (a peer's answer, a request in the ring), send-queue waits
     * completed by another thread, and every wait of a provider that can neither unpark nor wake its waiters (shm
     * with {@code viadsm.shm.wakeup=false}, or where its wake-up sockets cannot be made). A polling waiter sees a
     * completion only at its next poll, so it costs up to this much (plus the kernel's timer slack, about 50 us),
     * while each polling thread wakes once per this period and takes CPU the working processes could use.
     * <p>
     * Measured on 2 cores, before waits could sleep: the one-way latency of a Send to a process polling in
     * {@code recvWait} for 3 ms (two processes, shared monotonic clock), and the CPU taken by 8 processes polling in
     * {@code recvWait} for 10 s:
     * <pre>
     *   cap       one-way mean   p50      p90        8 waiting processes, CPU
     *   1 ms      750 us         735 us   905 us      9% of one core
     *   500 us    345 us         320 us   515 us     14%
     *   200 us    175 us         155 us   275 us     25%
     *   100 us    165 us         105 us   220 us     33%
     *   50 us     130 us          85 us   160 us     46%
     * </pre>
     * Below 200 us the latency improves little (timer slack and the wake-up itself dominate) while the CPU keeps
     * rising; hence the default.
     */
    public static final String WAIT_PARK_MAX_NS_PROP_NAME = "viadsm.via.wait.park.max.ns";
    /** Default longest park of a polling wait: 200 us. */
    public static final long WAIT_PARK_MAX_NS_DEFAULT = 200_000L;

    /**
     * Longest single sleep of a wait that completers wake, in ns: waits on receive and completion queues of the
     * jvm provider (a completer unparks the waiter) and of the shm provider (a completer in another process writes
     * to the wake-up socket the waiter sleeps on; see the shm provider). It bounds the lateness of a wake-up that
     * failed, and sets how often a sleeping wait does its housekeeping: asynchronous errors, and the failure
     * detector's check every {@link #FAILURE_CHECK_INTERVAL_NS_PROP_NAME}, so a dead peer is noticed within about the
     * sum of the two. It does not set the latency of a wake-up, so it can be long: each sleeping thread wakes once
     * per this period.
     */
    public static final String WAIT_SLEEP_MAX_NS_PROP_NAME = "viadsm.via.wait.sleep.max.ns";
    /** Default longest sleep: 10 ms. */
    public static final long WAIT_SLEEP_MAX_NS_DEFAULT = 10_000_000L;

    /** How often a long wait checks the peers of the NIC's connected VIs, in ns. */
    public static final String FAILURE_CHECK_INTERVAL_NS_PROP_NAME = "viadsm.via.failure.check.interval.ns";
    /** Default failure check interval: 15 ms. */
    public static final long FAILURE_CHECK_INTERVAL_NS_DEFAULT = 15_000_000L;

    /**
     * How long a record a producer has reserved but not written (a completion-queue slot, an error or connection
     * request) may hold back the records behind it before the consumer takes the producer for dead (its process
     * killed between the two steps) and skips the record, in ns.
     */
    public static final String PRODUCER_STALL_TIMEOUT_NS_PROP_NAME = "viadsm.via.producer.stall.timeout.ns";
    /** Default producer stall timeout: 1 s, far beyond any descheduling of a live producer between two stores. */
    public static final long PRODUCER_STALL_TIMEOUT_NS_DEFAULT = 1_000_000_000L;

    /** Every this many posts on a VI (rounded up to a power of two), the poster checks that the peer is alive. */
    public static final String POST_LIVENESS_CHECK_PERIOD_PROP_NAME = "viadsm.via.post.liveness.check.period";
    /** Default: every 1024 posts. */
    public static final int POST_LIVENESS_CHECK_PERIOD_DEFAULT = 1024;

    /** VI records in a NIC's area, 1 to 65535. */
    public static final String MAX_VIS_PROP_NAME = "viadsm.via.max.vis";
    /** Default VI limit. */
    public static final int MAX_VIS_DEFAULT = 256;

    /** Descriptors per work queue, a power of two from 2 to 65536. */
    public static final String QUEUE_DEPTH_PROP_NAME = "viadsm.via.queue.depth";
    /** Default work-queue depth. */
    public static final int QUEUE_DEPTH_DEFAULT = 1024;

    /** Data segments per descriptor, 1 to 256. */
    public static final String MAX_SEGMENTS_PROP_NAME = "viadsm.via.max.segments";
    /** Default segment limit. */
    public static final int MAX_SEGMENTS_DEFAULT = 16;

    /** Completion queues per NIC, 1 to 4096. */
    public static final String MAX_CQS_PROP_NAME = "viadsm.via.max.cqs";
    /** Default completion-queue limit. */
    public static final int MAX_CQS_DEFAULT = 64;

    /** Entries one completion queue may hold, a power of two from 2 to 2^24. */
    public static final String MAX_CQ_ENTRIES_PROP_NAME = "viadsm.via.max.cq.entries";
    /** Default completion-queue capacity limit. */
    public static final int MAX_CQ_ENTRIES_DEFAULT = 1 << 16;

    /** Registration-table entries, 1 to {@link org.viadsm.via.memory.MemoryHandle#MAX_ENTRIES}. */
    public static final String MAX_REGIONS_PROP_NAME = "viadsm.via.max.regions";
    /** Default registration limit in regions. */
    public static final int MAX_REGIONS_DEFAULT = 4096;

    /** The largest transfer one descriptor may make, in bytes. */
    public static final String MAX_TRANSFER_SIZE_PROP_NAME = "viadsm.via.max.transfer.size";
    /** Default NIC transfer limit: 256 MiB. */
    public static final int MAX_TRANSFER_SIZE_DEFAULT = 1 << 28;

    /**
     * Directory of the files behind NIC areas and registered memory: the shared files of the shm provider, and the
     * deleted-at-once files other providers map; default {@code /dev/shm} where it exists, else
     * {@code java.io.tmpdir}.
     */
    public static final String SHM_DIR_PROP_NAME = "viadsm.shm.dir";

    /**
     * Whether shm waits sleep until a completer in another process wakes them through a wake-up socket (true, the
     * default), or poll with backoff, as a process cannot unpark another's threads (false).
     */
    public static final String SHM_WAKEUP_PROP_NAME = "viadsm.shm.wakeup";
    /** Default: waits sleep and are woken. */
    public static final boolean SHM_WAKEUP_DEFAULT = true;

    /**
     * How long the engine thread of a tcp NIC stays out of the selector after an application thread polled the
     * NIC's sockets from a wait's spin phase, in ns: while application threads spin, they read the sockets
     * themselves and the engine thread sleeps instead of being woken by every frame. Longer saves wake-ups, shorter
     * serves remote operations sooner once the application stops polling without parking. 0 turns application
     * polling off: the engine thread then does all the work and wakes waiting threads.
     */
    public static final String TCP_POLL_LEASE_NS_PROP_NAME = "viadsm.tcp.poll.lease.ns";
    /** Default poll lease: 100 µs. */
    public static final long TCP_POLL_LEASE_NS_DEFAULT = 100_000L;

    /**
     * Longest sleep of a tcp NIC's engine thread while application threads keep renewing the poll lease, in ns: its
     * sleeps start at the lease and double while the lease is renewed, so that a long ping-pong wakes it rarely;
     * this bounds how long it takes to notice that the application stopped polling without parking.
     */
    public static final String TCP_POLL_LEASE_MAX_NS_PROP_NAME = "viadsm.tcp.poll.lease.max.ns";
    /** Default longest sleep under a lease: 1 ms. */
    public static final long TCP_POLL_LEASE_MAX_NS_DEFAULT = 1_000_000L;

    /** Pause between attempts to connect to a tcp NIC that does not listen yet, in ns; at least 1 ms. */
    public static final String TCP_CONNECT_RETRY_NS_PROP_NAME = "viadsm.tcp.connect.retry.ns";
    /** Default connect retry pause: 20 ms. */
    public static final long TCP_CONNECT_RETRY_NS_DEFAULT = 20_000_000L;

    /**
     * Bytes a tcp connection may hold staged for the socket before its send queue stops taking descriptors off
     * (they wait, posted, until the socket drains); responses to the peer are staged regardless. At least 4096.
     */
    public static final String TCP_SEND_STAGING_LIMIT_PROP_NAME = "viadsm.tcp.send.staging.limit";
    /** Default staging limit: 256 KiB. */
    public static final int TCP_SEND_STAGING_LIMIT_DEFAULT = 256 * 1024;

    /**
     * How long a tcp connection may bring nothing from the peer before the peer is taken for lost (its link is
     * down, or its process stopped), in ns; at least 100 ms. Quiet connections carry heartbeats, five per timeout,
     * so a live peer is never silent that long, while TCP alone would notice a link that went down only after
     * minutes, or never on an idle connection. Connections are checked twenty times per timeout.
     */
    public static final String TCP_PEER_TIMEOUT_NS_PROP_NAME = "viadsm.tcp.peer.timeout.ns";
    /** Default peer timeout: 4 s, so that a link that goes down is noticed within 5 s, scheduling delays included. */
    public static final long TCP_PEER_TIMEOUT_NS_DEFAULT = 4_000_000_000L;

    /**
     * When a ucx NIC runs a progress thread ({@link ProgressThread}: {@code auto}, {@code always} or {@code never}):
     * over TCP, UCX performs the peers' one-sided operations on the NIC's memory in this process, which needs a
     * thread of it to make progress.
     */
    public static final String UCX_PROGRESS_THREAD_PROP_NAME = "viadsm.ucx.progress.thread";
    /** Default: a progress thread once a link may talk TCP. */
    public static final ProgressThread UCX_PROGRESS_THREAD_DEFAULT = ProgressThread.AUTO;

    /**
     * How long a ucx link watched by heartbeats may bring none before its peer is taken for lost (its link is down,
     * or its process stopped), in ns; at least 100 ms. Links whose both ends run a progress thread (across hosts, or
     * over UCX's TCP transport) carry heartbeats, five per timeout, from that thread, and it checks them twenty times
     * per timeout: UCX itself does not tell an idle endpoint that its link went down.
     */
    public static final String UCX_PEER_TIMEOUT_NS_PROP_NAME = "viadsm.ucx.peer.timeout.ns";
    /** Default ucx peer timeout: 4 s, so that a link that goes down is noticed within 5 s, as over tcp. */
    public static final long UCX_PEER_TIMEOUT_NS_DEFAULT = 4_000_000_000L;

    private NicConfiguration()
    {
    }
}
