package org.viadsm.dsm;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.viadsm.consistency.ProtocolConfig;

/**
 * How a node joins a cluster: its id, every node's NIC address, and the protocol's sizes. Mutable with fluent
 * setters until {@link Dsm#join(DsmContext)} concludes it. Every node of a cluster must use the same addresses and
 * sizes; {@link Dsm#join} checks.
 * <p>
 * {@link #fromEnvironment()} reads the settings the {@code viadsm launch} command gives each node:
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
 */
public final class DsmContext
{
    /** Default for how long joining waits for every node: 60 s. */
    public static final long CONNECT_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);
    /** Default for how long closing waits for the other nodes to close: 60 s. */
    public static final long LEAVE_TIMEOUT_NS_DEFAULT = TimeUnit.SECONDS.toNanos(60);

    private int nodeId = -1;
    private List<String> addresses = Collections.emptyList();
    private final ProtocolConfig protocol = new ProtocolConfig();
    private long connectTimeoutNs = CONNECT_TIMEOUT_NS_DEFAULT;
    private long leaveTimeoutNs = LEAVE_TIMEOUT_NS_DEFAULT;
    private long syncTimeoutNs = Long.MAX_VALUE;
    private Path statsFile;

    /**
     * Creates a context with the defaults; set what differs, then pass it to {@link Dsm#join(DsmContext)}.
     */
    public DsmContext()
    {
    }

    /**
     * Reads the context from environment variables, overridden by system properties of the same meaning.
     *
     * @return a context ready to join.
     * @throws IllegalArgumentException naming a missing or malformed setting.
     */
    public static DsmContext fromEnvironment()
    {
        return fromSettings(System.getenv(), System.getProperties());
    }

    static DsmContext fromSettings(final Map<String, String> env, final Map<Object, Object> properties)
    {
        final Settings settings = new Settings(env, properties);
        final DsmContext context = new DsmContext();
        context.nodeId(settings.integer("VIADSM_NODE_ID", "viadsm.nodeId", null));
        final String addresses = settings.text("VIADSM_ADDRESSES", "viadsm.addresses", null);
        context.addresses(Arrays.asList(addresses.split(",")));
        context.pageSize(settings.integer("VIADSM_PAGE_SIZE", "viadsm.pageSize", ProtocolConfig.PAGE_SIZE_DEFAULT));
        context.maxLocks(settings.integer("VIADSM_MAX_LOCKS", "viadsm.maxLocks", ProtocolConfig.MAX_LOCKS_DEFAULT));
        context.prefetchPages(settings.integer("VIADSM_PREFETCH_PAGES", "viadsm.prefetchPages", 1));
        final int syncTimeoutMs = settings.integer("VIADSM_SYNC_TIMEOUT_MS", "viadsm.syncTimeoutMs", 0);
        context.syncTimeoutNs(0 == syncTimeoutMs ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(syncTimeoutMs));
        final String statsFile = settings.text("VIADSM_STATS_FILE", "viadsm.statsFile", "");
        context.statsFile(statsFile.isEmpty() ? null : Paths.get(statsFile));
        return context;
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
        final List<String> trimmed = new ArrayList<>();
        for (final String address : addresses)
        {
            trimmed.add(address.trim());
        }
        this.addresses = Collections.unmodifiableList(trimmed);
        return this;
    }

    /**
     * Number of nodes.
     *
     * @return {@code addresses().size()}.
     */
    public int nodeCount()
    {
        return addresses.size();
    }

    /**
     * Sets the coherence unit.
     *
     * @param pageSize a power of two from 512 to 1 MiB; 4096 by default.
     * @return this.
     */
    public DsmContext pageSize(final int pageSize)
    {
        protocol.pageSize(pageSize);
        return this;
    }

    /**
     * Sets the number of lock ids.
     *
     * @param maxLocks lock ids are {@code [0, maxLocks)}; 1024 by default.
     * @return this.
     */
    public DsmContext maxLocks(final int maxLocks)
    {
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
        protocol.logIntervals(intervals).logNotices(notices);
        return this;
    }

    /**
     * The protocol configuration this context builds.
     *
     * @return the configuration, node count included once concluded.
     */
    public ProtocolConfig protocol()
    {
        return protocol;
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
        this.statsFile = file;
        return this;
    }

    /**
     * Validates the context.
     *
     * @return this.
     * @throws IllegalArgumentException naming the first bad value.
     */
    public DsmContext conclude()
    {
        if (addresses.isEmpty())
        {
            throw new IllegalArgumentException("no node addresses given");
        }
        if (nodeId < 0 || nodeId >= addresses.size())
        {
            throw new IllegalArgumentException(
                "nodeId must be in [0, " + addresses.size() + ") for " + addresses.size() + " addresses: " + nodeId);
        }
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
        if (connectTimeoutNs <= 0 || leaveTimeoutNs < 0 || syncTimeoutNs <= 0)
        {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        protocol.nodeCount(addresses.size()).conclude();
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

    private static final class Settings
    {
        private final Map<String, String> env;
        private final Map<Object, Object> properties;

        Settings(final Map<String, String> env, final Map<Object, Object> properties)
        {
            this.env = env;
            this.properties = properties;
        }

        String text(final String envName, final String propertyName, final String defaultValue)
        {
            final Object property = properties.get(propertyName);
            final String value = null != property ? property.toString() : env.get(envName);
            if (null == value || value.isBlank())
            {
                if (null == defaultValue)
                {
                    throw new IllegalArgumentException(
                        "missing setting: environment variable " + envName + " or system property " + propertyName);
                }
                return defaultValue;
            }
            return value.trim();
        }

        int integer(final String envName, final String propertyName, final Integer defaultValue)
        {
            final String value = text(envName, propertyName, null == defaultValue ? null : defaultValue.toString());
            try
            {
                return Integer.parseInt(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(envName + "/" + propertyName + " must be an integer: " + value, ex);
            }
        }
    }
}
