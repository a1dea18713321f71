package org.viadsm.dsm;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * A cluster-wide lock, obtained with {@link Dsm#lock(int)}: one of the cluster's numbered locks, as TreadMarks'
 * {@code Tmk_lock_acquire(id)} and {@code Tmk_lock_release(id)} are.
 * <p>
 * {@link #lock()} queues FIFO behind earlier requesters from any node. {@link #tryLock()} takes the lock only if it
 * is free; the timed and interruptible forms poll {@link #tryLock()} with back-off, so they do not queue and are
 * not FIFO. The lock is not reentrant: locking it again while holding it throws. Conditions are not supported.
 * <p>
 * Memory consistency effects: actions on a node prior to {@link #unlock()} happen-before actions on any node
 * after a subsequent successful acquire of the same lock. Data-race-free programs see sequential consistency.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmLock implements Lock
{
    private static final long MAX_BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Dsm dsm;
    private final int id;

    DsmLock(final Dsm dsm, final int id)
    {
        this.dsm = dsm;
        this.id = id;
    }

    /**
     * The lock's number.
     *
     * @return the lock id.
     */
    public int id()
    {
        return id;
    }

    /**
     * Acquires the lock, waiting in FIFO order behind earlier requesters.
     *
     * @throws IllegalStateException if this node already holds it.
     * @throws DsmException          if a node the wait depends on fails.
     */
    @Override
    public void lock()
    {
        dsm.lockAcquire(id);
    }

    /**
     * Acquires the lock unless the thread is interrupted; polls, so it is not FIFO.
     *
     * @throws InterruptedException if interrupted before acquiring.
     */
    @Override
    public void lockInterruptibly() throws InterruptedException
    {
        long backoffNs = 1_000;
        while (!tryLock())
        {
            if (Thread.interrupted())
            {
                throw new InterruptedException("interrupted while waiting for lock " + id);
            }
            LockSupport.parkNanos(backoffNs);
            backoffNs = Math.min(backoffNs * 2, MAX_BACKOFF_NS);
        }
    }

    /**
     * Acquires the lock if it is free now.
     *
     * @return true if acquired.
     */
    @Override
    public boolean tryLock()
    {
        return dsm.lockTryAcquire(id);
    }

    /**
     * Acquires the lock if it becomes free within the timeout; polls, so it is not FIFO.
     *
     * @param time the longest wait.
     * @param unit its unit.
     * @return true if acquired.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public boolean tryLock(final long time, final TimeUnit unit) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + unit.toNanos(time);
        long backoffNs = 1_000;
        while (!tryLock())
        {
            if (Thread.interrupted())
            {
                throw new InterruptedException("interrupted while waiting for lock " + id);
            }
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                return false;
            }
            LockSupport.parkNanos(Math.min(backoffNs, leftNs));
            backoffNs = Math.min(backoffNs * 2, MAX_BACKOFF_NS);
        }
        return true;
    }

    /**
     * Releases the lock, handing it to the next waiter if there is one.
     *
     * @throws IllegalMonitorStateException if this node does not hold it.
     */
    @Override
    public void unlock()
    {
        dsm.lockRelease(id);
    }

    /**
     * Whether this node holds the lock.
     *
     * @return true if held.
     */
    public boolean isHeldByThisNode()
    {
        return dsm.lockHeld(id);
    }

    /**
     * Not supported: a DSM lock has no condition variables.
     *
     * @return never.
     * @throws UnsupportedOperationException always.
     */
    @Override
    public Condition newCondition()
    {
        throw new UnsupportedOperationException(
            "DsmLock does not support conditions; use barrier() or semaphores (semaphorePost/semaphoreWait)");
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmLock{id=" + id + ", node=" + dsm.nodeId() + '}';
    }
}
