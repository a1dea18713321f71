package org.viadsm.dsm;

import java.util.concurrent.TimeUnit;

import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;

/**
 * How long a node waits to join, to leave and to synchronize: the {@link DsmContext#timeouts()} group of a context,
 * concluded with it. Every setter returns this group, so settings chain:
 * {@code context.timeouts().connectNs(TimeUnit.SECONDS.toNanos(20)).leaveNs(0)}.
 * <p>
 * <b>Note:</b> not thread-safe until its context is concluded; then immutable.
 */
public final class TimeoutSettings
{
    /** Default for how long joining waits for every node: 60 s. */
    public static final long CONNECT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);
    /** Default for how long closing waits for the other nodes to close: 60 s. */
    public static final long LEAVE_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);

    private final SettingResolver resolver;
    private long connectNs = CONNECT_NS_DEFAULT;
    private long leaveNs = LEAVE_NS_DEFAULT;
    private long syncNs = Long.MAX_VALUE;

    TimeoutSettings(final SettingResolver resolver)
    {
        this.resolver = resolver;
    }

    void conclude(final Settings settings)
    {
        atLeast("timeouts().connectNs", connectNs, 1);
        atLeast("timeouts().leaveNs", leaveNs, 0);
        if (resolver.isExplicit(DsmContext.SYNC_TIMEOUT_MS_PROP_NAME))
        {
            syncNs = resolver.longSetting(
                settings, "timeouts().syncNs", DsmContext.SYNC_TIMEOUT_MS_PROP_NAME, syncNs, 1);
        }
        else
        {
            final long ms = settings.longValue(DsmContext.SYNC_TIMEOUT_MS_PROP_NAME, 0, 0);
            syncNs = 0 == ms ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(ms);
        }
    }

    /** A setting with no property or variable: only its setter gives it. */
    private static void atLeast(final String setter, final long value, final long min)
    {
        if (value < min)
        {
            throw new IllegalArgumentException(setter + " must be at least " + min + ": " + value);
        }
    }

    /**
     * How long joining waits for every node to connect.
     *
     * @return nanoseconds.
     */
    public long connectNs()
    {
        return connectNs;
    }

    /**
     * Sets how long joining waits for every node to connect.
     *
     * @param ns at least 1; {@link #CONNECT_NS_DEFAULT} by default.
     * @return this.
     */
    public TimeoutSettings connectNs(final long ns)
    {
        resolver.set("timeouts().connectNs");
        this.connectNs = ns;
        return this;
    }

    /**
     * How long closing waits for the other nodes to close.
     *
     * @return nanoseconds.
     */
    public long leaveNs()
    {
        return leaveNs;
    }

    /**
     * Sets how long closing waits for the other nodes to close.
     *
     * @param ns at least 0; {@link #LEAVE_NS_DEFAULT} by default.
     * @return this.
     */
    public TimeoutSettings leaveNs(final long ns)
    {
        resolver.set("timeouts().leaveNs");
        this.leaveNs = ns;
        return this;
    }

    /**
     * The longest a lock, barrier or semaphore wait may take before it fails.
     *
     * @return nanoseconds; {@link Long#MAX_VALUE} for no limit (the default: failures of other nodes still end
     *         every wait).
     */
    public long syncNs()
    {
        return syncNs;
    }

    /**
     * Sets the synchronization timeout; {@link DsmContext#SYNC_TIMEOUT_MS_PROP_NAME} in milliseconds (0 for none).
     *
     * @param ns at least 1, or {@link Long#MAX_VALUE} for none.
     * @return this.
     */
    public TimeoutSettings syncNs(final long ns)
    {
        resolver.set(DsmContext.SYNC_TIMEOUT_MS_PROP_NAME);
        this.syncNs = ns;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "timeouts{connectNs=" + connectNs + ", leaveNs=" + leaveNs + ", syncNs=" + syncNs + '}';
    }
}
