package org.viadsm.via.engine;

import org.agrona.BitUtil;

/**
 * Tuning knobs of the engine, read from system properties with defaults: how waits spin and park, how often long
 * waits look for dead peers, and the sizes of a NIC's shared area. A property that is set but malformed or out of
 * range fails the NIC's open with an {@link IllegalArgumentException} naming it, rather than being ignored.
 */
public final class Configuration
{
    /** How long a wait spins before it parks, in ns. */
    public static final String WAIT_SPIN_NS_PROP_NAME = "viadsm.via.wait.spin.ns";
    /** Default spin phase: 20 µs, long enough to catch a partner that answers within a few round trips. */
    public static final long WAIT_SPIN_NS_DEFAULT = 20_000L;

    /** First park of a wait after its spin phase, in ns; later parks double up to the maximum. */
    public static final String WAIT_PARK_MIN_NS_PROP_NAME = "viadsm.via.wait.park.min.ns";
    /** Default first park: 10 µs. */
    public static final long WAIT_PARK_MIN_NS_DEFAULT = 10_000L;

    /**
     * Longest single park of a wait that polls, in ns: bounds the latency of a completion nobody wakes the waiter
     * for. Waits on receive and completion queues sleep instead and are woken ({@link #WAIT_SLEEP_MAX_NS_PROP_NAME});
     * the waits that poll are those of connection set-up (a peer's answer, a request in the ring), send-queue waits
     * completed by another thread, and every wait of a provider that can neither unpark nor ring its waiters (shm
     * with {@code viadsm.shm.doorbell=false}, or where its doorbells cannot be made). A polling waiter sees a
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
     * jvm provider (a completer unparks the waiter) and of the shm provider (a completer in another process rings
     * the doorbell the waiter sleeps on, a UNIX-domain socket; see the shm provider). It bounds the lateness of a
     * wake-up that failed (a doorbell that could not be rung), and sets how often a sleeping wait does its
     * housekeeping: asynchronous errors, and the failure detector's check every
     * {@link #FAILURE_CHECK_INTERVAL_NS_PROP_NAME}, so a dead peer is noticed within about the sum of the two. It no
     * longer sets the latency of a wake-up, so it can be long: each sleeping thread wakes once per this period.
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

    /** Every this many posts on a VI, the poster checks that the peer's process is alive. */
    public static final String POST_LIVENESS_CHECK_PERIOD_PROP_NAME = "viadsm.via.post.liveness.check.period";
    /** Default: every 1024 posts (a power of two). */
    public static final int POST_LIVENESS_CHECK_PERIOD_DEFAULT = 1024;

    /** VI records in a NIC's area. */
    public static final String MAX_VIS_PROP_NAME = "viadsm.via.max.vis";
    /** Default VI limit. */
    public static final int MAX_VIS_DEFAULT = 256;

    /** Descriptors per work queue, a power of two. */
    public static final String QUEUE_DEPTH_PROP_NAME = "viadsm.via.queue.depth";
    /** Default work-queue depth. */
    public static final int QUEUE_DEPTH_DEFAULT = 1024;

    /** Data segments per descriptor. */
    public static final String MAX_SEGMENTS_PROP_NAME = "viadsm.via.max.segments";
    /** Default segment limit. */
    public static final int MAX_SEGMENTS_DEFAULT = 16;

    /** Completion queues per NIC. */
    public static final String MAX_CQS_PROP_NAME = "viadsm.via.max.cqs";
    /** Default completion-queue limit. */
    public static final int MAX_CQS_DEFAULT = 64;

    /** Entries one completion queue may hold, a power of two. */
    public static final String MAX_CQ_ENTRIES_PROP_NAME = "viadsm.via.max.cq.entries";
    /** Default completion-queue capacity limit. */
    public static final int MAX_CQ_ENTRIES_DEFAULT = 1 << 16;

    /** Registration-table entries. */
    public static final String MAX_REGIONS_PROP_NAME = "viadsm.via.max.regions";
    /** Default registration limit in regions. */
    public static final int MAX_REGIONS_DEFAULT = 4096;

    /** The largest transfer one descriptor may make, in bytes. */
    public static final String MAX_TRANSFER_SIZE_PROP_NAME = "viadsm.via.max.transfer.size";
    /** Default NIC transfer limit: 256 MiB. */
    public static final int MAX_TRANSFER_SIZE_DEFAULT = 1 << 28;

    private Configuration()
    {
    }

    /**
     * Spin phase of a wait.
     *
     * @return ns.
     */
    public static long waitSpinNs()
    {
        return waitSpinNs(WAIT_SPIN_NS_DEFAULT);
    }

    /**
     * Spin phase of a wait, with a provider's own default when the property is not set.
     *
     * @param defaultNs the provider's default.
     * @return ns.
     */
    public static long waitSpinNs(final long defaultNs)
    {
        return longProperty(WAIT_SPIN_NS_PROP_NAME, defaultNs, 0L);
    }

    /**
     * First park of a wait.
     *
     * @return ns.
     */
    public static long waitParkMinNs()
    {
        return longProperty(WAIT_PARK_MIN_NS_PROP_NAME, WAIT_PARK_MIN_NS_DEFAULT, 1L);
    }

    /**
     * Longest park of a wait.
     *
     * @return ns.
     */
    public static long waitParkMaxNs()
    {
        return Math.max(waitParkMinNs(), longProperty(WAIT_PARK_MAX_NS_PROP_NAME, WAIT_PARK_MAX_NS_DEFAULT, 1L));
    }

    /**
     * Longest sleep of a wait that completers wake.
     *
     * @return ns, at least the first park.
     */
    public static long waitSleepMaxNs()
    {
        return Math.max(waitParkMinNs(), longProperty(WAIT_SLEEP_MAX_NS_PROP_NAME, WAIT_SLEEP_MAX_NS_DEFAULT, 1L));
    }

    /**
     * Failure check interval of long waits.
     *
     * @return ns.
     */
    public static long failureCheckIntervalNs()
    {
        return longProperty(FAILURE_CHECK_INTERVAL_NS_PROP_NAME, FAILURE_CHECK_INTERVAL_NS_DEFAULT, 0L);
    }

    /**
     * How long a reserved but unwritten record may hold back the records behind it.
     *
     * @return ns, at least 1.
     */
    public static long producerStallTimeoutNs()
    {
        return longProperty(PRODUCER_STALL_TIMEOUT_NS_PROP_NAME, PRODUCER_STALL_TIMEOUT_NS_DEFAULT, 1L);
    }

    /**
     * Posts between liveness checks of a VI's peer.
     *
     * @return a power of two.
     */
    public static int postLivenessCheckPeriod()
    {
        return BitUtil.findNextPositivePowerOfTwo(
            intProperty(POST_LIVENESS_CHECK_PERIOD_PROP_NAME, POST_LIVENESS_CHECK_PERIOD_DEFAULT, 1));
    }

    /**
     * Reads every knob of the engine, so that a provider's open fails on a malformed one before it allocates
     * anything.
     *
     * @throws IllegalArgumentException naming the first property that is malformed or out of range.
     */
    public static void validate()
    {
        waitSpinNs();
        waitSleepMaxNs();
        waitParkMaxNs();
        failureCheckIntervalNs();
        producerStallTimeoutNs();
        postLivenessCheckPeriod();
        maxTransferSize();
        geometry();
    }

    /**
     * The geometry of a new NIC's area, from the properties.
     *
     * @return the geometry.
     * @throws IllegalArgumentException if a property is malformed or out of range.
     */
    public static NicGeometry geometry()
    {
        return new NicGeometry(
            intProperty(MAX_VIS_PROP_NAME, MAX_VIS_DEFAULT, 1),
            intProperty(QUEUE_DEPTH_PROP_NAME, QUEUE_DEPTH_DEFAULT, 1),
            intProperty(MAX_SEGMENTS_PROP_NAME, MAX_SEGMENTS_DEFAULT, 1),
            intProperty(MAX_CQS_PROP_NAME, MAX_CQS_DEFAULT, 1),
            intProperty(MAX_CQ_ENTRIES_PROP_NAME, MAX_CQ_ENTRIES_DEFAULT, 1),
            intProperty(MAX_REGIONS_PROP_NAME, MAX_REGIONS_DEFAULT, 1),
            NicGeometry.ERROR_RING_CAPACITY_DEFAULT,
            NicGeometry.REQUEST_RING_CAPACITY_DEFAULT);
    }

    /**
     * The NIC transfer limit.
     *
     * @return bytes.
     */
    public static int maxTransferSize()
    {
        return intProperty(MAX_TRANSFER_SIZE_PROP_NAME, MAX_TRANSFER_SIZE_DEFAULT, 1);
    }

    /**
     * A whole-number system property.
     *
     * @param name         the property.
     * @param defaultValue its value when it is not set.
     * @param min          the least value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the property if it is not a whole number or is below {@code min}.
     */
    public static long longProperty(final String name, final long defaultValue, final long min)
    {
        final String text = System.getProperty(name);
        if (null == text)
        {
            return defaultValue;
        }
        final long value;
        try
        {
            value = Long.parseLong(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("system property " + name + " must be a whole number: '" + text + "'");
        }
        if (value < min)
        {
            throw new IllegalArgumentException("system property " + name + " must be at least " + min + ": " + value);
        }
        return value;
    }

    /**
     * A whole-number system property that fits an int.
     *
     * @param name         the property.
     * @param defaultValue its value when it is not set.
     * @param min          the least value allowed.
     * @return the value.
     * @throws IllegalArgumentException naming the property if it is not a whole number, is below {@code min} or
     *                                  exceeds {@link Integer#MAX_VALUE}.
     */
    public static int intProperty(final String name, final int defaultValue, final int min)
    {
        final long value = longProperty(name, defaultValue, min);
        if (value > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(
                "system property " + name + " must be at most " + Integer.MAX_VALUE + ": " + value);
        }
        return (int)value;
    }

    /**
     * A true/false system property.
     *
     * @param name         the property.
     * @param defaultValue its value when it is not set.
     * @return the value.
     * @throws IllegalArgumentException naming the property if it is neither true nor false (in any case).
     */
    public static boolean booleanProperty(final String name, final boolean defaultValue)
    {
        final String text = System.getProperty(name);
        if (null == text)
        {
            return defaultValue;
        }
        final String value = text.trim();
        if ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value))
        {
            return "true".equalsIgnoreCase(value);
        }
        throw new IllegalArgumentException("system property " + name + " must be true or false: '" + text + "'");
    }
}
