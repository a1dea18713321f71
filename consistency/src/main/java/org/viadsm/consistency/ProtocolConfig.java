package org.viadsm.consistency;

import org.agrona.BitUtil;

/**
 * Sizes and limits of the consistency protocol; every node of a cluster must use the same values. Mutable with
 * fluent setters until {@link #conclude()} validates it and freezes it.
 */
public final class ProtocolConfig
{
    /** Default coherence unit: 4 KiB pages. */
    public static final int PAGE_SIZE_DEFAULT = 4096;
    /** Default number of lock ids. */
    public static final int MAX_LOCKS_DEFAULT = 1024;
    /** Default number of semaphore ids. */
    public static final int MAX_SEMAPHORES_DEFAULT = 256;
    /** Default number of intervals a node's write-notice log retains. */
    public static final int LOG_INTERVALS_DEFAULT = 16 * 1024;
    /** Default number of write notices a node's write-notice log retains. */
    public static final int LOG_NOTICES_DEFAULT = 256 * 1024;
    /** Largest cluster. */
    public static final int MAX_NODES = 256;
    /** What a page size must be, as the errors that refuse one say it. */
    public static final String PAGE_SIZE_RULE = "a power of two in [512, 1048576]";
    /** Largest control region a configuration may need. */
    public static final long MAX_CONTROL_REGION_BYTES = 1L << 30;

    private int nodeCount = 1;
    private int pageSize = PAGE_SIZE_DEFAULT;
    private int maxLocks = MAX_LOCKS_DEFAULT;
    private int maxSemaphores = MAX_SEMAPHORES_DEFAULT;
    private int logIntervals = LOG_INTERVALS_DEFAULT;
    private int logNotices = LOG_NOTICES_DEFAULT;
    private int prefetchPages = 1;
    private boolean concluded;

    /**
     * Creates a configuration with the defaults.
     */
    public ProtocolConfig()
    {
    }

    /**
     * Number of nodes.
     *
     * @return the node count.
     */
    public int nodeCount()
    {
        return nodeCount;
    }

    /**
     * Sets the number of nodes.
     *
     * @param nodeCount from 1 to {@link #MAX_NODES}.
     * @return this.
     */
    public ProtocolConfig nodeCount(final int nodeCount)
    {
        checkNotConcluded("nodeCount");
        this.nodeCount = nodeCount;
        return this;
    }

    /**
     * The coherence unit in bytes.
     *
     * @return the page size.
     */
    public int pageSize()
    {
        return pageSize;
    }

    /**
     * Sets the coherence unit.
     *
     * @param pageSize a power of two from 512 to 1 MiB.
     * @return this.
     */
    public ProtocolConfig pageSize(final int pageSize)
    {
        checkNotConcluded("pageSize");
        this.pageSize = pageSize;
        return this;
    }

    /**
     * Number of lock ids, {@code [0, maxLocks)}.
     *
     * @return the lock limit.
     */
    public int maxLocks()
    {
        return maxLocks;
    }

    /**
     * Sets the number of lock ids.
     *
     * @param maxLocks at least 1.
     * @return this.
     */
    public ProtocolConfig maxLocks(final int maxLocks)
    {
        checkNotConcluded("maxLocks");
        this.maxLocks = maxLocks;
        return this;
    }

    /**
     * Number of semaphore ids, {@code [0, maxSemaphores)}.
     *
     * @return the semaphore limit.
     */
    public int maxSemaphores()
    {
        return maxSemaphores;
    }

    /**
     * Sets the number of semaphore ids.
     *
     * @param maxSemaphores at least 1.
     * @return this.
     */
    public ProtocolConfig maxSemaphores(final int maxSemaphores)
    {
        checkNotConcluded("maxSemaphores");
        this.maxSemaphores = maxSemaphores;
        return this;
    }

    /**
     * Intervals a write-notice log retains before the oldest are dropped (readers that fall further behind
     * invalidate conservatively).
     *
     * @return the interval capacity.
     */
    public int logIntervals()
    {
        return logIntervals;
    }

    /**
     * Sets the interval capacity of the write-notice log.
     *
     * @param logIntervals a power of two, at least 16.
     * @return this.
     */
    public ProtocolConfig logIntervals(final int logIntervals)
    {
        checkNotConcluded("logIntervals");
        this.logIntervals = logIntervals;
        return this;
    }

    /**
     * Write notices a log retains.
     *
     * @return the notice capacity.
     */
    public int logNotices()
    {
        return logNotices;
    }

    /**
     * Sets the notice capacity of the write-notice log.
     *
     * @param logNotices a power of two, at least 1024.
     * @return this.
     */
    public ProtocolConfig logNotices(final int logNotices)
    {
        checkNotConcluded("logNotices");
        this.logNotices = logNotices;
        return this;
    }

    /**
     * Pages a read miss fetches at most: the missing page and the invalid pages after it with the same home.
     *
     * @return the prefetch count.
     */
    public int prefetchPages()
    {
        return prefetchPages;
    }

    /**
     * Sets the prefetch count.
     *
     * @param prefetchPages from 1 to 64.
     * @return this.
     */
    public ProtocolConfig prefetchPages(final int prefetchPages)
    {
        checkNotConcluded("prefetchPages");
        this.prefetchPages = prefetchPages;
        return this;
    }

    /**
     * Whether a page size follows {@link #PAGE_SIZE_RULE}, the rule {@link #conclude()} applies.
     *
     * @param pageSize the coherence unit, bytes.
     * @return true for a power of two from 512 to 1 MiB.
     */
    public static boolean isValidPageSize(final int pageSize)
    {
        return BitUtil.isPowerOfTwo(pageSize) && pageSize >= 512 && pageSize <= 1 << 20;
    }

    /**
     * Validates the values and freezes them; a concluded configuration is left as it is.
     *
     * @return this.
     * @throws IllegalArgumentException naming the first bad value.
     */
    public ProtocolConfig conclude()
    {
        if (concluded)
        {
            return this;
        }
        check(nodeCount >= 1 && nodeCount <= MAX_NODES, "nodeCount must be in [1, " + MAX_NODES + "]",
            nodeCount);
        check(isValidPageSize(pageSize), "pageSize must be " + PAGE_SIZE_RULE, pageSize);
        check(maxLocks >= 1 && maxLocks <= 1 << 24, "maxLocks must be in [1, 16777216]", maxLocks);
        check(maxSemaphores >= 1 && maxSemaphores <= 1 << 20, "maxSemaphores must be in [1, 1048576]",
            maxSemaphores);
        check(BitUtil.isPowerOfTwo(logIntervals) && logIntervals >= 16 && logIntervals <= 1 << 20,
            "logIntervals must be a power of two in [16, 1048576]", logIntervals);
        check(BitUtil.isPowerOfTwo(logNotices) && logNotices >= 1024 && logNotices <= 1 << 24,
            "logNotices must be a power of two in [1024, 16777216]", logNotices);
        check(prefetchPages >= 1 && prefetchPages <= 64, "prefetchPages must be in [1, 64]", prefetchPages);
        final long controlBytes = ControlRegionLayout.lengthOf(this);
        if (controlBytes > MAX_CONTROL_REGION_BYTES)
        {
            throw new IllegalArgumentException("the control region for " + this + " would need " + controlBytes +
                " bytes, more than " + MAX_CONTROL_REGION_BYTES + "; lower maxSemaphores, maxLocks or the log sizes");
        }
        concluded = true;
        return this;
    }

    /**
     * Whether {@link #conclude()} has validated and frozen the values.
     *
     * @return true once concluded.
     */
    public boolean isConcluded()
    {
        return concluded;
    }

    private void checkNotConcluded(final String setting)
    {
        if (concluded)
        {
            throw new IllegalStateException("the protocol configuration is concluded and can no longer change: " +
                setting);
        }
    }

    private static void check(final boolean ok, final String message, final int value)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(message + ": " + value);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "ProtocolConfig{nodeCount=" + nodeCount + ", pageSize=" + pageSize + ", maxLocks=" + maxLocks +
            ", maxSemaphores=" + maxSemaphores + ", logIntervals=" + logIntervals + ", logNotices=" + logNotices +
            ", prefetchPages=" + prefetchPages + '}';
    }
}
