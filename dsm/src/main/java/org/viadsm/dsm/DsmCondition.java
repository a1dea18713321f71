package org.viadsm.dsm;

import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.sync.ConditionProtocol;
import org.viadsm.consistency.sync.SyncWait;

/**
 * A condition of a {@link DsmLock} that works across nodes, made collectively by {@link DsmLock#newCondition()}:
 * every node creates the conditions of its locks in the same order, and the {@code k}-th condition created is the
 * same condition on every node.
 * <pre>{@code
 * DsmLock lock = dsm.lock(0);
 * Condition notEmpty = lock.newCondition();       // every node, same order
 * lock.lock();
 * try
 * {
 *     while (0 == count.get(0))
 *     {
 *         notEmpty.await();
 *     }
 *     ...
 * }
 * finally
 * {
 *     lock.unlock();
 * }
 * }</pre>
 * {@link #await()} releases the lock and sleeps until a node holding the lock signals; {@link #signal()} hands the
 * node that has waited longest back to the lock's queue, behind the signaller, and {@link #signalAll()} every
 * waiting node; a signalled node returns from its wait once it has the lock again. A wait is woken by nothing but
 * a signal (there are no spurious wake-ups), but, as with any {@link Condition}, wait in a loop that checks the
 * state it waits for. Waits that time out or are interrupted leave the condition's queue and take the lock again
 * before they return, as {@link java.util.concurrent.locks.ReentrantLock}'s conditions do; so does a wait whose
 * signal races with its timeout or interrupt (then the signal wins: the wait returns as signalled, keeping the
 * interrupt set).
 * <p>
 * Interrupts follow {@link Condition}: a thread interrupted on entry to, or while waiting in, {@link #await()} and
 * its timed forms gets {@link InterruptedException} (after taking the lock again); {@link #awaitUninterruptibly()}
 * keeps an interrupt for after it. A node that does not hold the lock gets {@link IllegalMonitorStateException}.
 * A wait fails with a {@link DsmException} naming the node when a node fails (the signaller, another waiter,
 * the node holding the lock), when a node leaves the cluster holding the lock, or when every other node has gone;
 * a signal fails naming the waiting node when that node cannot be reached.
 * <p>
 * Memory consistency effects: as for the lock. A wait releases the lock and returns holding it again, so actions
 * on a node prior to releasing the lock (the signaller's unlock, or any holder's) happen-before actions after a
 * wait that returns holding it later. Data-race-free programs see sequential consistency.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmCondition implements Condition
{
    private final Dsm dsm;
    private final ConditionProtocol conditions;
    private final int lockId;
    private final int id;

    DsmCondition(final Dsm dsm, final int lockId, final int id)
    {
        this.dsm = dsm;
        this.conditions = dsm.node().conditions();
        this.lockId = lockId;
        this.id = id;
    }

    /**
     * The condition's number: how many conditions the cluster had made before it.
     *
     * @return the condition id.
     */
    public int id()
    {
        return id;
    }

    /**
     * Releases the lock and waits until signalled or interrupted, then takes the lock again.
     *
     * @throws InterruptedException         if the thread is interrupted on entry or while waiting.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a node the wait depends on fails.
     */
    @Override
    public void await() throws InterruptedException
    {
        interruptible(SyncWait.NO_TIMEOUT);
    }

    /**
     * Releases the lock and waits until signalled, then takes the lock again; an interrupt does not end the wait
     * and is still set after it.
     *
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a node the wait depends on fails.
     */
    @Override
    public void awaitUninterruptibly()
    {
        await(SyncWait.NO_TIMEOUT, false);
    }

    /**
     * Releases the lock and waits until signalled, interrupted or the timeout passes, then takes the lock again.
     *
     * @param nanosTimeout the longest wait, in nanoseconds; zero or less does not wait.
     * @return an estimate of the time left ({@code nanosTimeout} less the time spent waiting); zero or less if the
     *         timeout passed.
     * @throws InterruptedException         if the thread is interrupted on entry or while waiting.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a node the wait depends on fails.
     */
    @Override
    public long awaitNanos(final long nanosTimeout) throws InterruptedException
    {
        final long startNs = System.nanoTime();
        final int outcome = interruptible(Math.max(0, nanosTimeout));
        final long leftNs = nanosTimeout - (System.nanoTime() - startNs);
        return ConditionProtocol.SIGNALLED == outcome ? Math.max(1, leftNs) : Math.min(0, leftNs);
    }

    /**
     * Releases the lock and waits until signalled, interrupted or the timeout passes, then takes the lock again.
     *
     * @param time the longest wait; zero or less does not wait.
     * @param unit its unit.
     * @return false if the timeout passed before a signal, else true.
     * @throws InterruptedException         if the thread is interrupted on entry or while waiting.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a node the wait depends on fails.
     */
    @Override
    public boolean await(final long time, final TimeUnit unit) throws InterruptedException
    {
        return ConditionProtocol.SIGNALLED == interruptible(Math.max(0, unit.toNanos(time)));
    }

    /**
     * Releases the lock and waits until signalled, interrupted or the deadline passes, then takes the lock again.
     *
     * @param deadline the wall-clock time to give up at.
     * @return false if the deadline passed before a signal, else true.
     * @throws InterruptedException         if the thread is interrupted on entry or while waiting.
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a node the wait depends on fails.
     */
    @Override
    public boolean awaitUntil(final Date deadline) throws InterruptedException
    {
        final long leftMs = deadline.getTime() - System.currentTimeMillis();
        return ConditionProtocol.SIGNALLED == interruptible(Math.max(0, TimeUnit.MILLISECONDS.toNanos(leftMs)));
    }

    /**
     * Hands the node that has waited longest back to the lock's queue: it returns from its wait once it has the
     * lock again, after this node releases it. Does nothing if no node waits.
     *
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if the waiting node cannot be reached.
     */
    @Override
    public void signal()
    {
        signal(false);
    }

    /**
     * Hands every waiting node back to the lock's queue, in the order they waited.
     *
     * @throws IllegalMonitorStateException if this node does not hold the lock.
     * @throws DsmException                 if a waiting node cannot be reached.
     */
    @Override
    public void signalAll()
    {
        signal(true);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmCondition{id=" + id + ", lock=" + lockId + ", node=" + dsm.nodeId() + '}';
    }

    private int interruptible(final long timeoutNs) throws InterruptedException
    {
        if (Thread.interrupted())
        {
            throw interrupted();
        }
        final int outcome = await(timeoutNs, true);
        if (SyncWait.INTERRUPTED == outcome)
        {
            throw interrupted();
        }
        return outcome;
    }

    private int await(final long timeoutNs, final boolean interruptible)
    {
        dsm.enter();
        try
        {
            return conditions.await(id, lockId, timeoutNs, interruptible);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("waiting on condition " + id + " of lock " + lockId, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    private void signal(final boolean all)
    {
        dsm.enter();
        try
        {
            conditions.signal(id, lockId, all);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("signalling condition " + id + " of lock " + lockId, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    private InterruptedException interrupted()
    {
        return new InterruptedException("interrupted while waiting on condition " + id + " of lock " + lockId +
            " on node " + dsm.nodeId());
    }
}
