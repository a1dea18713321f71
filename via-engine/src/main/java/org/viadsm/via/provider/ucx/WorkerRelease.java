package org.viadsm.via.provider.ucx;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;

/**
 * Destroys a closing ucx NIC's worker once UCX is done with it. UCX 1.13 aborts the process from
 * {@code ucp_worker_destroy} if an endpoint still holds a message its connection has not sent ("got REQ message" in
 * {@code uct_tcp_ep_pending_purge}: a wireup request waiting on a TCP connection whose peer has not answered yet),
 * and force-closing the endpoint does not remove it: its close finishes only once the connection is up or gone.
 * <p>
 * So the NIC's close, once every endpoint of it is closing ({@link OpenEndpoints}), makes progress on the worker
 * until every close finished and a flush of the worker completed (UCX completes it once every endpoint's wireup and
 * every transport endpoint still being discarded are done) and the NIC's progress thread has ended (it may still
 * be inside the worker's progress or wait: {@link UcxProgressThread#close}), then until a round of progress finds
 * nothing to do, for at most {@link #RELEASE_NS}; then it destroys the worker. If the bound passes first (a peer
 * that stopped answering, or its thread has not run for that long), the close does not wait longer: it says so on
 * standard error, and a daemon thread goes on making progress on the worker every {@link #RETRY_NS} and destroys it
 * once UCX is done with it. A worker whose peer never answers again is never destroyed (the process keeps it until
 * it exits).
 * <p>
 * <b>Note:</b> the worker is released by one thread at a time: the closing thread, then the daemon thread; a
 * progress thread that has not ended yet may make progress on it meanwhile (the worker is thread-safe), never once
 * it is destroyed.
 */
final class WorkerRelease
{
    /** Longest the NIC's close makes progress for UCX to finish with its worker. */
    static final long RELEASE_NS = 1_000_000_000L;
    /** How often the daemon thread of a worker released late makes progress on it. */
    static final long RETRY_NS = 10_000_000L;
    /** Most rounds of progress after the flush while each finds work. */
    private static final int DRAIN_ROUNDS = 16;
    private static final AtomicInteger DEFERRED = new AtomicInteger();

    private final String address;
    private final UcpWorker worker;
    private final OpenEndpoints endpoints;
    private final BooleanSupplier quiet;
    private final Runnable destroy;
    private UcpRequest flush;

    private WorkerRelease(final String address, final UcpWorker worker, final OpenEndpoints endpoints,
        final BooleanSupplier quiet, final Runnable destroy)
    {
        this.address = address;
        this.worker = worker;
        this.endpoints = endpoints;
        this.quiet = quiet;
        this.destroy = destroy;
    }

    /**
     * Destroys the worker, through {@code destroy}, once UCX is done with it: now if that happens within
     * {@link #RELEASE_NS}, else later from a daemon thread, after saying so on standard error.
     *
     * @param address   the NIC's address, which the report names.
     * @param worker    the worker, whose endpoints are all closing.
     * @param endpoints the NIC's endpoints and their closes.
     * @param quiet     whether no other thread of the NIC may still use the worker (its progress thread has ended).
     * @param destroy   destroys the worker and what must outlive it, and releases the NIC's slot last (the worker's
     *                  handlers name the NIC by its slot, which another NIC must not take before).
     * @return true if the worker was destroyed now.
     */
    static boolean release(final String address, final UcpWorker worker, final OpenEndpoints endpoints,
        final BooleanSupplier quiet, final Runnable destroy)
    {
        final WorkerRelease release = new WorkerRelease(address, worker, endpoints, quiet, destroy);
        if (release.awaitDone(System.nanoTime() + RELEASE_NS))
        {
            destroy.run();
            return true;
        }
        DEFERRED.incrementAndGet();
        System.err.println(report(address));
        final Thread thread = new Thread(release::releaseLate, "viadsm-ucx-release");
        thread.setDaemon(true);
        thread.start();
        return false;
    }

    /**
     * How many workers of closed NICs wait for UCX to be done with them.
     *
     * @return the count.
     */
    static int deferred()
    {
        return DEFERRED.get();
    }

    private void releaseLate()
    {
        while (!awaitDone(System.nanoTime()))
        {
            LockSupport.parkNanos(RETRY_NS);
        }
        try
        {
            destroy.run();
        }
        catch (final RuntimeException ex)
        {
            System.err.println("ucx NIC " + address + ": releasing its worker late failed: " + ex);
        }
        finally
        {
            DEFERRED.decrementAndGet();
        }
    }

    /**
     * Makes progress until every close finished and the worker's flush completed, at least once, until the deadline.
     *
     * @return true if UCX is done with the worker.
     */
    private boolean awaitDone(final long deadlineNs)
    {
        do
        {
            final int work = progress();
            if (0 == endpoints.unfinishedCloses() && isFlushed() && quiet.getAsBoolean())
            {
                for (int round = 0; round < DRAIN_ROUNDS && progress() > 0; round++)
                {
                    Thread.onSpinWait();
                }
                return true;
            }
            if (0 == work)
            {
                Thread.onSpinWait();
            }
        }
        while (System.nanoTime() - deadlineNs < 0);
        return false;
    }

    private boolean isFlushed()
    {
        if (null == flush)
        {
            try
            {
                flush = worker.flushNonBlocking(null);
            }
            catch (final RuntimeException ex)
            {
                // the flush failed at once: nothing is left in flight that it would wait for
                return true;
            }
        }
        return null == flush || flush.isCompleted();
    }

    private int progress()
    {
        try
        {
            return worker.progress();
        }
        catch (final Exception ex)
        {
            return 1;
        }
    }

    /**
     * What the close says when it returns before the worker is destroyed.
     *
     * @param address the NIC's address.
     * @return one line.
     */
    static String report(final String address)
    {
        return "ucx NIC " + address + " closed before UCX finished with its worker (its endpoints' closes and a " +
            "flush of the worker, not done after " + TimeUnit.NANOSECONDS.toMillis(RELEASE_NS) + " ms: a peer " +
            "stopped answering?): the worker is destroyed once they are done";
    }
}
