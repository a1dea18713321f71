package org.viadsm.via.provider.tcp;

import org.viadsm.via.engine.Configuration;

/**
 * Knobs of the tcp provider, read from system properties when a NIC opens.
 */
public final class TcpConfiguration
{
    /**
     * How long the engine thread stays out of the selector after an application thread polled the NIC's sockets
     * from a wait's spin phase, in ns: while application threads spin, they read the sockets themselves and the
     * engine thread sleeps instead of being woken by every frame. Longer saves wake-ups, shorter serves remote
     * operations sooner once the application stops polling without parking. 0 turns application polling off: the
     * engine thread then does all the work and wakes waiting threads.
     */
    public static final String POLL_LEASE_NS_PROP_NAME = "viadsm.tcp.poll.lease.ns";
    /** Default poll lease: 100 µs. */
    public static final long POLL_LEASE_NS_DEFAULT = 100_000L;

    /**
     * Default spin phase of a wait on a tcp NIC, used unless {@code viadsm.via.wait.spin.ns} is set: 100 µs, longer
     * than elsewhere because an answer that misses the spin phase costs two thread wake-ups (the engine thread's,
     * then the waiter's), about 50 µs here; a partner whose spin phase is shorter than that parks too, and a
     * ping-pong would then pay the wake-ups on every message.
     */
    public static final long WAIT_SPIN_NS_DEFAULT = 100_000L;

    /**
     * Longest sleep of the engine thread while application threads keep renewing the poll lease, in ns: its sleeps
     * start at the lease and double while the lease is renewed, so that a long ping-pong wakes it rarely; this
     * bounds how long it takes to notice that the application stopped polling without parking.
     */
    public static final String POLL_LEASE_MAX_NS_PROP_NAME = "viadsm.tcp.poll.lease.max.ns";
    /** Default longest sleep under a lease: 1 ms. */
    public static final long POLL_LEASE_MAX_NS_DEFAULT = 1_000_000L;

    /** Pause between attempts to connect to a NIC that does not listen yet, in ns. */
    public static final String CONNECT_RETRY_NS_PROP_NAME = "viadsm.tcp.connect.retry.ns";
    /** Default connect retry pause: 20 ms. */
    public static final long CONNECT_RETRY_NS_DEFAULT = 20_000_000L;

    /**
     * Bytes a connection may hold staged for the socket before its send queue stops taking descriptors off (they
     * wait, posted, until the socket drains); responses to the peer are staged regardless.
     */
    public static final String SEND_STAGING_LIMIT_PROP_NAME = "viadsm.tcp.send.staging.limit";
    /** Default staging limit: 256 KiB. */
    public static final int SEND_STAGING_LIMIT_DEFAULT = 256 * 1024;

    private TcpConfiguration()
    {
    }

    /**
     * Reads every knob of the provider and of the engine, so that an open fails on a malformed one before it
     * allocates anything.
     *
     * @throws IllegalArgumentException naming the first property that is malformed or out of range.
     */
    public static void validate()
    {
        Configuration.validate();
        pollLeaseMaxNs();
        connectRetryNs();
        sendStagingLimit();
    }

    /**
     * The poll lease.
     *
     * @return ns.
     */
    public static long pollLeaseNs()
    {
        return Configuration.longProperty(POLL_LEASE_NS_PROP_NAME, POLL_LEASE_NS_DEFAULT, 0L);
    }

    /**
     * The longest sleep under a renewed lease.
     *
     * @return ns, at least the lease.
     */
    public static long pollLeaseMaxNs()
    {
        return Math.max(pollLeaseNs(),
            Configuration.longProperty(POLL_LEASE_MAX_NS_PROP_NAME, POLL_LEASE_MAX_NS_DEFAULT, 0L));
    }

    /**
     * The connect retry pause.
     *
     * @return ns.
     */
    public static long connectRetryNs()
    {
        return Configuration.longProperty(CONNECT_RETRY_NS_PROP_NAME, CONNECT_RETRY_NS_DEFAULT, 1_000_000L);
    }

    /**
     * The staging limit of a connection's send queue.
     *
     * @return bytes.
     */
    public static int sendStagingLimit()
    {
        return Configuration.intProperty(SEND_STAGING_LIMIT_PROP_NAME, SEND_STAGING_LIMIT_DEFAULT, 4096);
    }
}
