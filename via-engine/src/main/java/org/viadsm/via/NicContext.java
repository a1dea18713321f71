package org.viadsm.via;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.agrona.BitUtil;
import org.viadsm.via.internal.Settings;
import org.viadsm.via.memory.MemoryHandle;

import static org.viadsm.via.NicConfiguration.FAILURE_CHECK_INTERVAL_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.FAILURE_CHECK_INTERVAL_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_CQS_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_CQS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_CQ_ENTRIES_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_CQ_ENTRIES_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_REGIONS_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_REGIONS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_SEGMENTS_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_SEGMENTS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_TRANSFER_SIZE_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_TRANSFER_SIZE_PROP_NAME;
import static org.viadsm.via.NicConfiguration.MAX_VIS_DEFAULT;
import static org.viadsm.via.NicConfiguration.MAX_VIS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.POST_LIVENESS_CHECK_PERIOD_DEFAULT;
import static org.viadsm.via.NicConfiguration.POST_LIVENESS_CHECK_PERIOD_PROP_NAME;
import static org.viadsm.via.NicConfiguration.PRODUCER_STALL_TIMEOUT_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.PRODUCER_STALL_TIMEOUT_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.QUEUE_DEPTH_DEFAULT;
import static org.viadsm.via.NicConfiguration.QUEUE_DEPTH_PROP_NAME;
import static org.viadsm.via.NicConfiguration.SHM_DIR_PROP_NAME;
import static org.viadsm.via.NicConfiguration.SHM_WAKEUP_DEFAULT;
import static org.viadsm.via.NicConfiguration.SHM_WAKEUP_PROP_NAME;
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
import static org.viadsm.via.NicConfiguration.UCX_PROGRESS_THREAD_DEFAULT;
import static org.viadsm.via.NicConfiguration.UCX_PROGRESS_THREAD_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MAX_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MAX_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MIN_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_PARK_MIN_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_SLEEP_MAX_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.WAIT_SLEEP_MAX_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.WAIT_SPIN_NS_PROP_NAME;

/**
 * How a NIC waits, detects failures and sizes its shared area, for {@link Nic#open(String, NicContext)}: fluent
 * setters, then {@link #conclude()}, which reads every setting that was not set from its system property or
 * environment variable ({@link NicConfiguration}), validates them all and freezes the context. The NIC keeps the
 * concluded values; nothing else in the engine reads a property.
 * <pre>{@code
 * try (Nic nic = Nic.open("shm:node0", new NicContext().maxVis(16).waitSpinNs(50_000)))
 * }</pre>
 * <b>Note:</b> not thread-safe until concluded; a concluded context is immutable and may be shared by any number
 * of NICs (safely published, as by passing it to another thread's start).
 */
public final class NicContext
{
    /** {@link #waitSpinNs()} when no spin phase was set: each provider's own applies. */
    public static final long WAIT_SPIN_NS_PROVIDER_DEFAULT = -1;

    private final Set<String> explicit = new HashSet<>();
    private boolean concluded;
    private long waitSpinNs = WAIT_SPIN_NS_PROVIDER_DEFAULT;
    private long waitParkMinNs = WAIT_PARK_MIN_NS_DEFAULT;
    private long waitParkMaxNs = WAIT_PARK_MAX_NS_DEFAULT;
    private long waitSleepMaxNs = WAIT_SLEEP_MAX_NS_DEFAULT;
    private long failureCheckIntervalNs = FAILURE_CHECK_INTERVAL_NS_DEFAULT;
    private long producerStallTimeoutNs = PRODUCER_STALL_TIMEOUT_NS_DEFAULT;
    private int postLivenessCheckPeriod = POST_LIVENESS_CHECK_PERIOD_DEFAULT;
    private int maxVis = MAX_VIS_DEFAULT;
    private int queueDepth = QUEUE_DEPTH_DEFAULT;
    private int maxSegments = MAX_SEGMENTS_DEFAULT;
    private int maxCqs = MAX_CQS_DEFAULT;
    private int maxCqEntries = MAX_CQ_ENTRIES_DEFAULT;
    private int maxRegions = MAX_REGIONS_DEFAULT;
    private int maxTransferSize = MAX_TRANSFER_SIZE_DEFAULT;
    private Path shmDirectory;
    private boolean shmWakeup = SHM_WAKEUP_DEFAULT;
    private long tcpPollLeaseNs = TCP_POLL_LEASE_NS_DEFAULT;
    private long tcpPollLeaseMaxNs = TCP_POLL_LEASE_MAX_NS_DEFAULT;
    private long tcpConnectRetryNs = TCP_CONNECT_RETRY_NS_DEFAULT;
    private int tcpSendStagingLimit = TCP_SEND_STAGING_LIMIT_DEFAULT;
    private long tcpPeerTimeoutNs = TCP_PEER_TIMEOUT_NS_DEFAULT;
    private ProgressThread ucxProgressThread = UCX_PROGRESS_THREAD_DEFAULT;

    /**
     * A context with nothing set: {@link #conclude()} takes every setting from its property, its variable or its
     * default.
     */
    public NicContext()
    {
    }

    /**
     * Reads every setting not set here from its system property or environment variable, validates every value,
     * and freezes the context; a concluded context is left as it is. {@link Nic#open(String, NicContext)} calls it.
     *
     * @return this.
     * @throws IllegalArgumentException naming the first setting that is malformed or out of range, as the setter,
     *                                  system property or environment variable it came from.
     */
    public NicContext conclude()
    {
        return conclude(Settings.fromSystem());
    }

    synchronized NicContext conclude(final Settings settings)
    {
        if (concluded)
        {
            return this;
        }
        waitSpinNs = longSetting(settings, "waitSpinNs", WAIT_SPIN_NS_PROP_NAME, waitSpinNs, 0);
        waitParkMinNs = longSetting(settings, "waitParkMinNs", WAIT_PARK_MIN_NS_PROP_NAME, waitParkMinNs, 1);
        waitParkMaxNs = Math.max(waitParkMinNs,
            longSetting(settings, "waitParkMaxNs", WAIT_PARK_MAX_NS_PROP_NAME, waitParkMaxNs, 1));
        waitSleepMaxNs = Math.max(waitParkMinNs,
            longSetting(settings, "waitSleepMaxNs", WAIT_SLEEP_MAX_NS_PROP_NAME, waitSleepMaxNs, 1));
        failureCheckIntervalNs = longSetting(
            settings, "failureCheckIntervalNs", FAILURE_CHECK_INTERVAL_NS_PROP_NAME, failureCheckIntervalNs, 0);
        producerStallTimeoutNs = longSetting(
            settings, "producerStallTimeoutNs", PRODUCER_STALL_TIMEOUT_NS_PROP_NAME, producerStallTimeoutNs, 1);
        postLivenessCheckPeriod = BitUtil.findNextPositivePowerOfTwo(intSetting(settings,
            "postLivenessCheckPeriod", POST_LIVENESS_CHECK_PERIOD_PROP_NAME, postLivenessCheckPeriod, 1, 1 << 30));
        maxVis = intSetting(settings, "maxVis", MAX_VIS_PROP_NAME, maxVis, 1, 0xFFFF);
        queueDepth = powerOfTwoSetting(settings, "queueDepth", QUEUE_DEPTH_PROP_NAME, queueDepth, 2, 1 << 16);
        maxSegments = intSetting(settings, "maxSegments", MAX_SEGMENTS_PROP_NAME, maxSegments, 1, 256);
        maxCqs = intSetting(settings, "maxCqs", MAX_CQS_PROP_NAME, maxCqs, 1, 4096);
        maxCqEntries = powerOfTwoSetting(
            settings, "maxCqEntries", MAX_CQ_ENTRIES_PROP_NAME, maxCqEntries, 2, 1 << 24);
        maxRegions = intSetting(
            settings, "maxRegions", MAX_REGIONS_PROP_NAME, maxRegions, 1, MemoryHandle.MAX_ENTRIES);
        maxTransferSize = intSetting(
            settings, "maxTransferSize", MAX_TRANSFER_SIZE_PROP_NAME, maxTransferSize, 1, Integer.MAX_VALUE);
        shmDirectory = null != shmDirectory ? shmDirectory : defaultShmDirectory(settings);
        shmWakeup = explicit.contains(SHM_WAKEUP_PROP_NAME) ?
            shmWakeup : settings.booleanValue(SHM_WAKEUP_PROP_NAME, shmWakeup);
        tcpPollLeaseNs = longSetting(settings, "tcpPollLeaseNs", TCP_POLL_LEASE_NS_PROP_NAME, tcpPollLeaseNs, 0);
        tcpPollLeaseMaxNs = Math.max(tcpPollLeaseNs,
            longSetting(settings, "tcpPollLeaseMaxNs", TCP_POLL_LEASE_MAX_NS_PROP_NAME, tcpPollLeaseMaxNs, 0));
        tcpConnectRetryNs = longSetting(
            settings, "tcpConnectRetryNs", TCP_CONNECT_RETRY_NS_PROP_NAME, tcpConnectRetryNs, 1_000_000L);
        tcpSendStagingLimit = intSetting(settings, "tcpSendStagingLimit", TCP_SEND_STAGING_LIMIT_PROP_NAME,
            tcpSendStagingLimit, 4096, Integer.MAX_VALUE);
        tcpPeerTimeoutNs = longSetting(
            settings, "tcpPeerTimeoutNs", TCP_PEER_TIMEOUT_NS_PROP_NAME, tcpPeerTimeoutNs, 100_000_000L);
        ucxProgressThread = progressThreadSetting(settings, ucxProgressThread);
        concluded = true;
        return this;
    }

    /**
     * Whether {@link #conclude()} has run.
     *
     * @return true once concluded.
     */
    public synchronized boolean isConcluded()
    {
        return concluded;
    }

    /**
     * How long a wait spins (and lets the provider make progress) before it sleeps or parks.
     *
     * @return ns, or {@link #WAIT_SPIN_NS_PROVIDER_DEFAULT} if none was set: see {@link #waitSpinNsOrDefault(long)}.
     */
    public long waitSpinNs()
    {
        return waitSpinNs;
    }

    /**
     * The spin phase of a wait, with a provider's own default.
     *
     * @param providerDefaultNs the provider's spin phase, e.g. {@link NicConfiguration#WAIT_SPIN_NS_DEFAULT}.
     * @return the spin phase set, or {@code providerDefaultNs}.
     */
    public long waitSpinNsOrDefault(final long providerDefaultNs)
    {
        return WAIT_SPIN_NS_PROVIDER_DEFAULT == waitSpinNs ? providerDefaultNs : waitSpinNs;
    }

    /**
     * Sets the spin phase of waits.
     *
     * @param ns at least 0; {@link NicConfiguration#WAIT_SPIN_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext waitSpinNs(final long ns)
    {
        set(WAIT_SPIN_NS_PROP_NAME);
        this.waitSpinNs = ns;
        return this;
    }

    /**
     * The first park of a polling wait.
     *
     * @return ns.
     */
    public long waitParkMinNs()
    {
        return waitParkMinNs;
    }

    /**
     * Sets the first park of a polling wait.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_PARK_MIN_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext waitParkMinNs(final long ns)
    {
        set(WAIT_PARK_MIN_NS_PROP_NAME);
        this.waitParkMinNs = ns;
        return this;
    }

    /**
     * The longest park of a polling wait.
     *
     * @return ns, at least {@link #waitParkMinNs()} once concluded.
     */
    public long waitParkMaxNs()
    {
        return waitParkMaxNs;
    }

    /**
     * Sets the longest park of a polling wait.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_PARK_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext waitParkMaxNs(final long ns)
    {
        set(WAIT_PARK_MAX_NS_PROP_NAME);
        this.waitParkMaxNs = ns;
        return this;
    }

    /**
     * The longest sleep of a wait that completers wake.
     *
     * @return ns, at least {@link #waitParkMinNs()} once concluded.
     */
    public long waitSleepMaxNs()
    {
        return waitSleepMaxNs;
    }

    /**
     * Sets the longest sleep of a wait that completers wake.
     *
     * @param ns at least 1; {@link NicConfiguration#WAIT_SLEEP_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext waitSleepMaxNs(final long ns)
    {
        set(WAIT_SLEEP_MAX_NS_PROP_NAME);
        this.waitSleepMaxNs = ns;
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
    public NicContext failureCheckIntervalNs(final long ns)
    {
        set(FAILURE_CHECK_INTERVAL_NS_PROP_NAME);
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
    public NicContext producerStallTimeoutNs(final long ns)
    {
        set(PRODUCER_STALL_TIMEOUT_NS_PROP_NAME);
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
    public NicContext postLivenessCheckPeriod(final int posts)
    {
        set(POST_LIVENESS_CHECK_PERIOD_PROP_NAME);
        this.postLivenessCheckPeriod = posts;
        return this;
    }

    /**
     * VI records in the NIC's area.
     *
     * @return the VI limit.
     */
    public int maxVis()
    {
        return maxVis;
    }

    /**
     * Sets the number of VI records.
     *
     * @param maxVis 1 to 65535; {@link NicConfiguration#MAX_VIS_PROP_NAME}.
     * @return this.
     */
    public NicContext maxVis(final int maxVis)
    {
        set(MAX_VIS_PROP_NAME);
        this.maxVis = maxVis;
        return this;
    }

    /**
     * Descriptors per work queue.
     *
     * @return a power of two.
     */
    public int queueDepth()
    {
        return queueDepth;
    }

    /**
     * Sets the descriptors per work queue.
     *
     * @param queueDepth a power of two from 2 to 65536; {@link NicConfiguration#QUEUE_DEPTH_PROP_NAME}.
     * @return this.
     */
    public NicContext queueDepth(final int queueDepth)
    {
        set(QUEUE_DEPTH_PROP_NAME);
        this.queueDepth = queueDepth;
        return this;
    }

    /**
     * Data segments per descriptor.
     *
     * @return the segment limit.
     */
    public int maxSegments()
    {
        return maxSegments;
    }

    /**
     * Sets the data segments per descriptor.
     *
     * @param maxSegments 1 to 256; {@link NicConfiguration#MAX_SEGMENTS_PROP_NAME}.
     * @return this.
     */
    public NicContext maxSegments(final int maxSegments)
    {
        set(MAX_SEGMENTS_PROP_NAME);
        this.maxSegments = maxSegments;
        return this;
    }

    /**
     * Completion queues per NIC.
     *
     * @return the completion-queue limit.
     */
    public int maxCqs()
    {
        return maxCqs;
    }

    /**
     * Sets the completion queues per NIC.
     *
     * @param maxCqs 1 to 4096; {@link NicConfiguration#MAX_CQS_PROP_NAME}.
     * @return this.
     */
    public NicContext maxCqs(final int maxCqs)
    {
        set(MAX_CQS_PROP_NAME);
        this.maxCqs = maxCqs;
        return this;
    }

    /**
     * Entries one completion queue may hold.
     *
     * @return a power of two.
     */
    public int maxCqEntries()
    {
        return maxCqEntries;
    }

    /**
     * Sets the entries one completion queue may hold.
     *
     * @param maxCqEntries a power of two from 2 to 2^24; {@link NicConfiguration#MAX_CQ_ENTRIES_PROP_NAME}.
     * @return this.
     */
    public NicContext maxCqEntries(final int maxCqEntries)
    {
        set(MAX_CQ_ENTRIES_PROP_NAME);
        this.maxCqEntries = maxCqEntries;
        return this;
    }

    /**
     * Registration-table entries.
     *
     * @return the registration limit.
     */
    public int maxRegions()
    {
        return maxRegions;
    }

    /**
     * Sets the registration-table entries.
     *
     * @param maxRegions 1 to {@link MemoryHandle#MAX_ENTRIES}; {@link NicConfiguration#MAX_REGIONS_PROP_NAME}.
     * @return this.
     */
    public NicContext maxRegions(final int maxRegions)
    {
        set(MAX_REGIONS_PROP_NAME);
        this.maxRegions = maxRegions;
        return this;
    }

    /**
     * The largest transfer of one descriptor.
     *
     * @return bytes.
     */
    public int maxTransferSize()
    {
        return maxTransferSize;
    }

    /**
     * Sets the largest transfer of one descriptor.
     *
     * @param bytes at least 1; {@link NicConfiguration#MAX_TRANSFER_SIZE_PROP_NAME}.
     * @return this.
     */
    public NicContext maxTransferSize(final int bytes)
    {
        set(MAX_TRANSFER_SIZE_PROP_NAME);
        this.maxTransferSize = bytes;
        return this;
    }

    /**
     * The directory of the files behind NIC areas and memory.
     *
     * @return the directory, or null before {@link #conclude()} if none was set.
     */
    public Path shmDirectory()
    {
        return shmDirectory;
    }

    /**
     * Sets the directory of the files behind NIC areas and memory; NICs that reach each other over shm must use
     * the same.
     *
     * @param directory a writable directory; {@link NicConfiguration#SHM_DIR_PROP_NAME}.
     * @return this.
     */
    public NicContext shmDirectory(final Path directory)
    {
        set(SHM_DIR_PROP_NAME);
        this.shmDirectory = directory;
        return this;
    }

    /**
     * Whether shm waits sleep until a completer wakes them through a wake-up socket, or poll.
     *
     * @return true if they sleep.
     */
    public boolean shmWakeup()
    {
        return shmWakeup;
    }

    /**
     * Sets whether shm waits sleep until woken, or poll.
     *
     * @param wakeup true to sleep; {@link NicConfiguration#SHM_WAKEUP_PROP_NAME}.
     * @return this.
     */
    public NicContext shmWakeup(final boolean wakeup)
    {
        set(SHM_WAKEUP_PROP_NAME);
        this.shmWakeup = wakeup;
        return this;
    }

    /**
     * The poll lease of a tcp NIC's waiting threads.
     *
     * @return ns; 0 turns application polling off.
     */
    public long tcpPollLeaseNs()
    {
        return tcpPollLeaseNs;
    }

    /**
     * Sets the poll lease of a tcp NIC's waiting threads.
     *
     * @param ns at least 0; {@link NicConfiguration#TCP_POLL_LEASE_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext tcpPollLeaseNs(final long ns)
    {
        set(TCP_POLL_LEASE_NS_PROP_NAME);
        this.tcpPollLeaseNs = ns;
        return this;
    }

    /**
     * The longest sleep of a tcp NIC's engine thread under a renewed lease.
     *
     * @return ns, at least {@link #tcpPollLeaseNs()} once concluded.
     */
    public long tcpPollLeaseMaxNs()
    {
        return tcpPollLeaseMaxNs;
    }

    /**
     * Sets the longest sleep of a tcp NIC's engine thread under a renewed lease.
     *
     * @param ns at least 0; {@link NicConfiguration#TCP_POLL_LEASE_MAX_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext tcpPollLeaseMaxNs(final long ns)
    {
        set(TCP_POLL_LEASE_MAX_NS_PROP_NAME);
        this.tcpPollLeaseMaxNs = ns;
        return this;
    }

    /**
     * The pause between attempts to connect to a tcp NIC that does not listen yet.
     *
     * @return ns.
     */
    public long tcpConnectRetryNs()
    {
        return tcpConnectRetryNs;
    }

    /**
     * Sets the pause between attempts to connect to a tcp NIC that does not listen yet.
     *
     * @param ns at least 1 ms; {@link NicConfiguration#TCP_CONNECT_RETRY_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext tcpConnectRetryNs(final long ns)
    {
        set(TCP_CONNECT_RETRY_NS_PROP_NAME);
        this.tcpConnectRetryNs = ns;
        return this;
    }

    /**
     * The bytes a tcp connection may hold staged before its send queue waits for the socket.
     *
     * @return bytes.
     */
    public int tcpSendStagingLimit()
    {
        return tcpSendStagingLimit;
    }

    /**
     * Sets the bytes a tcp connection may hold staged before its send queue waits for the socket.
     *
     * @param bytes at least 4096; {@link NicConfiguration#TCP_SEND_STAGING_LIMIT_PROP_NAME}.
     * @return this.
     */
    public NicContext tcpSendStagingLimit(final int bytes)
    {
        set(TCP_SEND_STAGING_LIMIT_PROP_NAME);
        this.tcpSendStagingLimit = bytes;
        return this;
    }

    /**
     * How long a tcp connection may bring nothing from the peer before the peer is taken for lost.
     *
     * @return ns.
     */
    public long tcpPeerTimeoutNs()
    {
        return tcpPeerTimeoutNs;
    }

    /**
     * Sets how long a tcp connection may bring nothing from the peer before the peer is taken for lost.
     *
     * @param ns at least 100 ms; {@link NicConfiguration#TCP_PEER_TIMEOUT_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext tcpPeerTimeoutNs(final long ns)
    {
        set(TCP_PEER_TIMEOUT_NS_PROP_NAME);
        this.tcpPeerTimeoutNs = ns;
        return this;
    }

    /**
     * When a ucx NIC runs a progress thread.
     *
     * @return the choice.
     */
    public ProgressThread ucxProgressThread()
    {
        return ucxProgressThread;
    }

    /**
     * Sets when a ucx NIC runs a progress thread.
     *
     * @param choice not null; {@link NicConfiguration#UCX_PROGRESS_THREAD_PROP_NAME}.
     * @return this.
     */
    public NicContext ucxProgressThread(final ProgressThread choice)
    {
        set(UCX_PROGRESS_THREAD_PROP_NAME);
        this.ucxProgressThread = Objects.requireNonNull(choice, "ucxProgressThread");
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "NicContext{concluded=" + concluded + ", waitSpinNs=" + waitSpinNs + ", waitParkMinNs=" +
            waitParkMinNs + ", waitParkMaxNs=" + waitParkMaxNs + ", waitSleepMaxNs=" + waitSleepMaxNs +
            ", failureCheckIntervalNs=" + failureCheckIntervalNs + ", producerStallTimeoutNs=" +
            producerStallTimeoutNs + ", postLivenessCheckPeriod=" + postLivenessCheckPeriod + ", maxVis=" + maxVis +
            ", queueDepth=" + queueDepth + ", maxSegments=" + maxSegments + ", maxCqs=" + maxCqs +
            ", maxCqEntries=" + maxCqEntries + ", maxRegions=" + maxRegions + ", maxTransferSize=" +
            maxTransferSize + ", shmDirectory=" + shmDirectory + ", shmWakeup=" + shmWakeup + ", tcpPollLeaseNs=" +
            tcpPollLeaseNs + ", tcpPollLeaseMaxNs=" + tcpPollLeaseMaxNs + ", tcpConnectRetryNs=" +
            tcpConnectRetryNs + ", tcpSendStagingLimit=" + tcpSendStagingLimit + ", tcpPeerTimeoutNs=" +
            tcpPeerTimeoutNs + ", ucxProgressThread=" + ucxProgressThread.text() + '}';
    }

    private synchronized void set(final String propertyName)
    {
        if (concluded)
        {
            throw new IllegalStateException("NicContext is concluded and can no longer change: " + propertyName);
        }
        explicit.add(propertyName);
    }

    private long longSetting(
        final Settings settings, final String setter, final String propertyName, final long value, final long min)
    {
        if (!explicit.contains(propertyName))
        {
            return settings.longValue(propertyName, value, min);
        }
        if (value < min)
        {
            throw new IllegalArgumentException(source(settings, setter, propertyName) + " must be at least " + min +
                ": " + value);
        }
        return value;
    }

    private int intSetting(
        final Settings settings,
        final String setter,
        final String propertyName,
        final int value,
        final int min,
        final int max)
    {
        final long read = explicit.contains(propertyName) ?
            value : settings.longValue(propertyName, value, Long.MIN_VALUE);
        if (read < min || read > max)
        {
            final String range = Integer.MAX_VALUE != max ? "from " + min + " to " + max :
                read < min ? "at least " + min : "at most " + max;
            throw new IllegalArgumentException(
                source(settings, setter, propertyName) + " must be " + range + ": " + read);
        }
        return (int)read;
    }

    private int powerOfTwoSetting(
        final Settings settings,
        final String setter,
        final String propertyName,
        final int value,
        final int min,
        final int max)
    {
        final int read = intSetting(settings, setter, propertyName, value, min, max);
        if (!BitUtil.isPowerOfTwo(read))
        {
            throw new IllegalArgumentException(
                source(settings, setter, propertyName) + " must be a power of two: " + read);
        }
        return read;
    }

    private ProgressThread progressThreadSetting(final Settings settings, final ProgressThread value)
    {
        if (explicit.contains(UCX_PROGRESS_THREAD_PROP_NAME))
        {
            return value;
        }
        final String text = settings.text(UCX_PROGRESS_THREAD_PROP_NAME, value.text());
        try
        {
            return ProgressThread.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(settings.source(UCX_PROGRESS_THREAD_PROP_NAME) + " " + ex.getMessage(),
                ex);
        }
    }

    private String source(final Settings settings, final String setter, final String propertyName)
    {
        return explicit.contains(propertyName) ? setter + " (" + propertyName + ")" : settings.source(propertyName);
    }

    private Path defaultShmDirectory(final Settings settings)
    {
        final String configured = settings.text(SHM_DIR_PROP_NAME, "");
        if (!configured.isEmpty())
        {
            return Paths.get(configured);
        }
        final Path devShm = Paths.get("/dev/shm");
        return Files.isDirectory(devShm) && Files.isWritable(devShm) ?
            devShm : Paths.get(System.getProperty("java.io.tmpdir"));
    }
}
