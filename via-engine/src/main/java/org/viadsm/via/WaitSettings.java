package org.viadsm.via;

import org.agrona.BitUtil;
import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;

import static org.viadsm.via.NicConfiguration.FAILURE_CHECK_INTERVAL_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.FAILURE_CHECK_INTERVAL_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.POST_LIVENESS_CHECK_PERIOD_DEFAULT;
import static org.viadsm.via.NicConfiguration.POST_LIVENESS_CHECK_PERIOD_PROP_NAME;
import static org.viadsm.via.NicConfiguration.PRODUCER_STALL_TIMEOUT_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.PRODUCER_STALL_TIMEOUT_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MAX_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MAX_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MIN_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MIN_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_SLEEP_MAX_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_SLEEP_MAX_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_SPIN_NS_PROP_NAME;

/**
 * How a NIC's waits spin, park and sleep, and how they detect failed peers: the {@link NicContext#waits()} group of
 * a context, concluded with it. Every setter returns this group, so settings chain:
 * {@code context.waits().spinNs(50_000).parkMaxNs(100_000)}.
 * <p>
 * <b>Note:</b> not thread-safe until its context is concluded; then immutable.
 */
public final class WaitSettings
{
    /** {@link #spinNs()} when no spin phase was set: each provider's own applies. */
    public static final long SPIN_NS_PROVIDER_DEFAULT = -1;

    private final SettingResolver resolver;
    private long spinNs = SPIN_NS_PROVIDER_DEFAULT;
    private long parkMinNs = WAIT_PARK_MIN_NS_DEFAULT;
    private long parkMaxNs = WAIT_PARK_MAX_NS_DEFAULT;
    private long sleepMaxNs = WAIT_SLEEP_MAX_NS_DEFAULT;
    private long failureCheckIntervalNs = FAILURE_CHECK_INTERVAL_NS_DEFAULT;
    private long producerStallTimeoutNs = PRODUCER_STALL_TIMEOUT_NS_DEFAULT;
    private int postLivenessCheckPeriod = POST_LIVENESS_CHECK_PERIOD_DEFAULT;

    WaitSettings(final SettingResolver resolver)
    {
        this.resolver = resolver;
    }

    void conclude(final Settings settings)
    {
        spinNs = resolver.longSetting(settings, "waits().spinNs", WAIT_SPIN_NS_PROP_NAME, spinNs, 0);
        parkMinNs = resolver.longSetting(settings, "waits().parkMinNs", WAIT_PARK_MIN_NS_PROP_NAME, parkMinNs, 1);
        parkMaxNs = Math.max(parkMinNs,
            resolver.longSetting(settings, "waits().parkMaxNs", WAIT_PARK_MAX_NS_PROP_NAME, parkMaxNs, 1));
        sleepMaxNs = Math.max(parkMinNs,
            resolver.longSetting(settings, "waits().sleepMaxNs", WAIT_SLEEP_MAX_NS_PROP_NAME, sleepMaxNs, 1));
        failureCheckIntervalNs = resolver.longSetting(settings, "waits().failureCheckIntervalNs",
            FAILURE_CHECK_INTERVAL_NS_PROP_NAME, failureCheckIntervalNs, 0);
        producerStallTimeoutNs = resolver.longSetting(settings, "waits().producerStallTimeoutNs",
            PRODUCER_STALL_TIMEOUT_NS_PROP_NAME, producerStallTimeoutNs, 1);
        postLivenessCheckPeriod = BitUtil.findNextPositivePowerOfTwo(resolver.intSetting(settings,
            "waits().postLivenessCheckPeriod", POST_LIVENESS_CHECK_PERIOD_PROP_NAME, postLivenessCheckPeriod, 1,
            1 << 30));
    }

    /**
     * How long a wait spins (and lets the provider make progress) before it sleeps or parks.
     *
     * @return ns, or {@link #SPIN_NS_PROVIDER_DEFAULT} if none was set: see {@link #spinNsOrDefault(long)}.
     */
    public long spinNs()
    {
        return spinNs;
    }

    /**
     * The spin phase of a wait, with a provider's own default.
     *
     * @param providerDefaultNs the provider's spin phase, e.g. {@link NicConfiguration#WAIT_SPIN_NS_DEFAULT}.
     * @return the spin phase set, or {@code providerDefaultNs}.
     */
    public long spinNsOrDefault(final long providerDefaultNs)
    {
        return SPIN_NS_PROVIDER_DEFAULT == spinNs ? providerDefaultNs : spinNs;
    }

    /**
     * Sets the spin phase of waits.
     *
     * @param ns at least 0; {@link NicConfiguration#WAIT_SPIN_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings spinNs(final long ns)
    {
        resolver.set(WAIT_SPIN_NS_PROP_NAME);
        this.spinNs = ns;
        return this;
    }

    /**
     * The first park of a polling wait.
     *
     * @return ns.
     */
    public long parkMinNs()
    {
        return parkMinNs;
    }

    /**
     * Sets the first park of a polling wait.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_PARK_MIN_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings parkMinNs(final long ns)
    {
        resolver.set(WAIT_PARK_MIN_NS_PROP_NAME);
        this.parkMinNs = ns;
        return this;
    }

    /**
     * The longest park of a polling wait. A wait that a bell of another process would wake (shm) dozes, parking
     * from {@link #parkMinNs()} up to this, before it announces its bell.
     *
     * @return ns, at least {@link #parkMinNs()} once concluded.
     */
    public long parkMaxNs()
    {
        return parkMaxNs;
    }

    /**
     * Sets the longest park of a polling wait.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_PARK_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings parkMaxNs(final long ns)
    {
        resolver.set(WAIT_PARK_MAX_NS_PROP_NAME);
        this.parkMaxNs = ns;
        return this;
    }

    /**
     * The longest sleep of a wait that completers wake.
     *
     * @return ns, at least {@link #parkMinNs()} once concluded.
     */
    public long sleepMaxNs()
    {
        return sleepMaxNs;
    }

    /**
     * Sets the longest sleep of a wait that completers wake.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_SLEEP_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings sleepMaxNs(final long ns)
    {
        resolver.set(WAIT_SLEEP_MAX_NS_PROP_NAME);
        this.sleepMaxNs = ns;
        return this;
    }

    /**
     * How often calls check the peers of connected VIs.
     *
     * @return ns.
     */
    public long failureCheckIntervalNs()
    {
        return failureCheckIntervalNs;
    }

    /**
     * Sets how often calls check the peers of connected VIs.
     *
     * @param ns at least 0; {@link NicConfiguration#FAILURE_CHECK_INTERVAL_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings failureCheckIntervalNs(final long ns)
    {
        resolver.set(FAILURE_CHECK_INTERVAL_NS_PROP_NAME);
        this.failureCheckIntervalNs = ns;
        return this;
    }

    /**
     * How long a reserved but unwritten record may hold back the records behind it.
     *
     * @return ns.
     */
    public long producerStallTimeoutNs()
    {
        return producerStallTimeoutNs;
    }

    /**
     * Sets how long a reserved but unwritten record may hold back the records behind it.
     *
     * @param ns at least 1; {@link NicConfiguration#PRODUCER_STALL_TIMEOUT_NS_PROP_NAME}.
     * @return this.
     */
    public WaitSettings producerStallTimeoutNs(final long ns)
    {
        resolver.set(PRODUCER_STALL_TIMEOUT_NS_PROP_NAME);
        this.producerStallTimeoutNs = ns;
        return this;
    }

    /**
     * Posts on a VI between checks that its peer is alive.
     *
     * @return a power of two once concluded.
     */
    public int postLivenessCheckPeriod()
    {
        return postLivenessCheckPeriod;
    }

    /**
     * Sets the posts on a VI between checks that its peer is alive.
     *
     * @param posts at least 1, rounded up to a power of two;
     *              {@link NicConfiguration#POST_LIVENESS_CHECK_PERIOD_PROP_NAME}.
     * @return this.
     */
    public WaitSettings postLivenessCheckPeriod(final int posts)
    {
        resolver.set(POST_LIVENESS_CHECK_PERIOD_PROP_NAME);
        this.postLivenessCheckPeriod = posts;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "waits{spinNs=" + spinNs + ", parkMinNs=" + parkMinNs + ", parkMaxNs=" + parkMaxNs +
            ", sleepMaxNs=" + sleepMaxNs + ", failureCheckIntervalNs=" + failureCheckIntervalNs +
            ", producerStallTimeoutNs=" + producerStallTimeoutNs + ", postLivenessCheckPeriod=" +
            postLivenessCheckPeriod + '}';
    }
}
