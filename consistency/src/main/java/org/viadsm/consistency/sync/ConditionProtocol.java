package org.viadsm.consistency.sync;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;

/**
 * Condition variables on locks (JIAJIA had them; TreadMarks programs built them from locks): a FIFO queue of
 * waiting nodes per condition, kept at the condition's manager (node {@code id mod N}) as head and tail words and
 * linked through each waiter's wait record, a state word and a next word in the waiter's control region.
 * <p>
 * Every change to a queue's links is made by a node holding the condition's lock (the waiter joining, the
 * signaller taking it off), so the links need no atomics; they are flushed before the lock is released, which
 * orders them before the next holder's reads. The one change made without the lock is a waiter giving up
 * (timeout, interrupt): it turns its state from waiting to cancelled with a compare-and-swap, which races only with
 * the signaller's compare-and-swap from waiting to signalled. A signaller passes cancelled records by; a waiter
 * that gives up and waits again before being passed by takes up its old place.
 * <p>
 * To wait, a node joins the queue, releases the lock and sleeps. A signal hands the first waiter back to the lock's
 * queue ({@link LockQueue#transfer}): the waiter is granted the lock in its turn, and that grant is the only
 * notification it receives, so a wait costs one wake-up.
 * <p>
 * Memory consistency effects: as for the lock. Waiting releases the lock and returns having acquired it again, so
 * actions before a signaller's (or any holder's) release of the lock happen-before actions after the wait
 * returns.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class ConditionProtocol
{
    /** A wait that ended by a signal. */
    public static final int SIGNALLED = 0;

    static final long IDLE = 0;
    static final long WAITING = 1;
    static final long MOVED = 2;
    static final long CANCELLED = 3;

    private final SyncNode node;
    private final AtomicBuffer control;
    private final LockProtocol locks;
    private final int maxConditions;
    private final SyncWait wait = new SyncWait();

    /**
     * Creates the condition protocol.
     *
     * @param node          the node's synchronization plumbing.
     * @param locks         the node's locks.
     * @param maxConditions number of user condition ids; internal ones follow.
     */
    public ConditionProtocol(final SyncNode node, final LockProtocol locks, final int maxConditions)
    {
        this.node = node;
        this.control = node.control;
        this.locks = locks;
        this.maxConditions = maxConditions;
    }

    /**
     * Waits on a condition of a lock this node holds: releases the lock, sleeps until signalled, the timeout passes
     * or the thread is interrupted, and returns holding the lock again in every case.
     *
     * @param conditionId   the condition.
     * @param lockId        its lock, held by this node.
     * @param timeoutNs     longest wait for the signal; {@link SyncWait#NO_TIMEOUT} for none.
     * @param interruptible whether an interrupt ends the wait.
     * @return {@link #SIGNALLED}, {@link SyncWait#TIMED_OUT} or {@link SyncWait#INTERRUPTED}.
     * @throws IllegalArgumentException     if the condition id is out of range.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     */
    public int await(final int conditionId, final int lockId, final long timeoutNs, final boolean interruptible)
    {
        checkIds(conditionId, lockId);
        final long startNs = System.nanoTime();
        final int outcome = awaitQuietly(conditionId, lockId, timeoutNs, interruptible);
        node.counters.add(Counter.LOCK_WAIT_NS, System.nanoTime() - startNs);
        return outcome;
    }

    /**
     * Moves the first waiter (or every waiter) of a condition into its lock's queue.
     *
     * @param conditionId the condition.
     * @param lockId      its lock, held by this node.
     * @param all         whether to signal every waiter.
     * @return the number of waiters signalled.
     * @throws IllegalArgumentException     if the condition id is out of range.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     */
    public int signal(final int conditionId, final int lockId, final boolean all)
    {
        checkIds(conditionId, lockId);
        return signalQuietly(conditionId, lockId, all);
    }

    int awaitQuietly(final int conditionId, final int lockId, final long timeoutNs, final boolean interruptible)
    {
        checkHeld(conditionId, lockId);
        node.sync.ensureUsable();
        final int record = node.layout.conditionRecord(conditionId);
        final long state = control.getLongVolatile(record);
        if (CANCELLED == state)
        {
            control.putLongVolatile(record, WAITING);
        }
        else if (IDLE == state)
        {
            control.putLong(record + Long.BYTES, 0L);
            control.putLongVolatile(record, WAITING);
            join(conditionId);
        }
        else
        {
            node.sync.failWith("condition " + conditionId + ": this node's wait record is in state " + state +
                " while it does not wait");
        }
        locks.release(lockId);
        final SyncState sync = node.sync;
        wait.start(timeoutNs, interruptible);
        int outcome = SIGNALLED;
        int goneSeen = 0;
        try
        {
            while (!sync.takeGrant(lockId))
            {
                if (sync.goneCount() != goneSeen)
                {
                    goneSeen = sync.goneCount();
                    locks.checkHoldersGone(lockId, "a signal of condition " + conditionId + " on lock ");
                }
                final int step = sync.awaitStep(wait, "condition ", conditionId);
                if (SyncWait.PENDING != step)
                {
                    if (control.compareAndSetLong(record, WAITING, CANCELLED))
                    {
                        outcome = step;
                        break;
                    }
                    wait.mustFinish();
                }
            }
        }
        finally
        {
            wait.finish();
        }
        if (SIGNALLED == outcome)
        {
            control.putLongVolatile(record, IDLE);
            locks.acquireGranted(lockId);
        }
        else
        {
            locks.acquireQuietly(lockId, SyncWait.NO_TIMEOUT, false);
        }
        return outcome;
    }

    int signalQuietly(final int conditionId, final int lockId, final boolean all)
    {
        checkHeld(conditionId, lockId);
        node.sync.ensureUsable();
        final int manager = conditionId % node.nodeCount;
        final int queue = node.layout.conditionQueue(conditionId);
        final int record = node.layout.conditionRecord(conditionId);
        final int at = node.readInto(manager, queue, 2 * Long.BYTES);
        final long oldHead = control.getLong(at);
        long head = oldHead;
        long tail = control.getLong(at + Long.BYTES);
        int signalled = 0;
        while (0 != head && (all || 0 == signalled))
        {
            final int waiter = (int)head - 1;
            final int read = node.readInto(waiter, record, ControlRegionLayout.CONDITION_RECORD_LENGTH);
            final long state = control.getLong(read);
            final long next = control.getLong(read + Long.BYTES);
            final long seen = WAITING == state ? node.compareAndSwap(waiter, record, WAITING, MOVED) : state;
            if (WAITING == seen)
            {
                locks.queue().transfer(lockId, waiter);
                signalled++;
            }
            else if (CANCELLED == seen)
            {
                node.compareAndSwap(waiter, record, CANCELLED, IDLE);
            }
            else
            {
                node.sync.failWith("condition " + conditionId + ": queued node " + waiter + " has its wait record " +
                    "in state " + seen);
            }
            head = next;
            tail = 0 == head ? 0 : tail;
        }
        if (head != oldHead)
        {
            node.writeWord(manager, queue, head);
            node.writeWord(manager, queue + Long.BYTES, tail);
        }
        return signalled;
    }

    private void join(final int conditionId)
    {
        final int manager = conditionId % node.nodeCount;
        final int queue = node.layout.conditionQueue(conditionId);
        final long self = node.nodeId + 1L;
        final long tail = node.readWord(manager, queue + Long.BYTES);
        if (0 == tail)
        {
            node.writeWord(manager, queue, self);
        }
        else
        {
            node.writeWord((int)tail - 1, node.layout.conditionRecord(conditionId) + Long.BYTES, self);
        }
        node.writeWord(manager, queue + Long.BYTES, self);
    }

    private void checkIds(final int conditionId, final int lockId)
    {
        if (conditionId < 0 || conditionId >= maxConditions)
        {
            throw new IllegalArgumentException("condition id must be in [0, " + maxConditions + "): " + conditionId);
        }
        LockProtocol.checkLockId(lockId, maxConditions);
    }

    private void checkHeld(final int conditionId, final int lockId)
    {
        if (!locks.isHeld(lockId))
        {
            throw new IllegalMonitorStateException("lock " + lockId + " is not held by node " + node.nodeId +
                ", which uses its condition " + conditionId);
        }
    }
}
