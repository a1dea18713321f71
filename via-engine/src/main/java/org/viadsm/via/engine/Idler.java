package org.viadsm.via.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * One wait's idle strategy: spin for the configured spin phase, letting the provider make progress on its
 * transport from this thread ({@link EngineNic#progress(boolean)}, else {@link Thread#onSpinWait()}), then arm the
 * wait slot and park with exponential backoff up to the configured maximum; a provider may block the thread in its
 * transport instead of parking it ({@link EngineNic#block(long)}). After the spin phase each step also
 * does the NIC's housekeeping (asynchronous-error delivery, periodic failure detection), so a long wait notices a
 * dead peer.
 * <p>
 * <b>Note:</b> not thread-safe; each queue keeps its own, used by that queue's waiting thread, except
 * {@link #cancel()}, which any thread may call to end the wait for good when the queue is destroyed.
 */
public final class Idler
{
    private static final long CANCEL_GRACE_NS = 1_000_000_000L;

    private final EngineNic nic;
    private long startNs;
    private long deadlineNs;
    private boolean unbounded;
    private long parkNs;
    private boolean blocked;
    private WaitSlot armed;
    private volatile Thread waiter;
    private volatile boolean cancelled;

    /**
     * Creates an idler for waits on a NIC.
     *
     * @param nic the NIC.
     */
    public Idler(final EngineNic nic)
    {
        this.nic = nic;
    }

    /**
     * Starts a wait.
     *
     * @param timeoutNs longest wait; {@code Long.MAX_VALUE / 2} or more waits without a deadline.
     */
    public void start(final long timeoutNs)
    {
        startNs = System.nanoTime();
        unbounded = timeoutNs >= Long.MAX_VALUE / 2;
        deadlineNs = unbounded ? Long.MAX_VALUE : startNs + Math.max(0, timeoutNs);
        parkNs = nic.parkMinNs;
        blocked = false;
        armed = null;
        waiter = Thread.currentThread();
    }

    /**
     * One idle step; the caller checks its condition between steps.
     *
     * @param slot the slot to arm before parking, or null if no completer can wake this wait.
     * @return false when the wait must end: deadline passed, thread interrupted, queue destroyed or NIC closed.
     */
    public boolean idle(final WaitSlot slot)
    {
        final long nowNs = System.nanoTime();
        if ((!unbounded && nowNs - deadlineNs >= 0) || cancelled || nic.isClosed() ||
            Thread.currentThread().isInterrupted())
        {
            finish();
            return false;
        }
        if (nowNs - startNs < nic.spinNs)
        {
            if (0 == nic.progress(true))
            {
                Thread.onSpinWait();
            }
            return true;
        }
        blocked = true;
        nic.housekeeping(nowNs);
        if (null != slot && null == armed)
        {
            slot.arm();
            armed = slot;
            return true;
        }
        final long sleepNs = unbounded ? parkNs : Math.min(parkNs, deadlineNs - nowNs);
        if (!nic.block(sleepNs))
        {
            LockSupport.parkNanos(sleepNs);
        }
        parkNs = Math.min(parkNs << 1, nic.parkMaxNs);
        return true;
    }

    /**
     * Whether the wait's deadline has passed.
     *
     * @return true once past it.
     */
    public boolean isPastDeadline()
    {
        return !unbounded && System.nanoTime() - deadlineNs >= 0;
    }

    /**
     * Ends a wait that succeeded, disarming its slot.
     */
    public void finish()
    {
        if (blocked)
        {
            blocked = false;
            nic.onWaitEnd();
        }
        if (null != armed)
        {
            armed.disarm();
            armed = null;
        }
        waiter = null;
    }

    /**
     * Ends the wait in progress on this idler, and every later one at its first idle step, for a queue being
     * destroyed; waits (a bounded time) until the waiting thread has left, so that the caller may then take the
     * queue apart, unless the caller is that thread (an error handler run inside the wait).
     */
    void cancel()
    {
        cancelled = true;
        final Thread current = Thread.currentThread();
        final long deadlineNs = System.nanoTime() + CANCEL_GRACE_NS;
        Thread inside;
        while (null != (inside = waiter) && inside != current && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.unpark(inside);
            LockSupport.parkNanos(50_000L);
        }
    }
}
