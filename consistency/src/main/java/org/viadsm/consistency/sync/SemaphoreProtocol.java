package org.viadsm.consistency.sync;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.Intervals;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Counting semaphores (the SPLASH programs' pauses): a count at the semaphore's manager (node {@code id mod N}),
 * changed with remote atomics, and one clock slot per posting node.
 * <p>
 * A post closes the poster's interval, leaves its clock in its slot, then increments the count. A wait polls the
 * count (with back-off: nothing notifies a waiter), takes one unit with compare-and-swap, then merges every
 * poster's slot into its clock and acquires. Merging clocks of posts it did not consume only makes the waiter
 * invalidate more, which is safe: every clock in a slot covers a completed release.
 * <p>
 * Memory consistency effects: actions before a post happen-before actions after the wait that consumes it.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SemaphoreProtocol
{
    private static final int CONTROL = 0;

    private final ProtocolPort port;
    private final ControlRegionLayout layout;
    private final Intervals intervals;
    private final SyncState sync;
    private final Counters counters;
    private final AtomicBuffer control;
    private final int nodeId;
    private final int nodeCount;
    private final int maxSemaphores;
    private final VectorClock incoming;

    /**
     * Creates the semaphore protocol.
     *
     * @param port          the network.
     * @param layout        the control region layout.
     * @param intervals     the node's intervals.
     * @param sync          the node's notification state.
     * @param counters      the node's counters.
     * @param maxSemaphores number of semaphore ids.
     */
    public SemaphoreProtocol(
        final ProtocolPort port,
        final ControlRegionLayout layout,
        final Intervals intervals,
        final SyncState sync,
        final Counters counters,
        final int maxSemaphores)
    {
        this.port = port;
        this.layout = layout;
        this.intervals = intervals;
        this.sync = sync;
        this.counters = counters;
        this.control = port.region(CONTROL);
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.maxSemaphores = maxSemaphores;
        this.incoming = new VectorClock(nodeCount);
    }

    /**
     * Adds one unit to a semaphore, releasing this node's writes to whoever consumes it.
     *
     * @param id the semaphore.
     * @throws IllegalArgumentException if the id is out of range.
     */
    public void post(final int id)
    {
        checkId(id);
        sync.ensureUsable();
        intervals.release();
        final int manager = id % nodeCount;
        final int slot = layout.outbox(ControlRegionLayout.OUTBOX_SEMAPHORE);
        intervals.clock().write(control, slot);
        port.write(manager, CONTROL, layout.semaphoreClock(id, nodeId), CONTROL, slot, layout.clockLength());
        port.flushWrites();
        port.fetchAndAdd(manager, CONTROL, layout.semaphoreCount(id), 1L);
    }

    /**
     * Takes one unit from a semaphore, waiting until there is one, and acquires the posters' writes.
     *
     * @param id the semaphore.
     * @throws IllegalArgumentException if the id is out of range.
     */
    public void await(final int id)
    {
        checkId(id);
        sync.ensureUsable();
        final long startNs = System.nanoTime();
        final int manager = id % nodeCount;
        final int countOffset = layout.semaphoreCount(id);
        boolean first = true;
        while (true)
        {
            final long count = port.fetchAndAdd(manager, CONTROL, countOffset, 0L);
            if (count > 0 && count == port.compareAndSwap(manager, CONTROL, countOffset, count, count - 1))
            {
                break;
            }
            if (count <= 0)
            {
                sync.pollPause(startNs, "semaphore ", id, first);
                first = false;
            }
        }
        incoming.clear();
        final int scratch = layout.logScratch();
        port.read(manager, CONTROL, layout.semaphoreClock(id, 0), CONTROL, scratch, nodeCount * layout.clockLength());
        for (int poster = 0; poster < nodeCount; poster++)
        {
            incoming.merge(control, scratch + poster * layout.clockLength());
        }
        intervals.acquire(incoming);
        counters.increment(Counter.SEMAPHORE_WAITS);
        counters.add(Counter.SEMAPHORE_WAIT_NS, System.nanoTime() - startNs);
    }

    private void checkId(final int id)
    {
        if (id < 0 || id >= maxSemaphores)
        {
            throw new IllegalArgumentException("semaphore id must be in [0, " + maxSemaphores + "): " + id);
        }
    }
}
