package org.viadsm.via;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;
import org.viadsm.via.memory.MemoryHandle;

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
import static org.viadsm.via.NicConfiguration.QUEUE_DEPTH_DEFAULT;
import static org.viadsm.via.NicConfiguration.QUEUE_DEPTH_PROP_NAME;
import static org.viadsm.via.NicConfiguration.SHM_DIR_PROP_NAME;
import static org.viadsm.via.NicConfiguration.SHM_WAKEUP_DEFAULT;
import static org.viadsm.via.NicConfiguration.SHM_WAKEUP_PROP_NAME;
import static org.viadsm.via.NicConfiguration.UCX_PEER_TIMEOUT_NS_DEFAULT;
import static org.viadsm.via.NicConfiguration.UCX_PEER_TIMEOUT_NS_PROP_NAME;
import static org.viadsm.via.NicConfiguration.UCX_PROGRESS_THREAD_DEFAULT;
import static org.viadsm.via.NicConfiguration.UCX_PROGRESS_THREAD_PROP_NAME;

/**
 * How a NIC waits, detects failures and sizes its shared area, for {@link Nic#open(String, NicContext)}: fluent
 * setters, then {@link #conclude()}, which reads every setting that was not set from its system property or
 * environment variable ({@link NicConfiguration}), validates them all and freezes the context. The NIC keeps the
 * concluded values; nothing else in the engine reads a property. The settings come in groups: the NIC's area and
 * files here, its waits and failure detection in {@link #waits()} ({@link WaitSettings}), and what only a
 * {@code tcp} NIC reads in {@link #tcp()} ({@link TcpSettings}); a group's setters change it in place.
 * <pre>{@code
 * final NicContext context = new NicContext().maxVis(16);
 * context.waits().spinNs(50_000);
 * try (Nic nic = Nic.open("shm:node0", context))
 * }</pre>
 * <b>Note:</b> not thread-safe until concluded; a concluded context is immutable and may be shared by any number
 * of NICs (safely published, as by passing it to another thread's start).
 */
public final class NicContext
{
    private final SettingResolver resolver = new SettingResolver("NicContext");
    private final WaitSettings waits = new WaitSettings(resolver);
    private final TcpSettings tcp = new TcpSettings(resolver);
    private int maxVis = MAX_VIS_DEFAULT;
    private int queueDepth = QUEUE_DEPTH_DEFAULT;
    private int maxSegments = MAX_SEGMENTS_DEFAULT;
    private int maxCqs = MAX_CQS_DEFAULT;
    private int maxCqEntries = MAX_CQ_ENTRIES_DEFAULT;
    private int maxRegions = MAX_REGIONS_DEFAULT;
    private int maxTransferSize = MAX_TRANSFER_SIZE_DEFAULT;
    private Path shmDirectory;
    private boolean shmWakeup = SHM_WAKEUP_DEFAULT;
    private ProgressThread ucxProgressThread = UCX_PROGRESS_THREAD_DEFAULT;
    private long ucxPeerTimeoutNs = UCX_PEER_TIMEOUT_NS_DEFAULT;

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

    NicContext conclude(final Settings settings)
    {
        synchronized (resolver)
        {
            if (resolver.isConcluded())
            {
                return this;
            }
            waits.conclude(settings);
            maxVis = resolver.intSetting(settings, "maxVis", MAX_VIS_PROP_NAME, maxVis, 1, 0xFFFF);
            queueDepth = resolver.powerOfTwoSetting(
                settings, "queueDepth", QUEUE_DEPTH_PROP_NAME, queueDepth, 2, 1 << 16);
            maxSegments = resolver.intSetting(settings, "maxSegments", MAX_SEGMENTS_PROP_NAME, maxSegments, 1, 256);
            maxCqs = resolver.intSetting(settings, "maxCqs", MAX_CQS_PROP_NAME, maxCqs, 1, 4096);
            maxCqEntries = resolver.powerOfTwoSetting(
                settings, "maxCqEntries", MAX_CQ_ENTRIES_PROP_NAME, maxCqEntries, 2, 1 << 24);
            maxRegions = resolver.intSetting(
                settings, "maxRegions", MAX_REGIONS_PROP_NAME, maxRegions, 1, MemoryHandle.MAX_ENTRIES);
            maxTransferSize = resolver.intSetting(
                settings, "maxTransferSize", MAX_TRANSFER_SIZE_PROP_NAME, maxTransferSize, 1, Integer.MAX_VALUE);
            shmDirectory = null != shmDirectory ? shmDirectory : defaultShmDirectory(settings);
            shmWakeup = resolver.isExplicit(SHM_WAKEUP_PROP_NAME) ?
                shmWakeup : settings.booleanValue(SHM_WAKEUP_PROP_NAME, shmWakeup);
            tcp.conclude(settings);
            ucxProgressThread = progressThreadSetting(settings, ucxProgressThread);
            ucxPeerTimeoutNs = resolver.longSetting(
                settings, "ucxPeerTimeoutNs", UCX_PEER_TIMEOUT_NS_PROP_NAME, ucxPeerTimeoutNs, 100_000_000L);
            resolver.conclude();
            return this;
        }
    }

    /**
     * Whether {@link #conclude()} has run.
     *
     * @return true once concluded.
     */
    public boolean isConcluded()
    {
        return resolver.isConcluded();
    }

    /**
     * How the NIC's waits spin, park and sleep, and how they detect failed peers.
     *
     * @return the group, changed in place by its setters until this context is concluded.
     */
    public WaitSettings waits()
    {
        return waits;
    }

    /**
     * The settings only a {@code tcp} NIC reads.
     *
     * @return the group, changed in place by its setters until this context is concluded.
     */
    public TcpSettings tcp()
    {
        return tcp;
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
        resolver.set(MAX_VIS_PROP_NAME);
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
        resolver.set(QUEUE_DEPTH_PROP_NAME);
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
        resolver.set(MAX_SEGMENTS_PROP_NAME);
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
        resolver.set(MAX_CQS_PROP_NAME);
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
        resolver.set(MAX_CQ_ENTRIES_PROP_NAME);
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
        resolver.set(MAX_REGIONS_PROP_NAME);
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
        resolver.set(MAX_TRANSFER_SIZE_PROP_NAME);
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
        resolver.set(SHM_DIR_PROP_NAME);
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
        resolver.set(SHM_WAKEUP_PROP_NAME);
        this.shmWakeup = wakeup;
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
        resolver.set(UCX_PROGRESS_THREAD_PROP_NAME);
        this.ucxProgressThread = Objects.requireNonNull(choice, "ucxProgressThread");
        return this;
    }

    /**
     * How long a ucx link watched by heartbeats may bring none before its peer is taken for lost.
     *
     * @return ns.
     */
    public long ucxPeerTimeoutNs()
    {
        return ucxPeerTimeoutNs;
    }

    /**
     * Sets how long a ucx link watched by heartbeats may bring none before its peer is taken for lost.
     *
     * @param ns at least 100 ms; {@link NicConfiguration#UCX_PEER_TIMEOUT_NS_PROP_NAME}.
     * @return this.
     */
    public NicContext ucxPeerTimeoutNs(final long ns)
    {
        resolver.set(UCX_PEER_TIMEOUT_NS_PROP_NAME);
        this.ucxPeerTimeoutNs = ns;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "NicContext{concluded=" + isConcluded() + ", " + waits + ", maxVis=" + maxVis + ", queueDepth=" +
            queueDepth + ", maxSegments=" + maxSegments + ", maxCqs=" + maxCqs + ", maxCqEntries=" + maxCqEntries +
            ", maxRegions=" + maxRegions + ", maxTransferSize=" + maxTransferSize + ", shmDirectory=" + shmDirectory +
            ", shmWakeup=" + shmWakeup + ", " + tcp + ", ucxProgressThread=" + ucxProgressThread.text() +
            ", ucxPeerTimeoutNs=" + ucxPeerTimeoutNs + '}';
    }





    private ProgressThread progressThreadSetting(final Settings settings, final ProgressThread value)
    {
        if (resolver.isExplicit(UCX_PROGRESS_THREAD_PROP_NAME))
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
