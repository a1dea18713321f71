package org.viadsm.consistency.sync;

import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.Intervals;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Locks: a distributed MCS queue over one-sided operations, with the lock's vector clock handed from releaser to
 * acquirer.
 * <p>
 * Lock {@code L} is managed by node {@code L mod N}, whose control region holds the queue's tail (the last
 * node to ask, plus one; 0 when free) and the clock of the last release that found no successor. To acquire, a
 * node swaps itself into the tail with compare-and-swap. If the lock was free it reads the lock's clock from the
 * manager; otherwise it writes its id into its predecessor's next pointer and waits for the grant, which the
 * predecessor sends as an RDMA Write of its clock with a notification. Waiters are served in the order they
 * reached the tail (FIFO), and no node but the acquirer, its predecessor and the manager's memory takes part.
 * <p>
 * Memory consistency effects: the releaser's diffs are home and its write notices published before the clock it
 * hands on covers them, and the acquirer applies the notices of exactly the intervals its clock lacks, so writes
 * before a release happen-before reads after the matching acquire.
 * <p>
 * <b>Note:</b> used by the node's application thread only; locks are not reentrant.
 */
public final class LockProtocol
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
    private final int maxLocks;
    private final VectorClock incoming;
    private final IntHashSet held = new IntHashSet();

    /**
     * Creates the lock protocol.
     *
     * @param port      the network.
     * @param layout    the control region layout.
     * @param intervals the node's intervals.
     * @param sync      the node's notification state.
     * @param counters  the node's counters.
     * @param maxLocks  number of lock ids.
     */
    public LockProtocol(
        final ProtocolPort port,
        final ControlRegionLayout layout,
        final Intervals intervals,
        final SyncState sync,
        final Counters counters,
        final int maxLocks)
    {
        this.port = port;
        this.layout = layout;
        this.intervals = intervals;
        this.sync = sync;
        this.counters = counters;
        this.control = port.region(CONTROL);
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.maxLocks = maxLocks;
        this.incoming = new VectorClock(nodeCount);
    }

    /**
     * Acquires a lock, waiting in FIFO order behind earlier requesters.
     *
     * @param lockId the lock.
     * @throws IllegalArgumentException if the id is out of range.
     * @throws IllegalStateException    if this node already holds it.
     */
    public void lock(final int lockId)
    {
        checkLockId(lockId);
        checkNotHeld(lockId);
        sync.ensureUsable();
        final long startNs = System.nanoTime();
        final int manager = lockId % nodeCount;
        final long self = nodeId + 1L;
        long expected = 0L;
        long previous;
        while ((previous = port.compareAndSwap(manager, CONTROL, layout.lockTail(lockId), expected, self)) !=
            expected)
        {
            expected = previous;
        }
        if (0L == expected)
        {
            readLockClock(manager, lockId);
        }
        else
        {
            final int predecessor = (int)expected - 1;
            final int scalar = layout.outbox(ControlRegionLayout.OUTBOX_SCALAR);
            control.putLong(scalar, self);
            port.write(predecessor, CONTROL, layout.next(lockId), CONTROL, scalar, Long.BYTES);
            port.flushWrites();
            sync.awaitGrant(lockId, predecessor);
            incoming.read(control, layout.grantClock());
        }
        acquired(lockId, manager, startNs);
    }

    /**
     * Acquires a lock only if it is free now.
     *
     * @param lockId the lock.
     * @return true if acquired.
     * @throws IllegalArgumentException if the id is out of range.
     * @throws IllegalStateException    if this node already holds it.
     */
    public boolean tryLock(final int lockId)
    {
        checkLockId(lockId);
        checkNotHeld(lockId);
        sync.ensureUsable();
        final long startNs = System.nanoTime();
        final int manager = lockId % nodeCount;
        if (0L != port.compareAndSwap(manager, CONTROL, layout.lockTail(lockId), 0L, nodeId + 1L))
        {
            return false;
        }
        readLockClock(manager, lockId);
        acquired(lockId, manager, startNs);
        return true;
    }

    /**
     * Releases a lock: closes the interval, then hands the lock and this node's clock to the next waiter, or
     * leaves the clock with the manager if there is none.
     *
     * @param lockId the lock.
     * @throws IllegalMonitorStateException if this node does not hold it.
     */
    public void unlock(final int lockId)
    {
        if (lockId < 0 || lockId >= maxLocks || !held.remove(lockId))
        {
            throw new IllegalMonitorStateException("lock " + lockId + " is not held by node " + nodeId);
        }
        sync.ensureUsable();
        intervals.release();
        final VectorClock clock = intervals.clock();
        final int manager = lockId % nodeCount;
        long next = control.getLongVolatile(layout.next(lockId));
        if (0L == next)
        {
            final int slot = layout.outbox(ControlRegionLayout.OUTBOX_LOCK);
            clock.write(control, slot);
            port.write(manager, CONTROL, layout.lockClock(lockId), CONTROL, slot, layout.clockLength());
            port.flushWrites();
            final long self = nodeId + 1L;
            if (self == port.compareAndSwap(manager, CONTROL, layout.lockTail(lockId), self, 0L))
            {
                return;
            }
            next = sync.awaitLocalWord(control, layout.next(lockId), "the successor to link behind lock ", lockId);
        }
        control.putLong(layout.next(lockId), 0L);
        final int grant = layout.outbox(ControlRegionLayout.OUTBOX_GRANT);
        control.putLong(grant, lockId);
        clock.write(control, grant + Long.BYTES);
        port.writeAndNotify((int)next - 1, CONTROL, layout.grantLock(), CONTROL, grant,
            Long.BYTES + layout.clockLength(), Notifications.of(Notifications.GRANT, lockId));
        counters.increment(Counter.MESSAGES_SENT);
        port.flushWrites();
    }

    /**
     * Whether this node holds a lock.
     *
     * @param lockId the lock.
     * @return true if held.
     */
    public boolean isHeld(final int lockId)
    {
        return held.contains(lockId);
    }

    /**
     * Number of locks this node holds.
     *
     * @return the count.
     */
    public int heldCount()
    {
        return held.size();
    }

    private void readLockClock(final int manager, final int lockId)
    {
        final int inbox = layout.outbox(ControlRegionLayout.OUTBOX_INBOX);
        port.read(manager, CONTROL, layout.lockClock(lockId), CONTROL, inbox, layout.clockLength());
        incoming.read(control, inbox);
    }

    private void acquired(final int lockId, final int manager, final long startNs)
    {
        held.add(lockId);
        intervals.acquire(incoming);
        counters.increment(manager == nodeId ? Counter.LOCK_ACQUIRES_LOCAL : Counter.LOCK_ACQUIRES_REMOTE);
        counters.add(Counter.LOCK_WAIT_NS, System.nanoTime() - startNs);
    }

    private void checkLockId(final int lockId)
    {
        if (lockId < 0 || lockId >= maxLocks)
        {
            throw new IllegalArgumentException("lock id must be in [0, " + maxLocks + "): " + lockId);
        }
    }

    private void checkNotHeld(final int lockId)
    {
        if (held.contains(lockId))
        {
            throw new IllegalStateException("lock " + lockId + " is already held by node " + nodeId +
                "; locks are not reentrant");
        }
    }
}
