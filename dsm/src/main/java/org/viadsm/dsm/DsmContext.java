package org.viadsm.dsm;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.dsm.rendezvous.HostAddress;
import org.viadsm.dsm.rendezvous.Job;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.via.NicContext;
import org.viadsm.via.internal.Settings;

/**
 * How a node joins a cluster: its id, every node's NIC address, the protocol's sizes and its NIC's settings
 * ({@link #nicContext()}). Mutable with fluent setters until {@link Dsm#join(DsmContext)} concludes it; a concluded
 * context, its {@link #protocol()} and its {@link #nicContext()} are immutable, and the node keeps them. Every node
 * of a cluster must use the same addresses and sizes; {@link Dsm#join} checks.
 * <p>
 * A context from {@link #fromEnvironment()} takes, when it concludes, every setting not set on it from its system
 * property or environment variable (the property wins), as the {@code viadsm launch} command gives them to each
 * node:
 * <table>
 * <caption>Environment variables and system properties</caption>
 * <tr><th>environment</th><th>system property</th><th>meaning</th><th>default</th></tr>
 * <tr><td>{@code VIADSM_NODE_ID}</td><td>{@code viadsm.nodeId}</td><td>this node</td><td>required</td></tr>
 * <tr><td>{@code VIADSM_ADDRESSES}</td><td>{@code viadsm.addresses}</td>
 * <td>comma-separated NIC addresses, node 0 first</td><td>required</td></tr>
 * <tr><td>{@code VIADSM_PAGE_SIZE}</td><td>{@code viadsm.pageSize}</td><td>coherence unit</td><td>4096</td></tr>
 * <tr><td>{@code VIADSM_MAX_LOCKS}</td><td>{@code viadsm.maxLocks}</td><td>lock ids</td><td>1024</td></tr>
 * <tr><td>{@code VIADSM_PREFETCH_PAGES}</td><td>{@code viadsm.prefetchPages}</td><td>pages per miss</td>
 * <td>1</td></tr>
 * <tr><td>{@code VIADSM_SYNC_TIMEOUT_MS}</td><td>{@code viadsm.syncTimeoutMs}</td>
 * <td>longest lock, barrier or semaphore wait; 0 for none</td><td>0</td></tr>
 * <tr><td>{@code VIADSM_STATS_FILE}</td><td>{@code viadsm.statsFile}</td>
 * <td>where {@link Dsm#close()} writes the node's statistics as JSON</td><td>none</td></tr>
 * </table>
 * Without addresses, a process that a launcher ({@code mpirun}, {@code srun}, {@code mpiexec}) started joins as its
 * rank (see {@link Job}), through a rendezvous:
 * <table>
 * <caption>Joining as a launcher's rank</caption>
 * <tr><th>environment</th><th>system property</th><th>meaning</th><th>default</th></tr>
 * <tr><td>{@code VIADSM_RENDEZVOUS}</td><td>{@code viadsm.rendezvous}</td>
 * <td>{@code host:port} where rank 0 listens</td><td>none: a directory</td></tr>
 * <tr><td>{@code VIADSM_RENDEZVOUS_DIR}</td><td>{@code viadsm.rendezvous.dir}</td>
 * <td>where the job's rendezvous directory goes, on a file system all ranks share</td>
 * <td>{@code ~/.viadsm/rendezvous}</td></tr>
 * <tr><td>{@code VIADSM_PROVIDER}</td><td>{@code viadsm.provider}</td><td>the NIC provider</td><td>tcp</td></tr>
 * <tr><td>{@code VIADSM_INTERFACE}</td><td>{@code viadsm.interface}</td>
 * <td>the interface, address or network ({@code 10.1.0.0/16}) the NIC listens on</td>
 * <td>see {@link HostAddress}</td></tr>
 * </table>
 * The NIC's settings are read by its own context, from {@code viadsm.via.*}, {@code viadsm.shm.*} and
 * {@code viadsm.tcp.*} (see {@link org.viadsm.via.NicConfiguration}), whichever way this context was made.
 * <p>
 * <b>Note:</b> not thread-safe until concluded.
 */
public final class DsmContext
{
    /** This node's id. */
    public static final String NODE_ID_PROP_NAME = "viadsm.nodeId";
    /** Every node's NIC address, comma-separated, node 0 first. */
    public static final String ADDRESSES_PROP_NAME = "viadsm.addresses";
    /** The coherence unit, bytes. */
    public static final String PAGE_SIZE_PROP_NAME = "viadsm.pageSize";
    /** The number of lock ids. */
    public static final String MAX_LOCKS_PROP_NAME = "viadsm.maxLocks";
    /** Pages a read miss fetches at most. */
    public static final String PREFETCH_PAGES_PROP_NAME = "viadsm.prefetchPages";
    /** The longest lock, barrier or semaphore wait, ms; 0 for none. */
    public static final String SYNC_TIMEOUT_MS_PROP_NAME = "viadsm.syncTimeoutMs";
    /** Where {@link Dsm#close()} writes the node's statistics as JSON. */
    public static final String STATS_FILE_PROP_NAME = "viadsm.statsFile";
    /** For a launcher's rank: {@code host:port} where rank 0 listens for the rendezvous. */
    public static final String RENDEZVOUS_PROP_NAME = "viadsm.rendezvous";
    /** For a launcher's rank: where the job's rendezvous directory goes, on a file system every rank shares. */
    public static final String RENDEZVOUS_DIR_PROP_NAME = "viadsm.rendezvous.dir";
    /** For a launcher's rank: the NIC provider. */
    public static final String PROVIDER_PROP_NAME = "viadsm.provider";
    /** For a launcher's rank: the interface, address or network the NIC listens on. */
    public static final String INTERFACE_PROP_NAME = "viadsm.interface";

    /** What {@link #pageSize(int)} must be, as the error that refuses a value says it. */
    public static final String PAGE_SIZE_RULE = ProtocolConfig.PAGE_SIZE_RULE;

    /** Default for how long joining waits for every node: 60 s. */
    public static final long CONNECT_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);
    /** Default for how long closing waits for the other nodes to close: 60 s. */
    public static final long LEAVE_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);

    private final Settings settings;
    private final Map<String, String> environment;
    private final Set<String> explicit = new HashSet<>();
    private int nodeId = -1;
    private List<String> addresses = Collections.emptyList();
    private final ProtocolConfig protocol = new ProtocolConfig();
    private NicContext nicContext = new NicContext();
    private long connectTimeoutNs = CONNECT_TIMEOUT_NS_DEFAULT;
    private long leaveTimeoutNs = LEAVE_TIMEOUT_NS_DEFAULT;
    private long syncTimeoutNs = Long.MAX_VALUE;
    private Path statsFile;
    private Rendezvous rendezvous;
    private String localAddress;
    private boolean concluded;

    /**
     * Creates a context with the defaults; set what differs, then pass it to {@link Dsm#join(DsmContext)}.
     */
    public DsmContext()
    {
        this(null, Map.of());
    }

    private DsmContext(final Settings settings, final Map<String, String> environment)
    {
        this.settings = settings;
        this.environment = environment;
    }

    /**
     * A context that takes every setting not set on it from its system property or environment variable when it
     * concludes; node id and addresses are then required.
     *
     * @return a context ready to join.
     */
    public static DsmContext fromEnvironment()
    {
        return new DsmContext(Settings.fromSystem(), System.getenv());
    }

    static DsmContext fromSettings(final Map<String, String> env, final Map<?, ?> properties)
    {
        return new DsmContext(new Settings(env, properties), env);
    }

    /**
     * This node's id.
     *
     * @return the node id, or -1 if unset.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * Sets this node's id.
     *
     * @param nodeId from 0 to {@code addresses().size() - 1}.
     * @return this.
     */
    public DsmContext nodeId(final int nodeId)
    {
        set(NODE_ID_PROP_NAME);
        this.nodeId = nodeId;
        return this;
    }

    /**
     * Every node's NIC address, node 0 first.
     *
     * @return an unmodifiable list.
     */
    public List<String> addresses()
    {
        return addresses;
    }

    /**
     * Sets every node's NIC address; the list's size is the node count.
     *
     * @param addresses e.g. {@code shm:run1-0, shm:run1-1}.
     * @return this.
     */
    public DsmContext addresses(final List<String> addresses)
    {
        set(ADDRESSES_PROP_NAME);
        this.addresses = trimmed(addresses);
        return this;
    }

    /**
     * Number of nodes.
     *
     * @return {@code addresses().size()}, or the rendezvous' size while the addresses are not known yet.
     */
    public int nodeCount()
    {
        return addresses.isEmpty() && null != rendezvous ? rendezvous.size() : addresses.size();
    }

    /**
     * Joins through a rendezvous instead of a list of addresses: {@link Dsm#join} opens this node's NIC at
     * {@code localAddress}, publishes the address the NIC reports (with the port the system picked) and learns
     * every other node's, then withdraws its entry once every node has joined. The node id is the rendezvous'
     * rank. A context from {@link #fromEnvironment()} does this by itself in a process that a launcher started
     * and that has no addresses.
     *
     * @param rendezvous   the job's rendezvous; its size is the node count.
     * @param localAddress the address to open this node's NIC at, e.g. {@code tcp:10.0.0.5:0}.
     * @return this.
     */
    public DsmContext rendezvous(final Rendezvous rendezvous, final String localAddress)
    {
        set(RENDEZVOUS_PROP_NAME);
        this.rendezvous = rendezvous;
        this.localAddress = localAddress.trim();
        this.nodeId = rendezvous.rank();
        explicit.add(NODE_ID_PROP_NAME);
        return this;
    }

    /**
     * The rendezvous this node joins through.
     *
     * @return the rendezvous, or null if the addresses are given.
     */
    public Rendezvous rendezvous()
    {
        return rendezvous;
    }

    /**
     * The address this node's NIC opens at: its entry in {@link #addresses()}, or the one given with the
     * rendezvous.
     *
     * @return the address.
     */
    public String localAddress()
    {
        return null != localAddress ? localAddress : addresses.get(nodeId);
    }

    /**
     * Takes the addresses a rendezvous gave, once, for a concluded context that joins through one; checked as
     * given addresses are.
     */
    void joinedAddresses(final List<String> joined)
    {
        if (null == rendezvous || !addresses.isEmpty() || joined.size() != rendezvous.size())
        {
            throw new IllegalStateException("addresses come from a rendezvous once, " + rendezvous.size() +
                " of them: " + joined);
        }
        checkAddresses(trimmed(joined));
        this.addresses = trimmed(joined);
    }

    /**
     * Sets the coherence unit.
     *
     * @param pageSize a power of two from 512 to 1 MiB; 4096 by default.
     * @return this.
     */
    public DsmContext pageSize(final int pageSize)
    {
        set(PAGE_SIZE_PROP_NAME);
        protocol.pageSize(pageSize);
        return this;
    }

    /**
     * Whether a page size follows {@link #PAGE_SIZE_RULE}: the check {@link #conclude()} makes, for a launcher to
     * refuse a bad value before it starts a node.
     *
     * @param pageSize the coherence unit, bytes.
     * @return true for a power of two from 512 to 1 MiB.
     */
    public static boolean isValidPageSize(final int pageSize)
    {
        return ProtocolConfig.isValidPageSize(pageSize);
    }

    /**
     * Sets the number of lock ids.
     *
     * @param maxLocks lock ids are {@code [0, maxLocks)}; 1024 by default.
     * @return this.
     */
    public DsmContext maxLocks(final int maxLocks)
    {
        set(MAX_LOCKS_PROP_NAME);
        protocol.maxLocks(maxLocks);
        return this;
    }

    /**
     * Sets the number of semaphore ids.
     *
     * @param maxSemaphores semaphore ids are {@code [0, maxSemaphores)}; 256 by default.
     * @return this.
     */
    public DsmContext maxSemaphores(final int maxSemaphores)
    {
        set("maxSemaphores");
        protocol.maxSemaphores(maxSemaphores);
        return this;
    }

    /**
     * Sets how many pages a read miss fetches at most (the missing page and the invalid pages after it with the
     * same home).
     *
     * @param pages from 1 (the default) to 64.
     * @return this.
     */
    public DsmContext prefetchPages(final int pages)
    {
        set(PREFETCH_PAGES_PROP_NAME);
        protocol.prefetchPages(pages);
        return this;
    }

    /**
     * Sets the write-notice log's capacity.
     *
     * @param intervals intervals retained, a power of two.
     * @param notices   notices retained, a power of two.
     * @return this.
     */
    public DsmContext noticeLog(final int intervals, final int notices)
    {
        set("noticeLog");
        protocol.logIntervals(intervals).logNotices(notices);
        return this;
    }

    /**
     * The protocol configuration this context builds.
     *
     * @return the configuration, node count included and frozen once concluded.
     */
    public ProtocolConfig protocol()
    {
        return protocol;
    }

    /**
     * The settings of this node's NIC.
     *
     * @return the NIC context, concluded with this one.
     */
    public NicContext nicContext()
    {
        return nicContext;
    }

    /**
     * Sets the settings of this node's NIC; by default a new {@link NicContext}.
     *
     * @param context the NIC context.
     * @return this.
     */
    public DsmContext nicContext(final NicContext context)
    {
        set("nicContext");
        if (null == context)
        {
            throw new IllegalArgumentException("the NIC context is null");
        }
        this.nicContext = context;
        return this;
    }

    /**
     * How long joining waits for every node to connect.
     *
     * @return nanoseconds.
     */
    public long connectTimeoutNs()
    {
        return connectTimeoutNs;
    }

    /**
     * Sets how long joining waits for every node to connect.
     *
     * @param timeoutNs nanoseconds.
     * @return this.
     */
    public DsmContext connectTimeoutNs(final long timeoutNs)
    {
        set("connectTimeoutNs");
        this.connectTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * How long closing waits for the other nodes to close.
     *
     * @return nanoseconds.
     */
    public long leaveTimeoutNs()
    {
        return leaveTimeoutNs;
    }

    /**
     * Sets how long closing waits for the other nodes to close.
     *
     * @param timeoutNs nanoseconds.
     * @return this.
     */
    public DsmContext leaveTimeoutNs(final long timeoutNs)
    {
        set("leaveTimeoutNs");
        this.leaveTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * The longest a lock, barrier or semaphore wait may take before it fails.
     *
     * @return nanoseconds; {@link Long#MAX_VALUE} for no limit (the default: failures of other nodes still end
     *         every wait).
     */
    public long syncTimeoutNs()
    {
        return syncTimeoutNs;
    }

    /**
     * Sets the synchronization timeout.
     *
     * @param timeoutNs nanoseconds, or {@link Long#MAX_VALUE} for none.
     * @return this.
     */
    public DsmContext syncTimeoutNs(final long timeoutNs)
    {
        set(SYNC_TIMEOUT_MS_PROP_NAME);
        this.syncTimeoutNs = timeoutNs;
        return this;
    }

    /**
     * Where {@link Dsm#close()} writes this node's statistics as JSON.
     *
     * @return the file, or null.
     */
    public Path statsFile()
    {
        return statsFile;
    }

    /**
     * Sets where {@link Dsm#close()} writes this node's statistics as JSON.
     *
     * @param file the file, or null for none.
     * @return this.
     */
    public DsmContext statsFile(final Path file)
    {
        set(STATS_FILE_PROP_NAME);
        this.statsFile = file;
        return this;
    }

    /**
     * Whether the context is concluded, and so frozen.
     *
     * @return true once concluded.
     */
    public boolean isConcluded()
    {
        return concluded;
    }

    /**
     * Reads what is not set (for a context from {@link #fromEnvironment()}), validates every value, concludes the
     * NIC context and freezes this context; a concluded context is left as it is. {@link Dsm#join(DsmContext)}
     * calls it.
     *
     * @return this.
     * @throws IllegalArgumentException naming the first bad value, as the setter, system property or environment
     *                                  variable it came from.
     */
    public DsmContext conclude()
    {
        if (concluded)
        {
            return this;
        }
        if (null != settings)
        {
            readSettings();
        }
        if (addresses.isEmpty() && null == rendezvous)
        {
            throw new IllegalArgumentException("no node addresses given");
        }
        if (nodeId < 0 || nodeId >= nodeCount())
        {
            throw new IllegalArgumentException(source(NODE_ID_PROP_NAME, "nodeId") + " must be in [0, " +
                nodeCount() + ") for " + nodeCount() + (addresses.isEmpty() ? " nodes: " : " addresses: ") + nodeId);
        }
        if (null != localAddress)
        {
            checkAddresses(List.of(localAddress));
        }
        checkAddresses(addresses);
        if (connectTimeoutNs <= 0 || leaveTimeoutNs < 0 || syncTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("timeouts must be positive: connectTimeoutNs=" + connectTimeoutNs +
                ", leaveTimeoutNs=" + leaveTimeoutNs + ", syncTimeoutNs=" + syncTimeoutNs);
        }
        concludeProtocol();
        nicContext.conclude();
        concluded = true;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmContext{nodeId=" + nodeId + ", addresses=" + addresses + ", " + protocol + '}';
    }

    private static void checkAddresses(final List<String> addresses)
    {
        if (new HashSet<>(addresses).size() != addresses.size())
        {
            throw new IllegalArgumentException("node addresses must be distinct: " + addresses);
        }
        for (final String address : addresses)
        {
            if (address.indexOf(':') <= 0)
            {
                throw new IllegalArgumentException("node address '" + address + "' has no scheme (jvm:, shm:, tcp:)");
            }
        }
    }

    /**
     * A process that a launcher started, with no addresses given, joins as the launcher's rank: its rank, size,
     * rendezvous and NIC address come from the launcher's variables and this context's settings.
     */
    private boolean joinAsLaunchedRank()
    {
        if (explicit.contains(ADDRESSES_PROP_NAME) || explicit.contains(RENDEZVOUS_PROP_NAME) ||
            settings.isSet(ADDRESSES_PROP_NAME))
        {
            return false;
        }
        final Job job = Job.detect(environment);
        if (null == job)
        {
            throw new IllegalArgumentException("missing setting: environment variable " +
                Settings.envName(ADDRESSES_PROP_NAME) + " or system property " + ADDRESSES_PROP_NAME +
                " (viadsm run and launch set them), and no launcher (mpirun, srun, mpiexec) started this process");
        }
        final String endpoint = settings.text(RENDEZVOUS_PROP_NAME, "");
        final InetSocketAddress at = endpoint.isEmpty() ? null : Rendezvous.endpoint(endpoint);
        final Path base = Paths.get(settings.text(RENDEZVOUS_DIR_PROP_NAME,
            Paths.get(System.getProperty("user.home"), ".viadsm", "rendezvous").toString()));
        final String nic = job.nicAddress(settings.text(PROVIDER_PROP_NAME, "tcp"),
            HostAddress.pick(settings.text(INTERFACE_PROP_NAME, ""), at));
        rendezvous = null == at ? Rendezvous.directory(job.directory(base), job.rank(), job.size()) :
            Rendezvous.tcp(at, job.rank(), job.size());
        localAddress = nic;
        nodeId = job.rank();
        return true;
    }

    private void readSettings()
    {
        if (!explicit.contains(NODE_ID_PROP_NAME) && !explicit.contains(RENDEZVOUS_PROP_NAME) &&
            joinAsLaunchedRank())
        {
            explicit.add(NODE_ID_PROP_NAME);
            explicit.add(ADDRESSES_PROP_NAME);
        }
        if (!explicit.contains(NODE_ID_PROP_NAME))
        {
            settings.text(NODE_ID_PROP_NAME, null);
            nodeId = settings.intValue(NODE_ID_PROP_NAME, -1, 0);
        }
        if (!explicit.contains(ADDRESSES_PROP_NAME))
        {
            addresses = trimmed(Arrays.asList(settings.text(ADDRESSES_PROP_NAME, null).split(",")));
        }
        if (!explicit.contains(PAGE_SIZE_PROP_NAME))
        {
            protocol.pageSize(settings.intValue(PAGE_SIZE_PROP_NAME, protocol.pageSize(), Integer.MIN_VALUE));
        }
        if (!explicit.contains(MAX_LOCKS_PROP_NAME))
        {
            protocol.maxLocks(settings.intValue(MAX_LOCKS_PROP_NAME, protocol.maxLocks(), Integer.MIN_VALUE));
        }
        if (!explicit.contains(PREFETCH_PAGES_PROP_NAME))
        {
            protocol.prefetchPages(
                settings.intValue(PREFETCH_PAGES_PROP_NAME, protocol.prefetchPages(), Integer.MIN_VALUE));
        }
        if (!explicit.contains(SYNC_TIMEOUT_MS_PROP_NAME))
        {
            final long ms = settings.longValue(SYNC_TIMEOUT_MS_PROP_NAME, 0, 0);
            syncTimeoutNs = 0 == ms ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(ms);
        }
        if (!explicit.contains(STATS_FILE_PROP_NAME))
        {
            final String file = settings.text(STATS_FILE_PROP_NAME, "");
            statsFile = file.isEmpty() ? null : Paths.get(file);
        }
    }

    /**
     * Concludes the protocol configuration; a bad value read from a property or variable is reported as that
     * property or variable.
     */
    private void concludeProtocol()
    {
        try
        {
            protocol.nodeCount(nodeCount()).conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            final String message = ex.getMessage();
            for (final String name : List.of(PAGE_SIZE_PROP_NAME, MAX_LOCKS_PROP_NAME, PREFETCH_PAGES_PROP_NAME))
            {
                final String setter = name.substring("viadsm.".length());
                if (message.startsWith(setter + " ") && !explicit.contains(name) && null != settings &&
                    settings.isSet(name))
                {
                    throw new IllegalArgumentException(settings.source(name) + ": " + message, ex);
                }
            }
            throw ex;
        }
    }

    private String source(final String propertyName, final String setter)
    {
        return explicit.contains(propertyName) || null == settings ? setter : settings.source(propertyName);
    }

    private void set(final String setting)
    {
        if (concluded)
        {
            throw new IllegalStateException("DsmContext is concluded and can no longer change: " + setting);
        }
        explicit.add(setting);
    }

    private static List<String> trimmed(final List<String> addresses)
    {
        final List<String> trimmed = new ArrayList<>();
        for (final String address : addresses)
        {
            trimmed.add(address.trim());
        }
        return Collections.unmodifiableList(trimmed);
    }
}
