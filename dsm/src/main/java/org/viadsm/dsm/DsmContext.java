package org.viadsm.dsm;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.dsm.rendezvous.HostAddress;
import org.viadsm.dsm.rendezvous.Job;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.via.NicContext;
import org.viadsm.via.internal.SettingResolver;
import org.viadsm.via.internal.Settings;

/**
 * How a node joins a cluster: its id, every node's NIC address, the protocol's sizes, its waits to join, leave and
 * synchronize ({@link #timeouts()}) and its NIC's settings ({@link #nicContext()}). Mutable with fluent setters
 * until {@link Dsm#join(DsmContext)} concludes it; a concluded context, its {@link #protocol()}, its
 * {@link #timeouts()} and its {@link #nicContext()} are immutable, and the node keeps them. Every node of a cluster
 * must use the same addresses and sizes; {@link Dsm#join} checks.
 * <p>
 * A context from {@link #fromEnvironment()} takes, when it concludes, every setting not set on it from its system
 * property (the {@code *_PROP_NAME} constants) or its environment variable, named after the property in upper case
 * ({@code viadsm.pageSize}: {@code VIADSM_PAGE_SIZE}); the property wins. The {@code viadsm launch} command gives
 * them to each node. Without addresses, a process that a launcher ({@code mpirun}, {@code srun}, {@code mpiexec})
 * started joins as its rank (see {@link Job}), through a rendezvous at {@link #RENDEZVOUS_PROP_NAME} or in a
 * directory under {@link #RENDEZVOUS_DIR_PROP_NAME}, with a NIC of {@link #PROVIDER_PROP_NAME} on
 * {@link #INTERFACE_PROP_NAME}. The NIC's settings are read by its own context, from {@code viadsm.via.*},
 * {@code viadsm.shm.*} and {@code viadsm.tcp.*} (see {@link org.viadsm.via.NicConfiguration}), whichever way this
 * context was made.
 * <p>
 * <b>Note:</b> not thread-safe until concluded.
 */
public final class DsmContext
{
    /** This node's id; required. */
    public static final String NODE_ID_PROP_NAME = "viadsm.nodeId";
    /** Every node's NIC address, comma-separated, node 0 first; required but for a launcher's rank. */
    public static final String ADDRESSES_PROP_NAME = "viadsm.addresses";
    /** The coherence unit, bytes: {@link #pageSize(int)}, 4096 by default. */
    public static final String PAGE_SIZE_PROP_NAME = "viadsm.pageSize";
    /** The number of lock ids: {@link #maxLocks(int)}, 1024 by default. */
    public static final String MAX_LOCKS_PROP_NAME = "viadsm.maxLocks";
    /** Pages a read miss fetches at most: {@link #prefetchPages(int)}, 1 by default. */
    public static final String PREFETCH_PAGES_PROP_NAME = "viadsm.prefetchPages";
    /** The longest lock, barrier or semaphore wait, ms: {@link TimeoutSettings#syncNs(long)}; 0 (the default): none. */
    public static final String SYNC_TIMEOUT_MS_PROP_NAME = "viadsm.syncTimeoutMs";
    /** Where {@link Dsm#close()} writes the node's statistics as JSON: {@link #statsFile(Path)}, none by default. */
    public static final String STATS_FILE_PROP_NAME = "viadsm.statsFile";
    /** For a launcher's rank: {@code host:port} where rank 0 listens for the rendezvous; none: a directory. */
    public static final String RENDEZVOUS_PROP_NAME = "viadsm.rendezvous";
    /**
     * For a launcher's rank: where the job's rendezvous directory goes, on a file system every rank shares;
     * {@code ~/.viadsm/rendezvous} by default.
     */
    public static final String RENDEZVOUS_DIR_PROP_NAME = "viadsm.rendezvous.dir";
    /** For a launcher's rank: the NIC provider, {@value #PROVIDER_DEFAULT} by default. */
    public static final String PROVIDER_PROP_NAME = "viadsm.provider";
    /** A launcher's rank's NIC provider when {@link #PROVIDER_PROP_NAME} is not set. */
    public static final String PROVIDER_DEFAULT = "tcp";
    /**
     * For a launcher's rank: the interface, address or network ({@code 10.1.0.0/16}) the NIC listens on; see
     * {@link HostAddress} for the default.
     */
    public static final String INTERFACE_PROP_NAME = "viadsm.interface";

    /** The most nodes a cluster may have: {@link #conclude()} refuses more. */
    public static final int MAX_NODES = ProtocolConfig.MAX_NODES;

    /** What {@link #pageSize(int)} must be, as the error that refuses a value says it. */
    public static final String PAGE_SIZE_RULE = ProtocolConfig.PAGE_SIZE_RULE;

    /** A context built by setters reads no property or variable. */
    private static final Settings NO_SETTINGS = new Settings(Map.of(), Map.of());

    private final Settings settings;
    private final boolean fromEnvironment;
    private final Map<String, String> environment;
    private final SettingResolver resolver = new SettingResolver("DsmContext");
    private final TimeoutSettings timeouts = new TimeoutSettings(resolver);
    private int nodeId = -1;
    private List<String> addresses = Collections.emptyList();
    private final ProtocolSettings protocol = new ProtocolSettings(resolver);
    private NicContext nicContext = new NicContext();
    private Path statsFile;
    private Rendezvous rendezvous;
    private String localAddress;

    /**
     * Creates a context with the defaults; set what differs, then pass it to {@link Dsm#join(DsmContext)}.
     */
    public DsmContext()
    {
        this(NO_SETTINGS, false, Map.of());
    }

    private DsmContext(final Settings settings, final boolean fromEnvironment, final Map<String, String> environment)
    {
        this.settings = settings;
        this.fromEnvironment = fromEnvironment;
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
        return new DsmContext(Settings.fromSystem(), true, System.getenv());
    }

    static DsmContext fromSettings(final Map<String, String> env, final Map<?, ?> properties)
    {
        return new DsmContext(new Settings(env, properties), true, env);
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
        this.addresses = NodeAddresses.trimmed(addresses);
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
        resolver.set(NODE_ID_PROP_NAME);
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
        final List<String> trimmed = NodeAddresses.trimmed(joined);
        NodeAddresses.check(trimmed);
        this.addresses = trimmed;
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
        protocol.config().pageSize(pageSize);
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
        protocol.config().maxLocks(maxLocks);
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
        protocol.config().maxSemaphores(maxSemaphores);
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
        protocol.config().prefetchPages(pages);
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
        protocol.config().logIntervals(intervals).logNotices(notices);
        return this;
    }

    /**
     * The protocol configuration this context builds.
     *
     * @return the configuration, node count included and frozen once concluded.
     */
    ProtocolConfig protocol()
    {
        return protocol.config();
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
     * How long the node waits to join, to leave and to synchronize.
     *
     * @return the group, changed in place by its setters until this context is concluded.
     */
    public TimeoutSettings timeouts()
    {
        return timeouts;
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
        return resolver.isConcluded();
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
    public synchronized DsmContext conclude()
    {
        if (resolver.isConcluded())
        {
            return this;
        }
        if (fromEnvironment)
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
            NodeAddresses.check(List.of(localAddress));
        }
        NodeAddresses.check(addresses);
        timeouts.conclude(settings);
        protocol.conclude(settings, nodeCount());
        nicContext.conclude();
        resolver.conclude();
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmContext{nodeId=" + nodeId + ", addresses=" + addresses + ", " + protocol.config() + ", " + timeouts +
            '}';
    }

    /**
     * A process that a launcher started, with no addresses given, joins as the launcher's rank (see
     * {@link LaunchedRank}).
     */
    private boolean joinAsLaunchedRank()
    {
        if (resolver.isExplicit(ADDRESSES_PROP_NAME) || resolver.isExplicit(RENDEZVOUS_PROP_NAME) ||
            settings.isSet(ADDRESSES_PROP_NAME))
        {
            return false;
        }
        final LaunchedRank launched = LaunchedRank.of(settings, environment);
        rendezvous = launched.rendezvous();
        localAddress = launched.localAddress();
        nodeId = launched.rank();
        return true;
    }

    private void readSettings()
    {
        if (!resolver.isExplicit(NODE_ID_PROP_NAME) && !resolver.isExplicit(RENDEZVOUS_PROP_NAME) &&
            joinAsLaunchedRank())
        {
            resolver.set(NODE_ID_PROP_NAME);
            resolver.set(ADDRESSES_PROP_NAME);
        }
        if (!resolver.isExplicit(NODE_ID_PROP_NAME))
        {
            settings.text(NODE_ID_PROP_NAME, null);
            nodeId = settings.intValue(NODE_ID_PROP_NAME, -1, 0);
        }
        if (!resolver.isExplicit(ADDRESSES_PROP_NAME))
        {
            addresses = NodeAddresses.trimmed(Arrays.asList(settings.text(ADDRESSES_PROP_NAME, null).split(",")));
        }
        if (!resolver.isExplicit(STATS_FILE_PROP_NAME))
        {
            final String file = settings.text(STATS_FILE_PROP_NAME, "");
            statsFile = file.isEmpty() ? null : Paths.get(file);
        }
    }

    private String source(final String propertyName, final String setter)
    {
        return resolver.isExplicit(propertyName) || !fromEnvironment ?
            setter + " (" + propertyName + ")" : settings.source(propertyName);
    }

    private void set(final String setting)
    {
        resolver.set(setting);
    }
}
