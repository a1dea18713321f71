package org.viadsm.consistency.sync;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * The idle strategy of a barrier wait's poll phase (see {@link SpinBudget}): between polls that found nothing it
 * spins on the core for the phase's first {@code spinOnlyNs}, then yields, so that a thread the machine has no other
 * core for (the awaited partner, on a busy or oversubscribed machine) runs meanwhile. It times the yields by the
 * thread's CPU clock too: {@link #conclude()} tells whether the thread kept its core while it yielded (nobody else
 * wanted it, so polling was free) or gave it away.
 * <p>
 * A clock read costs as much as a poll of an empty completion queue (about 40 ns on a virtual machine), and a
 * spinning wait sees its message one poll late on average, so {@link #pollStep(int, long)} reads the clock on one poll
 * in {@value #CLOCK_PERIOD} while the phase spins, and at every poll once it yields (a yield costs far more).
 * <p>
 * <b>Note:</b> not thread-safe; one per node, used by its application thread.
 */
final class PollIdleStrategy implements IdleStrategy
{
    /** A phase that ended before it yielded: nothing learnt. */
    static final int SPUN = 0;
    /** The thread ran at least half the time it yielded: its core was free. */
    static final int KEPT_CORE = 1;
    /** The thread ran less than half the time it yielded: others took its core. */
    static final int GAVE_CORE = 2;

    /** While spinning, one poll in this many reads the clock. */
    static final int CLOCK_PERIOD = 16;

    private static final long NOT_YIELDED = Long.MIN_VALUE;

    private final NanoClock clock;
    private final NanoClock cpuClock;
    private final long spinOnlyNs;
    private long startNs;
    private long yieldStartNs = NOT_YIELDED;
    private long yieldStartCpuNs;
    private long yields;
    private int polls;

    /**
     * Creates the strategy.
     *
     * @param clock      the clock the phase is timed by.
     * @param cpuClock   the calling thread's CPU time, in ns; null where no verdict is wanted (each read of it is a
     *                   system call), and {@link #conclude()} then returns {@link #SPUN}.
     * @param spinOnlyNs how long a phase spins before it yields; 0 to yield from the start.
     */
    PollIdleStrategy(final NanoClock clock, final NanoClock cpuClock, final long spinOnlyNs)
    {
        this.clock = clock;
        this.cpuClock = cpuClock;
        this.spinOnlyNs = spinOnlyNs;
    }

    /**
     * Whether an idle step yields the core rather than spin.
     *
     * @param polledNs   time since the phase started.
     * @param spinOnlyNs how long a phase spins before it yields.
     * @return true once the phase has spun {@code spinOnlyNs}.
     */
    static boolean yieldsAfter(final long polledNs, final long spinOnlyNs)
    {
        return polledNs >= spinOnlyNs;
    }

    /**
     * What a phase's yields say about the core.
     *
     * @param yieldedNs time from the first yield to the end of the phase.
     * @param ranNs     the thread's CPU time meanwhile.
     * @return {@link #KEPT_CORE} if it ran at least half of it, else {@link #GAVE_CORE}.
     */
    static int verdict(final long yieldedNs, final long ranNs)
    {
        return 2 * ranNs >= yieldedNs ? KEPT_CORE : GAVE_CORE;
    }

    /**
     * One step of a poll phase after a poll that took in {@code workCount} events: spins or yields if it took in
     * nothing, and tells whether the phase may poll again. It reads the clock on one call in {@value #CLOCK_PERIOD}
     * while the phase spins, and at every call once it yields.
     *
     * @param workCount  events the poll took in.
     * @param deadlineNs when the phase ends, by this strategy's clock (see {@link #startPhase()}).
     * @return false once the clock read says the deadline has passed.
     */
    boolean pollStep(final int workCount, final long deadlineNs)
    {
        if (NOT_YIELDED == yieldStartNs && 0 != (++polls & (CLOCK_PERIOD - 1)))
        {
            if (workCount <= 0)
            {
                Thread.onSpinWait();
            }
            return true;
        }
        final long nowNs = clock.nanoTime();
        if (nowNs - deadlineNs >= 0)
        {
            return false;
        }
        if (workCount <= 0)
        {
            idleAt(nowNs);
        }
        return true;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0)
        {
            idle();
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void idle()
    {
        idleAt(clock.nanoTime());
    }

    private void idleAt(final long nowNs)
    {
        if (yieldsAfter(nowNs - startNs, spinOnlyNs))
        {
            if (NOT_YIELDED == yieldStartNs)
            {
                yieldStartNs = nowNs;
                yieldStartCpuNs = null == cpuClock ? 0 : cpuClock.nanoTime();
            }
            yields++;
            Thread.yield();
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Starts a poll phase.
     */
    @Override
    public void reset()
    {
        startPhase();
    }

    /**
     * Starts a poll phase, as {@link #reset()} does.
     *
     * @return the phase's start, by this strategy's clock: a deadline for {@link #pollStep(int, long)} counts from it.
     */
    long startPhase()
    {
        startNs = clock.nanoTime();
        yieldStartNs = NOT_YIELDED;
        polls = 0;
        return startNs;
    }

    /**
     * Ends the poll phase.
     *
     * @return {@link #SPUN}, {@link #KEPT_CORE} or {@link #GAVE_CORE}, see {@link #verdict(long, long)}.
     */
    int conclude()
    {
        if (NOT_YIELDED == yieldStartNs || null == cpuClock)
        {
            yieldStartNs = NOT_YIELDED;
            return SPUN;
        }
        final int verdict = verdict(clock.nanoTime() - yieldStartNs, cpuClock.nanoTime() - yieldStartCpuNs);
        yieldStartNs = NOT_YIELDED;
        return verdict;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String alias()
    {
        return "barrier-poll";
    }

    /**
     * Idle steps that yielded, since this strategy was made.
     *
     * @return the count.
     */
    long yields()
    {
        return yields;
    }
}
