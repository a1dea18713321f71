package org.viadsm.via;

import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;

import static org.viadsm.via.NicConfiguration.TCP_CONNECT_RETRY_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.TCP_CONNECT_RETRY_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.TCP_PEER_TIMEOUT_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.TCP_PEER_TIMEOUT_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.TCP_POLL_LEASE_MAX_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.TCP_POLL_LEASE_MAX_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.TCP_POLL_LEASE_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.TCP_POLL_LEASE_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.TCP_SEND_STAGING_LIMIT_DEFAULT;
import static org.viadsm.via.NicConfiguration.TCP_SEND_STAGING_LIMIT_PROP_NAME;

/**
 * The settings only a {@code tcp} NIC reads: the {@link NicContext#tcp()} group of a context, concluded with it.
 * Every setter returns this group, so settings chain: {@code context.tcp().peerTimeoutNs(1_000_000_000L)}.
 * <p>
 * <b>Note:</b> not thread-safe until its context is concluded; then immutable.
 */
public final class TcpSettings
{
    private final SettingResolver resolver;
    private long pollLeaseNs = TCP_POLL_LEASE_NS_DEFAULT;
    private long pollLeaseMaxNs = TCP_POLL_LEASE_MAX_NS_DEFAULT;
    private long connectRetryNs = TCP_CONNECT_RETRY_NS_DEFAULT;
    private int sendStagingLimit = TCP_SEND_STAGING_LIMIT_DEFAULT;
    private long peerTimeoutNs = TCP_PEER_TIMEOUT_NS_DEFAULT;

    TcpSettings(final SettingResolver resolver)
    {
        this.resolver = resolver;
    }

    void conclude(final Settings settings)
    {
        pollLeaseNs = resolver.longSetting(settings, "tcp().pollLeaseNs", TCP_POLL_LEASE_NS_PROP_NAME, pollLeaseNs, 0);
        pollLeaseMaxNs = Math.max(pollLeaseNs, resolver.longSetting(
            settings, "tcp().pollLeaseMaxNs", TCP_POLL_LEASE_MAX_NS_PROP_NAME, pollLeaseMaxNs, 0));
        connectRetryNs = resolver.longSetting(
            settings, "tcp().connectRetryNs", TCP_CONNECT_RETRY_NS_PROP_NAME, connectRetryNs, 1_000_000L);
        sendStagingLimit = resolver.intSetting(settings, "tcp().sendStagingLimit", TCP_SEND_STAGING_LIMIT_PROP_NAME,
            sendStagingLimit, 4096, Integer.MAX_VALUE);
        peerTimeoutNs = resolver.longSetting(
            settings, "tcp().peerTimeoutNs", TCP_PEER_TIMEOUT_NS_PROP_NAME, peerTimeoutNs, 100_000_000L);
    }

    /**
     * The poll lease of a tcp NIC's waiting threads.
     *
     * @return ns; 0 turns application polling off.
     */
    public long pollLeaseNs()
    {
        return pollLeaseNs;
    }

    /**
     * Sets the poll lease of a tcp NIC's waiting threads.
     *
     * @param ns at least 0; {@link NicConfiguration#TCP_POLL_LEASE_NS_PROP_NAME}.
     * @return this.
     */
    public TcpSettings pollLeaseNs(final long ns)
    {
        resolver.set(TCP_POLL_LEASE_NS_PROP_NAME);
        this.pollLeaseNs = ns;
        return this;
    }

    /**
     * The longest sleep of a tcp NIC's engine thread under a renewed lease.
     *
     * @return ns, at least {@link #pollLeaseNs()} once concluded.
     */
    public long pollLeaseMaxNs()
    {
        return pollLeaseMaxNs;
    }

    /**
     * Sets the longest sleep of a tcp NIC's engine thread under a renewed lease.
     *
     * @param ns at least 0; {@link NicConfiguration#TCP_POLL_LEASE_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public TcpSettings pollLeaseMaxNs(final long ns)
    {
        resolver.set(TCP_POLL_LEASE_MAX_NS_PROP_NAME);
        this.pollLeaseMaxNs = ns;
        return this;
    }

    /**
     * The pause between attempts to connect to a tcp NIC that does not listen yet.
     *
     * @return ns.
     */
    public long connectRetryNs()
    {
        return connectRetryNs;
    }

    /**
     * Sets the pause between attempts to connect to a tcp NIC that does not listen yet.
     *
     * @param ns at least 1 ms; {@link NicConfiguration#TCP_CONNECT_RETRY_NS_PROP_NAME}.
     * @return this.
     */
    public TcpSettings connectRetryNs(final long ns)
    {
        resolver.set(TCP_CONNECT_RETRY_NS_PROP_NAME);
        this.connectRetryNs = ns;
        return this;
    }

    /**
     * The bytes a tcp connection may hold staged before its send queue waits for the socket.
     *
     * @return bytes.
     */
    public int sendStagingLimit()
    {
        return sendStagingLimit;
    }

    /**
     * Sets the bytes a tcp connection may hold staged before its send queue waits for the socket.
     *
     * @param bytes at least 4096; {@link NicConfiguration#TCP_SEND_STAGING_LIMIT_PROP_NAME}.
     * @return this.
     */
    public TcpSettings sendStagingLimit(final int bytes)
    {
        resolver.set(TCP_SEND_STAGING_LIMIT_PROP_NAME);
        this.sendStagingLimit = bytes;
        return this;
    }

    /**
     * How long a tcp connection may bring nothing from the peer before the peer is taken for lost.
     *
     * @return ns.
     */
    public long peerTimeoutNs()
    {
        return peerTimeoutNs;
    }

    /**
     * Sets how long a tcp connection may bring nothing from the peer before the peer is taken for lost.
     *
     * @param ns at least 100 ms; {@link NicConfiguration#TCP_PEER_TIMEOUT_NS_PROP_NAME}.
     * @return this.
     */
    public TcpSettings peerTimeoutNs(final long ns)
    {
        resolver.set(TCP_PEER_TIMEOUT_NS_PROP_NAME);
        this.peerTimeoutNs = ns;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "tcp{pollLeaseNs=" + pollLeaseNs + ", pollLeaseMaxNs=" + pollLeaseMaxNs + ", connectRetryNs=" +
            connectRetryNs + ", sendStagingLimit=" + sendStagingLimit + ", peerTimeoutNs=" + peerTimeoutNs + '}';
    }
}
