package org.viadsm.consistency.node;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.SyncEpoch;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.diff.TwinPool;
import org.viadsm.consistency.home.HomePolicy;
import org.viadsm.consistency.interval.Intervals;
import org.viadsm.consistency.notice.WriteNoticeLog;
import org.viadsm.consistency.notice.WriteNoticeReader;
import org.viadsm.consistency.page.ArrayRegionLayout;
import org.viadsm.consistency.page.PageCoherence;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.page.SharedSpace;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.ProtocolPort;
import org.viadsm.consistency.sync.BarrierProtocol;
import org.viadsm.consistency.sync.ConditionProtocol;
import org.viadsm.consistency.sync.ElementAtomics;
import org.viadsm.consistency.sync.LockProtocol;
import org.viadsm.consistency.sync.SemaphoreProtocol;
import org.viadsm.consistency.sync.SyncNode;
import org.viadsm.consistency.sync.SyncState;

/**
 * One node of home-based lazy release consistency: its shared space, intervals, locks, conditions, barriers and
 * semaphores, over a {@link ProtocolPort}. The dsm module puts shared arrays and a cluster handle on top; tests
 * drive it over an in-memory port.
 * <p>
 * Memory consistency effects: writes before a release (an unlock, a condition wait, a barrier, a semaphore
 * release) happen-before reads after the matching acquire (the next lock of that lock by any node, the exit from
 * that barrier on every node, the semaphore acquire that takes its permits); data-race-free programs see
 * sequential consistency.
 * <p>
 * <b>Note:</b> used by one thread at a time, the node's application thread; region 0 of the port must be the
 * control region, at least {@link ControlRegionLayout#length()} zeroed bytes.
 */
public final class HlrcNode implements AutoCloseable
{
    /** Region id of the control region. */
    public static final int CONTROL_REGION = 0;

    private final ProtocolPort port;
    private final ProtocolConfig config;
    private final ControlRegionLayout layout;
    private final Counters counters;
    private final SharedSpace space = new SharedSpace();
    private final SyncEpoch syncEpoch = new SyncEpoch();
    private final TwinPool twins;
    private final PageCoherence coherence;
    private final Intervals intervals;
    private final SyncState sync;
    private final LockProtocol locks;
    private final ConditionProtocol conditions;
    private final BarrierProtocol barriers;
    private final SemaphoreProtocol semaphores;
    private final ElementAtomics atomics;
    private boolean left;

    /**
     * Creates the node and initialises its control region.
     *
     * @param port          the network; {@code port.nodeCount()} must equal the configuration's.
     * @param config        the protocol configuration, the same on every node.
     * @param counters      where the node counts.
     * @param syncTimeoutNs longest a synchronization may wait; {@link Long#MAX_VALUE} for no limit.
     * @throws IllegalArgumentException if the control region is too small or the node counts differ.
     */
    public HlrcNode(
        final ProtocolPort port, final ProtocolConfig config, final Counters counters, final long syncTimeoutNs)
    {
        config.conclude();
        if (port.nodeCount() != config.nodeCount())
        {
            throw new IllegalArgumentException("port has " + port.nodeCount() + " nodes, configuration " +
                config.nodeCount());
        }
        this.port = port;
        this.config = config;
        this.layout = new ControlRegionLayout(config);
        this.counters = counters;
        final AtomicBuffer control = port.region(CONTROL_REGION);
        if (control.capacity() < layout.length())
        {
            throw new IllegalArgumentException("control region has " + control.capacity() + " bytes, needs " +
                layout.length());
        }
        this.twins = new TwinPool(config.pageSize());
        this.coherence = new PageCoherence(port, space, twins, counters, config.prefetchPages(), CONTROL_REGION,
            layout.registrations());
        final WriteNoticeLog log = new WriteNoticeLog(control, layout.log(), layout.logLayout());
        final WriteNoticeReader reader = new WriteNoticeReader(port, CONTROL_REGION, layout.log(),
            layout.logScratch(), layout.logLayout());
        this.intervals = new Intervals(port.nodeId(), port.nodeCount(), log, reader, coherence, counters,
            syncEpoch);
        this.sync = new SyncState(port, counters, syncTimeoutNs);
        final SyncNode syncNode = new SyncNode(port, layout, intervals, sync, counters);
        this.locks = new LockProtocol(syncNode, config.maxLocks(), ControlRegionLayout.lockIds(config));
        this.conditions = new ConditionProtocol(syncNode, locks, config.maxLocks());
        this.barriers = new BarrierProtocol(syncNode);
        this.semaphores = new SemaphoreProtocol(syncNode, locks, conditions, config.maxSemaphores(),
            config.maxLocks());
        this.atomics = new ElementAtomics(port, space, coherence, twins);
    }

    /**
     * Bytes the control region needs for a configuration.
     *
     * @param config a concluded configuration.
     * @return the control region length.
     */
    public static int controlRegionLength(final ProtocolConfig config)
    {
        return new ControlRegionLayout(config).length();
    }

    /**
     * Bytes a shared array's region needs: its pages, then the first-touch directory and the copysets that peers
     * change at the pages' homes (see {@link ArrayRegionLayout}).
     *
     * @param config a concluded configuration.
     * @param pages  pages of the array.
     * @return the region length.
     */
    public static long arrayRegionLength(final ProtocolConfig config, final int pages)
    {
        return new ArrayRegionLayout(pages, config.pageSize(), config.nodeCount()).length();
    }

    /**
     * This node's id.
     *
     * @return the node id.
     */
    public int nodeId()
    {
        return port.nodeId();
    }

    /**
     * Number of nodes.
     *
     * @return the node count.
     */
    public int nodeCount()
    {
        return port.nodeCount();
    }

    /**
     * The configuration.
     *
     * @return the configuration.
     */
    public ProtocolConfig config()
    {
        return config;
    }

    /**
     * The control region's layout.
     *
     * @return the layout.
     */
    public ControlRegionLayout layout()
    {
        return layout;
    }

    /**
     * The node's counters.
     *
     * @return the counters.
     */
    public Counters counters()
    {
        return counters;
    }

    /**
     * The node's shared space.
     *
     * @return the space.
     */
    public SharedSpace space()
    {
        return space;
    }

    /**
     * The node's vector clock.
     *
     * @return the live clock.
     */
    public VectorClock clock()
    {
        return intervals.clock();
    }

    /**
     * The node's synchronization count: advanced at every release, every acquire and when the node leaves.
     *
     * @return the live epoch.
     */
    public SyncEpoch syncEpoch()
    {
        return syncEpoch;
    }

    /**
     * Intervals this node's write-notice log still retains: bounded by garbage collection at barriers and by the
     * log's capacity.
     *
     * @return the retained interval count.
     */
    public long retainedIntervals()
    {
        return intervals.log().retained();
    }

    /**
     * Adds a shared array whose memory the caller has registered as {@code region} on every node.
     *
     * @param name        the array's name.
     * @param region      its region id, the same on every node.
     * @param pages       number of pages.
     * @param elementSize bytes per element, the diff granularity.
     * @param homes       the home policy.
     * @param memory      this node's copy of the region, {@link #arrayRegionLength} bytes, zeroed.
     * @return the array's page table.
     * @throws IllegalArgumentException if the memory is too short.
     */
    public PageTable addArray(
        final String name, final int region, final int pages, final int elementSize, final HomePolicy homes,
        final AtomicBuffer memory)
    {
        final PageTable table = new PageTable(name, region, space.nextGlobalPage(), pages, config.pageSize(),
            elementSize, homes, memory, port.nodeId(), port.nodeCount());
        space.add(table);
        return table;
    }

    /**
     * Removes a shared array after a {@link #barrier()} that every node passed after its last access to it: the
     * barrier sent every diff home and applied every write notice naming its pages, so nothing refers to them
     * any more. Gives back any twins it still holds and invalidates every page; the caller frees the region.
     *
     * @param table the array's page table.
     * @throws IllegalArgumentException if the array is not this node's.
     * @throws IllegalStateException    if one of its pages is still dirty.
     */
    public void removeArray(final PageTable table)
    {
        space.remove(table);
        for (int page = 0; page < table.pages(); page++)
        {
            if (PageTable.NO_TWIN != table.twin(page))
            {
                twins.release(table.twin(page));
                table.twin(page, PageTable.NO_TWIN);
            }
        }
        table.invalidateAll();
    }

    /**
     * Makes an invalid page readable.
     *
     * @param table the page's array.
     * @param page  the page.
     */
    public void readFault(final PageTable table, final int page)
    {
        coherence.readFault(table, page);
    }

    /**
     * Makes a page writable for the rest of the interval.
     *
     * @param table the page's array.
     * @param page  the page.
     */
    public void writeFault(final PageTable table, final int page)
    {
        coherence.writeFault(table, page);
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} readable: fetches those that are invalid. They stay
     * readable until the next {@link SyncEpoch} advance.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void readable(final PageTable table, final int firstPage, final int lastPage)
    {
        coherence.readable(table, firstPage, lastPage);
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} writable for the rest of the interval, as a write fault on
     * each would. They stay writable until the next {@link SyncEpoch} advance.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void writable(final PageTable table, final int firstPage, final int lastPage)
    {
        coherence.writable(table, firstPage, lastPage);
    }

    /**
     * Makes bytes {@code [from, to)} of an array writable for an overwrite (see {@link PageCoherence#overwritable}).
     * @param table the array.
     * @param from  the first byte.
     * @param to    the end, exclusive, above {@code from}.
     */
    public void overwritable(final PageTable table, final long from, final long to)
    {
        coherence.overwritable(table, from, to);
    }

    /**
     * The home of a page (claiming it under first touch).
     *
     * @param table the page's array.
     * @param page  the page.
     * @return its home node.
     */
    public int home(final PageTable table, final int page)
    {
        return coherence.home(table, page);
    }

    /**
     * Acquires a lock.
     *
     * @param lockId the lock.
     */
    public void lock(final int lockId)
    {
        locks.lock(lockId);
    }

    /**
     * Acquires a lock if it is free.
     *
     * @param lockId the lock.
     * @return true if acquired.
     */
    public boolean tryLock(final int lockId)
    {
        return locks.tryLock(lockId);
    }

    /**
     * Releases a lock.
     *
     * @param lockId the lock.
     */
    public void unlock(final int lockId)
    {
        locks.unlock(lockId);
    }

    /**
     * Whether this node holds a lock.
     *
     * @param lockId the lock.
     * @return true if held.
     */
    public boolean isHeld(final int lockId)
    {
        return locks.isHeld(lockId);
    }

    /**
     * A barrier with release and acquire.
     */
    public void barrier()
    {
        barriers.barrier();
    }

    /**
     * A barrier without consistency actions, for the runtime's collectives.
     */
    public void syncBarrier()
    {
        barriers.syncBarrier();
    }

    /**
     * The node's locks.
     *
     * @return the lock protocol.
     */
    public LockProtocol locks()
    {
        return locks;
    }

    /**
     * The node's condition variables.
     *
     * @return the condition protocol.
     */
    public ConditionProtocol conditions()
    {
        return conditions;
    }

    /**
     * The node's barrier.
     *
     * @return the barrier protocol.
     */
    public BarrierProtocol barriers()
    {
        return barriers;
    }

    /**
     * The node's atomic operations on array elements.
     *
     * @return the element atomics.
     */
    public ElementAtomics atomics()
    {
        return atomics;
    }

    /**
     * The node's semaphores.
     *
     * @return the semaphore protocol.
     */
    public SemaphoreProtocol semaphores()
    {
        return semaphores;
    }

    /**
     * Leaves the cluster: tells every peer, then waits up to {@code timeoutNs} until every peer has left or
     * failed, so no peer still needs this node's memory when it is freed. Locks this node still holds are
     * abandoned: nodes queued for them fail instead of waiting forever. Advances the {@link SyncEpoch}.
     * Idempotent.
     *
     * @param timeoutNs longest wait for the peers.
     * @return true if every peer left in time.
     */
    public boolean leave(final long timeoutNs)
    {
        syncEpoch.advance();
        if (left)
        {
            return true;
        }
        left = true;
        final int notification = Notifications.of(Notifications.LEAVE, SyncState.leaveArgument(barriers.epoch()));
        for (int node = 0; node < port.nodeCount(); node++)
        {
            if (node != port.nodeId())
            {
                try
                {
                    port.writeAndNotify(node, CONTROL_REGION, 0, CONTROL_REGION, 0, 0, notification);
                }
                catch (final ProtocolException ignore)
                {
                    // A peer that is gone needs no goodbye.
                }
            }
        }
        try
        {
            port.flushWrites();
        }
        catch (final ProtocolException ignore)
        {
            // As above: only reachable peers matter.
        }
        return sync.awaitAllLeft(timeoutNs);
    }

    /**
     * Frees the node's private memory (twins); the caller frees the port and regions.
     */
    @Override
    public void close()
    {
        twins.close();
    }
}
