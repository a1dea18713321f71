package org.viadsm.dsm;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.sync.LockProtocol;
import org.viadsm.consistency.sync.SyncWait;

/**
 * A cluster-wide lock, obtained with {@link Dsm#lock(int)}: one of the cluster's numbered locks, as TreadMarks'
 * {@code Tmk_lock_acquire(id)} and {@code Tmk_lock_release(id)} are.
 * <pre>{@code
 * DsmLock lock = dsm.lock(0);
 * lock.lock();
 * try
 * {
 *     counter.set(0, counter.get(0) + 1);
 * }
 * finally
 * {
 *     lock.unlock();
 * }
 * }</pre>
 * Every acquire queues FIFO behind earlier requesters from any node: {@link #lock()}, {@link #lockInterruptibly()}
 * and {@link #tryLock(long, TimeUnit)} wait in the queue, and a wait that ends by timeout or interrupt leaves it
 * without polling. {@link #tryLock()} takes the lock only if it is free. A released lock stays with the node that
 * released it until another node asks for it, so taking it again costs no network operation, and a release with
 * nobody waiting costs none either. The lock is not reentrant: locking it again while holding it throws. Its
 * conditions ({@link #newCondition()}) work across nodes.
 * <p>
 * Interrupts and timeouts follow {@link java.util.concurrent.locks.ReentrantLock}: a thread interrupted on entry to
 * {@link #lockInterruptibly()} or {@link #tryLock(long, TimeUnit)} gets {@link InterruptedException} at once; an
 * interrupt during {@link #lock()} does not end the wait and is still set when it returns; a timeout of zero or
 * less takes the lock only if it is free.
 * <p>
 * Memory consistency effects: actions on a node prior to {@link #unlock()} happen-before actions on any node
 * after a subsequent successful acquire of the same lock. Data-race-free programs see sequential consistency.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmLock implements Lock
{
    private final Dsm dsm;
    private final NodeGuard guard;
    private final LockProtocol locks;
    private final int id;

    /**
     * @param guard the node's entry guard, held here: each object between the handle and it would be one more
     *              dependent load on every hand-off of a cached lock, which costs only a few.
     */
    DsmLock(final Dsm dsm, final NodeGuard guard, final int id)
    {
        this.dsm = dsm;
        this.guard = guard;
        this.locks = dsm.node().locks();
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
        acquire(SyncWait.NO_TIMEOUT, false);
    }

    /**
     * Acquires the lock unless the thread is interrupted, waiting in FIFO order.
     *
     * @throws InterruptedException  if the thread is interrupted on entry or while waiting (then it leaves the
     *                               queue, and its interrupted status is cleared).
     * @throws IllegalStateException if this node already holds it.
     * @throws DsmException          if a node the wait depends on fails.
     */
    @Override
    public void lockInterruptibly() throws InterruptedException
    {
        checkInterrupt();
        if (SyncWait.INTERRUPTED == acquire(SyncWait.NO_TIMEOUT, true))
        {
            throw interrupted();
        }
    }

    /**
     * Acquires the lock if it is free now.
     *
     * @return true if acquired.
     * @throws IllegalStateException if this node already holds it.
     * @throws DsmException          if a node the lock depends on fails.
     */
    @Override
    public boolean tryLock()
    {
        return acquire(0, false) >= 0;
    }

    /**
     * Acquires the lock if it becomes free within the timeout, waiting in FIFO order.
     *
     * @param time the longest wait; zero or less takes the lock only if it is free.
     * @param unit its unit.
     * @return true if acquired, false if the timeout passed first (the node then leaves the queue).
     * @throws InterruptedException  if the thread is interrupted on entry or while waiting.
     * @throws IllegalStateException if this node already holds it.
     * @throws DsmException          if a node the wait depends on fails.
     */
    @Override
    public boolean tryLock(final long time, final TimeUnit unit) throws InterruptedException
    {
        checkInterrupt();
        final int outcome = acquire(Math.max(0, unit.toNanos(time)), true);
        if (SyncWait.INTERRUPTED == outcome)
        {
            throw interrupted();
        }
        return outcome >= 0;
    }

    /**
     * Releases the lock: leaves it here if nobody waits, else hands it to the next waiter.
     *
     * @throws IllegalMonitorStateException if this node does not hold it.
     * @throws DsmException                 if the next waiter's node fails.
     */
    @Override
    public void unlock()
    {
        guard.enter();
        try
        {
            locks.unlock(id);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("releasing lock " + id, ex);
        }
        finally
        {
            guard.exit();
        }
    }

    /**
     * Whether this node holds the lock.
     *
     * @return true if held.
     */
    public boolean isHeldByThisNode()
    {
        return locks.isHeld(id);
    }

    /**
     * Makes a new condition of this lock, collectively: every node makes the conditions of its locks in the same
     * order (as it allocates arrays), and the {@code k}-th made is the same condition on every node; a node that
     * makes something else at that point (another lock's condition, an allocation) makes every node fail with a
     * {@link DsmException} naming it. A cluster has at most as many conditions as lock ids.
     *
     * @return the condition.
     * @throws IllegalStateException if the cluster has made as many conditions as it may.
     * @throws DsmException          if the nodes disagree, or a node fails meanwhile.
     */
    @Override
    public DsmCondition newCondition()
    {
        return dsm.newCondition(id);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmLock{id=" + id + ", node=" + dsm.nodeId() + '}';
    }

    private int acquire(final long timeoutNs, final boolean interruptible)
    {
        guard.enter();
        try
        {
            return locks.acquire(id, timeoutNs, interruptible);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("acquiring lock " + id, ex);
        }
        finally
        {
            guard.exit();
        }
    }

    private void checkInterrupt() throws InterruptedException
    {
        if (Thread.interrupted())
        {
            throw interrupted();
        }
    }

    private InterruptedException interrupted()
    {
        return new InterruptedException("interrupted while waiting for lock " + id + " on node " + dsm.nodeId());
    }
}
