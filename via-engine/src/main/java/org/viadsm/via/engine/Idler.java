package org.viadsm.via.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * One wait's idle strategy: spin (with {@link Thread#onSpinWait()}) for the configured spin phase, then arm the
 * wait slot and park with exponential backoff up to the configured maximum. After the spin phase each step also
 * does the NIC's housekeeping (asynchronous-error delivery, periodic failure detection), so a long wait notices a
 * dead peer.
 * <p>
 * <b>Note:</b> not thread-safe; each queue keeps its own, used by that queue's waiting thread, except
 * {@link #cancel()}, which any thread may call to end the wait for good when the queue is destroyed.
 */
final class Idler
{
    private static final long CANCEL_GRACE_NS = 1_000_000_000L;

    private final EngineNic nic;
    private long startNs;
    private long deadlineNs;
    private boolean unbounded;
    private long parkNs;
    private WaitSlot armed;
    private volatile Thread waiter;
    private volatile boolean cancelled;

    Idler(final EngineNic nic)
    {
        this.nic = nic;
    }

    void start(final long timeoutNs)
    {
        startNs = System.nanoTime();
        unbounded = timeoutNs >= Long.MAX_VALUE / 2;
        deadlineNs = unbounded ? Long.MAX_VALUE : startNs + Math.max(0, timeoutNs);
        parkNs = nic.parkMinNs;
        armed = null;
        waiter = Thread.currentThread();
    }

    /**
     * One idle step; the caller checks its condition between steps.
     *
     * @param slot the slot to arm before parking, or null if no completer can wake this wait.
     * @return false when the wait must end: deadline passed, thread interrupted, queue destroyed or NIC closed.
     */
    boolean idle(final WaitSlot slot)
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
            Thread.onSpinWait();
            return true;
        }
        nic.housekeeping(nowNs);
        if (null != slot && null == armed)
        {
            slot.arm();
            armed = slot;
            return true;
        }
        LockSupport.parkNanos(unbounded ? parkNs : Math.min(parkNs, deadlineNs - nowNs));
        parkNs = Math.min(parkNs << 1, nic.parkMaxNs);
        return true;
    }

    boolean isPastDeadline()
    {
        return !unbounded && System.nanoTime() - deadlineNs >= 0;
    }

    void finish()
    {
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
