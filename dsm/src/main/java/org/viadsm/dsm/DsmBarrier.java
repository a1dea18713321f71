package org.viadsm.dsm;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.sync.BarrierProtocol;
import org.viadsm.consistency.sync.SyncState;
import org.viadsm.consistency.sync.SyncWait;

/**
 * The cluster's barrier, which every node takes part in, with the waits of
 * {@link java.util.concurrent.CyclicBarrier}: obtained with {@link Dsm#clusterBarrier()}; {@link Dsm#barrier()} is
 * its short form. Each {@link #await()} closes this node's interval, waits until every node has arrived, and
 * invalidates what the others wrote.
 * <pre>{@code
 * DsmBarrier barrier = dsm.clusterBarrier();
 * if (0 == barrier.await())          // the last node to arrive
 * {
 *     ...
 * }
 * }</pre>
 * A node that times out or is interrupted in {@link #await(long, TimeUnit)} or {@link #await()} breaks the barrier
 * for every node: nodes waiting in it, or arriving later, get {@link BrokenBarrierException}, and nodes that had
 * already seen every arrival leave normally and find it broken at their next await. A broken barrier stays broken
 * (there is no {@code reset()}): the nodes' barrier mailboxes no longer agree on which barrier is which, so the
 * runtime's collectives (allocation) fail from then on as well; locks, conditions and semaphores keep working.
 * <p>
 * Interrupts and timeouts follow {@link java.util.concurrent.CyclicBarrier}: a thread interrupted on entry, or
 * while waiting, gets {@link InterruptedException} and breaks the barrier; a timeout of zero or less gives up at
 * the first wait.
 * <p>
 * Memory consistency effects: actions of every node prior to its {@link #await()} happen-before actions of every
 * node after its {@link #await()} of the same barrier returns. Data-race-free programs see sequential consistency.
 * <p>
 * <b>Note:</b> like its {@link Dsm}, used by one thread at a time.
 */
public final class DsmBarrier
{
    private final Dsm dsm;
    private final BarrierProtocol barriers;

    DsmBarrier(final Dsm dsm)
    {
        this.dsm = dsm;
        this.barriers = dsm.node().barriers();
    }

    /**
     * Waits until every node has arrived.
     *
     * @return the arrival index: {@code parties() - 1} for the first node to arrive, 0 for the last.
     * @throws InterruptedException   if the thread is interrupted on entry or while waiting (the barrier breaks).
     * @throws BrokenBarrierException if the barrier is broken, or breaks while this node waits.
     * @throws DsmException           if a node fails or leaves the cluster meanwhile.
     */
    public int await() throws InterruptedException, BrokenBarrierException
    {
        final int outcome = arrive(SyncWait.NO_TIMEOUT);
        if (SyncWait.TIMED_OUT == outcome)
        {
            throw new IllegalStateException("an untimed barrier wait timed out");
        }
        return outcome;
    }

    /**
     * Waits until every node has arrived, at most {@code timeout}.
     *
     * @param timeout the longest wait; zero or less gives up at the first wait.
     * @param unit    its unit.
     * @return the arrival index, as for {@link #await()}.
     * @throws InterruptedException   if the thread is interrupted on entry or while waiting (the barrier breaks).
     * @throws BrokenBarrierException if the barrier is broken, or breaks while this node waits.
     * @throws TimeoutException       if the timeout passes first (the barrier breaks).
     * @throws DsmException           if a node fails or leaves the cluster meanwhile.
     */
    public int await(final long timeout, final TimeUnit unit)
        throws InterruptedException, BrokenBarrierException, TimeoutException
    {
        final int outcome = arrive(Math.max(0, unit.toNanos(timeout)));
        if (SyncWait.TIMED_OUT == outcome)
        {
            throw new TimeoutException("node " + dsm.nodeId() + " timed out after " + timeout + " " +
                unit.toString().toLowerCase(java.util.Locale.ROOT) + " in the barrier, which is now broken");
        }
        return outcome;
    }

    /**
     * The nodes that take part.
     *
     * @return the node count.
     */
    public int parties()
    {
        return dsm.nodeCount();
    }

    /**
     * Whether the barrier is broken, as far as this node has heard.
     *
     * @return true once a node has broken it.
     */
    public boolean isBroken()
    {
        dsm.enter();
        try
        {
            return barriers.isBroken();
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
        return "DsmBarrier{parties=" + dsm.nodeCount() + ", node=" + dsm.nodeId() + '}';
    }

    private int arrive(final long timeoutNs) throws InterruptedException, BrokenBarrierException
    {
        final int outcome;
        dsm.enter();
        try
        {
            outcome = barriers.barrier(timeoutNs, true);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("barrier", ex);
        }
        finally
        {
            dsm.exit();
        }
        if (SyncWait.INTERRUPTED == outcome)
        {
            throw new InterruptedException("node " + dsm.nodeId() + " was interrupted in the barrier, which is " +
                "now broken");
        }
        if (SyncState.BROKEN == outcome)
        {
            throw new BrokenBarrierException("node " + dsm.nodeId() + ": the barrier is broken: " +
                barriers.brokenReason());
        }
        return outcome;
    }
}
