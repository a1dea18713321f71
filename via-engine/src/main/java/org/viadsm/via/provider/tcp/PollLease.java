package org.viadsm.via.provider.tcp;

import java.lang.ref.WeakReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The poll lease of a tcp NIC: application threads waiting on the NIC poll its sockets themselves, and while they
 * hold the lease the engine thread sleeps instead of being woken by every frame and competing with them for the
 * sockets and the CPU.
 * <p>
 * A waiting thread renews the lease for {@link org.viadsm.via.TcpSettings#pollLeaseNs()} on every poll of its
 * spin phase, and for as long as it blocks in the selector. The engine thread cannot be told when a thread stops
 * polling without blocking (its wait succeeded, it went off computing), so it checks: its sleeps start at the lease
 * and double, up to {@link org.viadsm.via.TcpSettings#pollLeaseMaxNs()}, while the lease keeps being renewed. The
 * end of a wait, even one that blocked, neither wakes it nor shortens its sleeps: in a ping-pong whose waits block
 * every message would otherwise wake it, taking the core the two ends share. A thread that moves on to another NIC
 * gives this one's lease back at once.
 * <p>
 * <b>Note:</b> {@link #sleepIfHeld(long)} is called by the engine thread only; the other methods by any thread.
 */
final class PollLease
{
    /** The lease each thread holds, so that a thread polling another NIC gives this one back. */
    private static final ThreadLocal<WeakReference<PollLease>> HELD = new ThreadLocal<>();

    private final WeakReference<PollLease> token = new WeakReference<>(this);
    private final long leaseNs;
    private final long leaseMaxNs;
    private long sleepNs;
    private volatile long untilNs;
    private volatile boolean sleeping;
    private volatile Thread engine;

    PollLease(final long leaseNs, final long leaseMaxNs)
    {
        this.leaseNs = leaseNs;
        this.leaseMaxNs = leaseMaxNs;
        this.sleepNs = leaseNs;
    }

    /**
     * Whether application threads poll at all (a lease of 0 leaves everything to the engine thread).
     */
    boolean isEnabled()
    {
        return leaseNs > 0;
    }

    long leaseNs()
    {
        return leaseNs;
    }

    /**
     * The engine thread, once it runs.
     */
    void engine(final Thread thread)
    {
        engine = thread;
    }

    /**
     * The calling thread polls, and will until {@code deadlineNs}.
     */
    void hold(final long deadlineNs)
    {
        final WeakReference<PollLease> held = HELD.get();
        if (token != held)
        {
            final PollLease previous = null == held ? null : held.get();
            if (null != previous)
            {
                previous.release();
            }
            HELD.set(token);
        }
        if (deadlineNs - untilNs > 0)
        {
            untilNs = deadlineNs;
        }
    }

    /**
     * A wait of the calling thread that went past its spin phase is over: the lease runs one more lease from now.
     * The engine thread sleeps on; it notices within {@link org.viadsm.via.TcpSettings#pollLeaseMaxNs()} if the
     * thread does not come back.
     */
    void onBlockedWaitEnd()
    {
        hold(System.nanoTime() + leaseNs);
    }

    /**
     * Ends the lease now.
     */
    void release()
    {
        untilNs = 0;
        wakeEngine();
    }

    /**
     * Wakes the engine thread if it sleeps under the lease, so that it looks again.
     */
    void wakeEngine()
    {
        if (sleeping)
        {
            LockSupport.unpark(engine);
        }
    }

    /**
     * Engine thread: sleeps if an application thread holds the lease.
     *
     * @param nowNs the time.
     * @return true if it slept (the caller then checks again), false if the lease is free.
     */
    boolean sleepIfHeld(final long nowNs)
    {
        if (untilNs - nowNs <= 0)
        {
            sleepNs = leaseNs;
            return false;
        }
        sleeping = true;
        if (untilNs - nowNs > 0)
        {
            LockSupport.parkNanos(this, sleepNs);
            sleepNs = Math.min(sleepNs << 1, leaseMaxNs);
        }
        sleeping = false;
        return true;
    }
}
