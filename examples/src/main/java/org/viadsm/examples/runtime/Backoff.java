package org.viadsm.examples.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * How a member waits for a condition it can only poll (a flag read under a lock, a queue that may fill): a few
 * spins, then parks of doubling length up to {@link #MAX_PARK_NS}, never longer in all than a timeout. The
 * machines tests run on have fewer cores than members, so waits must not spin long.
 * <p>
 * <b>Note:</b> used by one thread; reusable, one wait after another.
 */
public final class Backoff
{
    /** Spins before the first park. */
    public static final int SPIN_TRIES = 64;
    /** Longest single park. */
    public static final long MAX_PARK_NS = 100_000;
    private static final long FIRST_PARK_NS = 1_000;

    private final long timeoutNs;
    private int tries;
    private long parkNs;
    private long deadlineNs;

    /**
     * Creates a back-off.
     *
     * @param timeoutNs how long one wait may last, measured from its first park.
     */
    public Backoff(final long timeoutNs)
    {
        this.timeoutNs = timeoutNs;
        reset();
    }

    /**
     * Starts a new wait.
     */
    public void reset()
    {
        tries = 0;
        parkNs = FIRST_PARK_NS;
        deadlineNs = 0;
    }

    /**
     * Spins or parks once.
     *
     * @return false, without waiting, once the wait has lasted longer than the timeout; true otherwise.
     */
    public boolean idle()
    {
        if (tries < SPIN_TRIES)
        {
            tries++;
            Thread.onSpinWait();
            return true;
        }
        final long nowNs = System.nanoTime();
        if (0 == deadlineNs)
        {
            deadlineNs = nowNs + timeoutNs;
        }
        else if (nowNs - deadlineNs > 0)
        {
            return false;
        }
        LockSupport.parkNanos(parkNs);
        parkNs = Math.min(parkNs * 2, MAX_PARK_NS);
        return true;
    }

    /**
     * The timeout of one wait.
     *
     * @return the timeout in nanoseconds.
     */
    public long timeoutNs()
    {
        return timeoutNs;
    }
}
