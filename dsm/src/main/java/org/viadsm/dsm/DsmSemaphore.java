package org.viadsm.dsm;

import java.util.concurrent.TimeUnit;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.sync.SemaphoreProtocol;
import org.viadsm.consistency.sync.SyncWait;

/**
 * A cluster-wide counting semaphore, obtained with {@link Dsm#semaphore(int)}: one of the cluster's numbered
 * semaphores, with the methods of {@link java.util.concurrent.Semaphore}. It starts with no permits; any node
 * may release permits and any node may acquire them. {@link Dsm#semaphorePost(int)} and
 * {@link Dsm#semaphoreWait(int)} are short forms of {@link #release()} and {@link #acquireUninterruptibly()}
 * (SPLASH's {@code SETPAUSE} and {@code WAITPAUSE}).
 * <pre>{@code
 * DsmSemaphore ready = dsm.semaphore(0);
 * if (0 == dsm.nodeId())
 * {
 *     fill(data);
 *     ready.release(dsm.nodeCount() - 1);   // one permit per other node
 * }
 * else
 * {
 *     ready.acquire();                      // then data is visible here
 * }
 * }</pre>
 * The count lives at the semaphore's manager (node {@code id mod N}) under an internal lock; an acquirer short of
 * permits sleeps until a release wakes it. The semaphore is not fair: a node may take permits another node waits
 * for. Interrupts and timeouts follow {@link java.util.concurrent.Semaphore}: a thread interrupted on entry to the
 * interruptible forms gets {@link InterruptedException} at once; {@link #acquireUninterruptibly()} keeps an
 * interrupt for after it; a timeout of zero or less takes permits only if they are there.
 * <p>
 * Memory consistency effects: actions on a node prior to a {@link #release()} happen-before actions on any node
 * after a successful acquire that takes any of the permits released. Data-race-free programs see sequential
 * consistency.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmSemaphore
{
    private final Dsm dsm;
    private final SemaphoreProtocol semaphores;
    private final int id;

    DsmSemaphore(final Dsm dsm, final int id)
    {
        this.dsm = dsm;
        this.semaphores = dsm.node().semaphores();
        this.id = id;
    }

    /**
     * The semaphore's number.
     *
     * @return the semaphore id.
     */
    public int id()
    {
        return id;
    }

    /**
     * Takes a permit, waiting until one is there or the thread is interrupted.
     *
     * @throws InterruptedException if the thread is interrupted on entry or while waiting.
     * @throws DsmException         if a node the wait depends on fails.
     */
    public void acquire() throws InterruptedException
    {
        acquire(1);
    }

    /**
     * Takes permits, waiting until there are enough or the thread is interrupted.
     *
     * @param permits how many, at least 0.
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting.
     * @throws IllegalArgumentException if permits is negative.
     * @throws DsmException             if a node the wait depends on fails.
     */
    public void acquire(final int permits) throws InterruptedException
    {
        interruptible(permits, SyncWait.NO_TIMEOUT);
    }

    /**
     * Takes a permit, waiting until one is there; an interrupt does not end the wait and is still set after it.
     *
     * @throws DsmException if a node the wait depends on fails.
     */
    public void acquireUninterruptibly()
    {
        acquireUninterruptibly(1);
    }

    /**
     * Takes permits, waiting until there are enough; an interrupt does not end the wait and is still set after it.
     *
     * @param permits how many, at least 0.
     * @throws IllegalArgumentException if permits is negative.
     * @throws DsmException             if a node the wait depends on fails.
     */
    public void acquireUninterruptibly(final int permits)
    {
        take(permits, SyncWait.NO_TIMEOUT, false);
    }

    /**
     * Takes a permit if one is there now.
     *
     * @return true if taken.
     * @throws DsmException if a node the semaphore depends on fails.
     */
    public boolean tryAcquire()
    {
        return tryAcquire(1);
    }

    /**
     * Takes permits if there are enough now.
     *
     * @param permits how many, at least 0.
     * @return true if taken.
     * @throws IllegalArgumentException if permits is negative.
     * @throws DsmException             if a node the semaphore depends on fails.
     */
    public boolean tryAcquire(final int permits)
    {
        return SemaphoreProtocol.ACQUIRED == take(permits, 0, false);
    }

    /**
     * Takes a permit if one is there within the timeout.
     *
     * @param timeout the longest wait; zero or less takes it only if there now.
     * @param unit    its unit.
     * @return true if taken, false if the timeout passed first.
     * @throws InterruptedException if the thread is interrupted on entry or while waiting.
     * @throws DsmException         if a node the wait depends on fails.
     */
    public boolean tryAcquire(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return tryAcquire(1, timeout, unit);
    }

    /**
     * Takes permits if there are enough within the timeout.
     *
     * @param permits how many, at least 0.
     * @param timeout the longest wait; zero or less takes them only if there now.
     * @param unit    its unit.
     * @return true if taken, false if the timeout passed first.
     * @throws InterruptedException     if the thread is interrupted on entry or while waiting.
     * @throws IllegalArgumentException if permits is negative.
     * @throws DsmException             if a node the wait depends on fails.
     */
    public boolean tryAcquire(final int permits, final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return SemaphoreProtocol.ACQUIRED == interruptible(permits, Math.max(0, unit.toNanos(timeout)));
    }

    /**
     * Adds a permit, releasing this node's writes to whoever takes it, and wakes the nodes waiting for permits.
     *
     * @throws DsmException if a node the semaphore depends on fails.
     */
    public void release()
    {
        release(1);
    }

    /**
     * Adds permits, releasing this node's writes to whoever takes them, and wakes the nodes waiting for permits.
     *
     * @param permits how many, at least 0.
     * @throws IllegalArgumentException if permits is negative or the count would exceed
     *                                  {@link Integer#MAX_VALUE}.
     * @throws DsmException             if a node the semaphore depends on fails.
     */
    public void release(final int permits)
    {
        dsm.enter();
        try
        {
            semaphores.release(id, permits);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("releasing semaphore " + id, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /**
     * The permits there are now: read without waiting for the semaphore's lock, so a value the count had a moment
     * ago, for monitoring and tests.
     *
     * @return the permit count.
     * @throws DsmException if the manager's node fails.
     */
    public int availablePermits()
    {
        dsm.enter();
        try
        {
            return semaphores.availablePermits(id);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("reading semaphore " + id, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "DsmSemaphore{id=" + id + ", node=" + dsm.nodeId() + '}';
    }

    private int interruptible(final int permits, final long timeoutNs) throws InterruptedException
    {
        if (Thread.interrupted())
        {
            throw interrupted();
        }
        final int outcome = take(permits, timeoutNs, true);
        if (SyncWait.INTERRUPTED == outcome)
        {
            throw interrupted();
        }
        return outcome;
    }

    private int take(final int permits, final long timeoutNs, final boolean interruptible)
    {
        dsm.enter();
        try
        {
            return semaphores.acquire(id, permits, timeoutNs, interruptible);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("acquiring semaphore " + id, ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    private InterruptedException interrupted()
    {
        return new InterruptedException("interrupted while waiting on semaphore " + id + " on node " + dsm.nodeId());
    }
}
