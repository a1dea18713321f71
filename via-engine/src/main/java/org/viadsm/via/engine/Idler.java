package org.viadsm.via.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * One wait's idle strategy: spin for the configured spin phase, letting the provider make progress on its
 * transport from this thread ({@link NicTransport#progress(boolean)}, else {@link Thread#onSpinWait()}), then arm the
 * wait slot and either sleep or poll.
 * <ul>
 * <li>A wait every completer will wake sleeps: its slot is fenced ({@link WaitSlot#isFenced()}) and the provider
 * either lends it a bell ({@link NicTransport#acquireBell()}, completers in other processes ring it) or has
 * every completer unpark it ({@link NicTransport#wakesArmedWaiters()}, completers in this process). It sleeps
 * {@link org.viadsm.via.WaitSettings#sleepMaxNs()} at a time; after each sleep it checks its queue before it
 * announces itself again, so that a completer that rang it is not made to ring again before the waiter has seen
 * the completion.</li>
 * <li>A wait that completers in other processes would wake by ringing a bell first dozes, unannounced: it parks
 * with exponential backoff from {@link org.viadsm.via.WaitSettings#parkMinNs()} up to
 * {@link org.viadsm.via.WaitSettings#parkMaxNs()} before it arms its slot. A ring costs its completer a system call,
 * after which the woken thread often takes the completer's core; a completion that comes while the waiter dozes
 * costs its completer nothing, and the waiter resumes on its own core at the end of a park (the thread's timer
 * slack is made small for that, see {@link TimerSlack}).</li>
 * <li>Any other wait polls: it arms the slot at once (a completer in this process unparks it) and parks with
 * exponential backoff up to {@link org.viadsm.via.WaitSettings#parkMaxNs()}, or the provider blocks it in its
 * transport instead ({@link NicTransport#block(long)}).</li>
 * </ul>
 * After the spin phase each step also does the NIC's housekeeping (asynchronous-error delivery, periodic failure
 * detection), so a long wait notices a dead peer.
 * <p>
 * <b>Note:</b> not thread-safe; each queue keeps its own, used by that queue's waiting thread, except
 * {@link #cancel()}, which any thread may call to end the wait for good when the queue is destroyed.
 */
public final class Idler
{
    private static final long CANCEL_GRACE_NS = 1_000_000_000L;
    private static final long MIN_BELL_SLEEP_NS = 1_000_000L;

    private final EngineNic nic;
    private long startNs;
    private long deadlineNs;
    private boolean unbounded;
    private long parkNs;
    private boolean blocked;
    private boolean sleeping;
    private boolean announced;
    private WaitSlot armed;
    private volatile Bell bell;
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
        // a wait that ended by an exception may have left its slot armed or its bell lent
        finish();
        startNs = System.nanoTime();
        unbounded = timeoutNs >= Long.MAX_VALUE / 2;
        deadlineNs = unbounded ? Long.MAX_VALUE : startNs + Math.max(0, timeoutNs);
        parkNs = nic.parkMinNs;
        blocked = false;
        sleeping = false;
        announced = false;
        armed = null;
        waiter = Thread.currentThread();
    }

    /**
     * One idle step of a wait no completer wakes (it polls past its spin phase); the caller checks its condition
     * between steps.
     *
     * @return false when the wait must end: deadline passed, thread interrupted, queue destroyed or NIC closed.
     */
    public boolean idle()
    {
        return idle(null);
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
            if (0 == nic.transport().progress(true))
            {
                Thread.onSpinWait();
            }
            return true;
        }
        blocked = true;
        nic.housekeeper().doWork(nowNs);
        if (null != slot && null == armed && !dozes(slot))
        {
            arm(slot);
            return true;
        }
        if (sleeping)
        {
            if (!announced)
            {
                // woken, or the sleep ended: the caller checked its queue and found nothing, so announce the bell
                // again and have the caller check once more before the next sleep
                armed.announce();
                announced = true;
                return true;
            }
            sleep(nowNs);
            return true;
        }
        park(nowNs);
        return true;
    }

    /**
     * Whether a wait on the slot still dozes rather than arms it: a wait whose completers in other processes would
     * ring a bell to wake it, until its parks have backed off to the longest.
     */
    private boolean dozes(final WaitSlot slot)
    {
        return slot.isFenced() && parkNs < nic.parkMaxNs && !nic.transport().wakesArmedWaiters();
    }

    /**
     * A park of a wait that polls or dozes, the longer the more parks came before, up to the longest park.
     */
    private void park(final long nowNs)
    {
        final long sleepNs = unbounded ? parkNs : Math.min(parkNs, deadlineNs - nowNs);
        if (!nic.transport().block(sleepNs))
        {
            TimerSlack.ensure();
            LockSupport.parkNanos(sleepNs);
        }
        parkNs = Math.min(parkNs << 1, nic.parkMaxNs);
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
            nic.transport().onWaitEnd();
        }
        if (null != armed)
        {
            armed.disarm();
            armed = null;
        }
        final Bell lent = bell;
        if (null != lent)
        {
            bell = null;
            nic.transport().releaseBell(lent);
        }
        sleeping = false;
        announced = false;
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
            final Bell lent = bell;
            if (null != lent)
            {
                lent.wakeup();
            }
            LockSupport.parkNanos(50_000L);
        }
    }

    /**
     * Arms the slot; a fenced slot sleeps on a bell if the provider lends one, or parked if the provider's
     * completers unpark it. The caller checks its queue once more before the first sleep.
     */
    private void arm(final WaitSlot slot)
    {
        final Bell lent = slot.isFenced() ? nic.transport().acquireBell() : null;
        bell = lent;
        slot.arm(lent);
        armed = slot;
        sleeping = null != lent || (slot.isFenced() && nic.transport().wakesArmedWaiters());
        announced = true;
        if (sleeping)
        {
            nic.onSleep();
        }
    }

    private void sleep(final long nowNs)
    {
        final long sleepNs = unbounded ? nic.sleepMaxNs : Math.min(nic.sleepMaxNs, deadlineNs - nowNs);
        final Bell lent = bell;
        if (null != lent && sleepNs >= MIN_BELL_SLEEP_NS)
        {
            lent.await(sleepNs);
        }
        else
        {
            LockSupport.parkNanos(sleepNs);
        }
        announced = false;
    }
}
