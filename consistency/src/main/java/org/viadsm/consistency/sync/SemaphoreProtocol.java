package org.viadsm.consistency.sync;

import org.viadsm.consistency.Counter;

/**
 * Counting semaphores (the SPLASH programs' pauses, and java.util.concurrent's {@code Semaphore}): a permit count
 * at the semaphore's manager (node {@code id mod N}), guarded by an internal lock of the semaphore, with an
 * internal condition of that lock on which acquirers wait for permits.
 * <p>
 * An acquire takes the lock, waits on the condition while the count is short, takes its permits and releases the
 * lock; a release takes the lock, adds its permits, signals every waiter (each takes what it needs in lock order,
 * the others wait again) and releases the lock. The lock carries the vector clocks, so a semaphore needs no clock
 * of its own, and a waiter sleeps until the grant that ends its wait: nothing polls.
 * <p>
 * Memory consistency effects: actions before a release happen-before actions after an acquire that takes any of
 * its permits (both run under the semaphore's lock, the release first).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SemaphoreProtocol
{
    /** An acquire that took its permits. */
    public static final int ACQUIRED = 0;

    private final SyncNode node;
    private final LockProtocol locks;
    private final ConditionProtocol conditions;
    private final int maxSemaphores;
    private final int firstLock;

    /**
     * Creates the semaphore protocol.
     *
     * @param node          the node's synchronization plumbing.
     * @param locks         the node's locks.
     * @param conditions    the node's conditions.
     * @param maxSemaphores number of semaphore ids.
     * @param firstLock     the id of semaphore 0's lock and condition; semaphore {@code s} uses
     *                      {@code firstLock + s}.
     */
    public SemaphoreProtocol(
        final SyncNode node,
        final LockProtocol locks,
        final ConditionProtocol conditions,
        final int maxSemaphores,
        final int firstLock)
    {
        this.node = node;
        this.locks = locks;
        this.conditions = conditions;
        this.maxSemaphores = maxSemaphores;
        this.firstLock = firstLock;
    }

    /**
     * Takes permits from a semaphore, waiting until there are enough, up to a timeout or until the thread is
     * interrupted.
     *
     * @param id            the semaphore.
     * @param permits       how many, at least 0.
     * @param timeoutNs     longest wait; {@link SyncWait#NO_TIMEOUT} for none, 0 to take them only if there now.
     * @param interruptible whether an interrupt of the thread ends the wait.
     * @return {@link #ACQUIRED}, {@link SyncWait#TIMED_OUT} or {@link SyncWait#INTERRUPTED}.
     * @throws IllegalArgumentException if the id is out of range or the permits negative.
     */
    public int acquire(final int id, final int permits, final long timeoutNs, final boolean interruptible)
    {
        check(id, permits);
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + timeoutNs;
        final int lockId = firstLock + id;
        // the lock is only ever held briefly, so taking permits only if there now still waits for it
        int outcome = locks.acquireQuietly(lockId, 0 == timeoutNs ? SyncWait.NO_TIMEOUT : timeoutNs, interruptible);
        if (outcome >= 0)
        {
            final int manager = id % node.nodeCount;
            final int count = node.layout.semaphorePermits(id);
            while (true)
            {
                final long available = node.readWord(manager, count);
                if (available >= permits)
                {
                    node.writeWord(manager, count, available - permits);
                    outcome = ACQUIRED;
                    break;
                }
                final long leftNs = SyncWait.NO_TIMEOUT == timeoutNs ? SyncWait.NO_TIMEOUT :
                    deadlineNs - System.nanoTime();
                if (leftNs <= 0)
                {
                    outcome = SyncWait.TIMED_OUT;
                    break;
                }
                outcome = conditions.awaitQuietly(lockId, lockId, leftNs, interruptible);
                if (ConditionProtocol.SIGNALLED != outcome)
                {
                    break;
                }
            }
            locks.release(lockId);
        }
        node.counters.increment(Counter.SEMAPHORE_WAITS);
        node.counters.add(Counter.SEMAPHORE_WAIT_NS, System.nanoTime() - startNs);
        return outcome;
    }

    /**
     * Adds permits to a semaphore, releasing this node's writes to whoever takes them, and wakes its waiters.
     *
     * @param id      the semaphore.
     * @param permits how many, at least 0.
     * @throws IllegalArgumentException if the id is out of range, the permits negative, or the count would
     *                                  exceed {@link Integer#MAX_VALUE}.
     */
    public void release(final int id, final int permits)
    {
        check(id, permits);
        final int lockId = firstLock + id;
        locks.acquireQuietly(lockId, SyncWait.NO_TIMEOUT, false);
        final int manager = id % node.nodeCount;
        final int count = node.layout.semaphorePermits(id);
        final long available = node.readWord(manager, count);
        if (available > Integer.MAX_VALUE - permits)
        {
            locks.release(lockId);
            throw new IllegalArgumentException("semaphore " + id + " has " + available + " permits; " + permits +
                " more would exceed " + Integer.MAX_VALUE);
        }
        node.writeWord(manager, count, available + permits);
        conditions.signalQuietly(lockId, lockId, true);
        locks.release(lockId);
    }

    /**
     * The permits a semaphore has now, read without its lock: a value it had a moment ago.
     *
     * @param id the semaphore.
     * @return the permit count.
     * @throws IllegalArgumentException if the id is out of range.
     */
    public int availablePermits(final int id)
    {
        check(id, 0);
        node.sync.ensureUsable();
        return (int)node.readWord(id % node.nodeCount, node.layout.semaphorePermits(id));
    }

    private void check(final int id, final int permits)
    {
        if (id < 0 || id >= maxSemaphores)
        {
            throw new IllegalArgumentException("semaphore id must be in [0, " + maxSemaphores + "): " + id);
        }
        if (permits < 0)
        {
            throw new IllegalArgumentException("permits must not be negative: " + permits);
        }
    }
}
