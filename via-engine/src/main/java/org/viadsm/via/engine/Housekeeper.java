package org.viadsm.via.engine;

import java.util.concurrent.atomic.AtomicBoolean;

import org.viadsm.via.AsyncError;
import org.viadsm.via.AsyncErrorHandler;

/**
 * A NIC's housekeeping, done by the threads that call into it: handing queued asynchronous errors to the handler,
 * and, on any call (posts, done calls, waits), checking every failure-check interval that the peers of connected
 * VIs are alive and that
 * their records are still connected to those VIs (a peer that disconnected before it knew it was connected could
 * not tell).
 * <p>
 * <b>Note:</b> thread-safe; one thread at a time delivers errors and one checks for failures, the others skip.
 */
final class Housekeeper
{
    /**
     * Calls per clock read in {@link #onCall()}: a clock read costs about 20 ns on a virtual machine, as much as a
     * quarter of a Send's post and completion, while a loop of calls reaches 64 within microseconds.
     */
    static final int CLOCK_READ_PERIOD = 64;

    private final EngineNic nic;
    private final ErrorRing errors;
    private final long failureCheckIntervalNs;
    private final long stallTimeoutNs;
    private final AtomicBoolean delivering = new AtomicBoolean();
    private final AtomicBoolean detecting = new AtomicBoolean();
    private final ErrorRing.Consumer dispatch = this::dispatch;
    private volatile long nextFailureCheckNs = System.nanoTime();
    private volatile AsyncErrorHandler handler;
    private volatile Thread dispatcher;

    Housekeeper(final EngineNic nic)
    {
        this.nic = nic;
        this.errors = nic.area().errors();
        this.failureCheckIntervalNs = nic.context().waits().failureCheckIntervalNs();
        this.stallTimeoutNs = nic.context().waits().producerStallTimeoutNs();
    }

    void handler(final AsyncErrorHandler handler)
    {
        this.handler = handler;
    }

    /**
     * Hands queued errors to the handler; two volatile loads when none is queued.
     */
    void deliverErrors()
    {
        if (!errors.isEmpty() && delivering.compareAndSet(false, true))
        {
            dispatcher = Thread.currentThread();
            try
            {
                errors.drain(dispatch);
            }
            finally
            {
                dispatcher = null;
                delivering.set(false);
            }
        }
    }

    /**
     * Whether {@code thread} is running the handler, so that a close from the handler does not wait for the call
     * the handler runs in.
     */
    boolean isDispatchingOn(final Thread thread)
    {
        return dispatcher == thread;
    }

    /**
     * On entry to every call: hands queued errors to the handler and, on one call in {@link #CLOCK_READ_PERIOD},
     * reads the clock and checks for failures if the failure-check interval has passed; so that a thread polling
     * done calls or posting often learns of a dead peer about as soon as a waiting one would (one that calls
     * rarely, within that many calls). Two volatile loads when there is nothing to do.
     *
     * @param callCount the caller's count of its calls (a queue's), kept by the caller so that threads calling
     *                  into different queues do not write one shared line.
     */
    void onCall(final int callCount)
    {
        if (0 == (callCount & (CLOCK_READ_PERIOD - 1)))
        {
            doWork(System.nanoTime());
        }
        else
        {
            deliverErrors();
        }
    }

    void doWork(final long nowNs)
    {
        deliverErrors();
        if (nowNs - nextFailureCheckNs >= 0 && detecting.compareAndSet(false, true))
        {
            try
            {
                nextFailureCheckNs = nowNs + failureCheckIntervalNs;
                nic.transport().checkTransport();
                detectFailures();
                unblockErrors(nowNs);
            }
            finally
            {
                detecting.set(false);
            }
        }
    }

    private void detectFailures()
    {
        for (int i = 0, n = nic.attributes().maxVis(); i < n; i++)
        {
            final EngineVi vi = nic.queues().viAt(i);
            final PeerVi connection = null == vi ? null : vi.connection().peerVi();
            final int state = null == connection ? ViRecordLayout.STATE_FREE : vi.record().state();
            if (ViRecordLayout.STATE_ERROR == state)
            {
                vi.connection().reapAbandoned();
            }
            if (ViRecordLayout.STATE_CONNECTED != state)
            {
                continue;
            }
            if (!connection.peer.isOpen() || !connection.peer.isAlive())
            {
                vi.connection().onPeerLost("the peer NIC " + connection.peer.address() + " closed or its process died");
            }
            else if (!connection.peerRecord.isConnectedTo(nic.nicId(), vi.id()))
            {
                vi.connection().onPeerLost("peer VI " + connection.peerViId + " of " + connection.peer.address() +
                    " is no longer connected to VI " + vi.id());
            }
        }
    }

    /**
     * Unblocks the error ring past a record whose producer died between claiming and committing it.
     */
    private void unblockErrors(final long nowNs)
    {
        if (delivering.compareAndSet(false, true))
        {
            try
            {
                errors.unblockIfStalled(nowNs, stallTimeoutNs);
            }
            finally
            {
                delivering.set(false);
            }
        }
    }

    private void dispatch(final AsyncError error, final int viId, final String detail)
    {
        final AsyncErrorHandler current = handler;
        if (null != current)
        {
            try
            {
                current.onAsyncError(error, nic.queues().viAt(viId), detail);
            }
            catch (final RuntimeException ignore)
            {
                // the handler must not throw; the NIC stays consistent if it does
            }
        }
    }
}
