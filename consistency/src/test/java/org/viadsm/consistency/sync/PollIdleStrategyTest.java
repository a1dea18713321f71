package org.viadsm.consistency.sync;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The poll phase's idle steps: spin first, then yield, timed by the clocks it is given, and what the yields say
 * about the core.
 */
class PollIdleStrategyTest
{
    private long nowNs = 1_000_000L;
    private long cpuNs = 5_000L;
    private int clockReads;

    @Test
    void shouldYieldOnceThePhaseHasSpunItsShare()
    {
        assertFalse(PollIdleStrategy.yieldsAfter(0, 20_000L));
        assertFalse(PollIdleStrategy.yieldsAfter(19_999L, 20_000L));
        assertTrue(PollIdleStrategy.yieldsAfter(20_000L, 20_000L));
        assertTrue(PollIdleStrategy.yieldsAfter(0, 0));
    }

    @Test
    void shouldSpinThenYieldWithinEachPhase()
    {
        final PollIdleStrategy idle = new PollIdleStrategy(() -> nowNs, () -> cpuNs, 20_000L);
        idle.reset();
        for (int i = 0; i < 5; i++)
        {
            idle.idle(0);
            nowNs += 3_000L;
        }
        assertEquals(0, idle.yields());
        nowNs += 5_000L;
        idle.idle(0);
        idle.idle();
        assertEquals(2, idle.yields());
        // a poll that took in notifications does not idle
        idle.idle(3);
        assertEquals(2, idle.yields());
        // the next phase spins again
        idle.reset();
        idle.idle(0);
        assertEquals(2, idle.yields());
    }

    /**
     * A spinning phase reads the clock on one poll in 16 (a read costs about what a poll of an empty queue does, and
     * the message is seen a poll late on average); once it yields it reads the clock at every poll. A deadline is
     * seen at the next read.
     */
    @Test
    void shouldReadTheClockOnceInSixteenPollsWhileSpinningAndAtEveryPollWhileYielding()
    {
        final PollIdleStrategy idle = new PollIdleStrategy(() ->
        {
            clockReads++;
            return nowNs;
        }, () -> cpuNs, 20_000L);
        final long deadlineNs = idle.startPhase() + 100_000L;
        assertEquals(1, clockReads);
        for (int poll = 1; poll <= 64; poll++)
        {
            assertTrue(idle.pollStep(0 == poll % 3 ? 1 : 0, deadlineNs));
            nowNs += 100L;
        }
        assertEquals(1 + 64 / PollIdleStrategy.CLOCK_PERIOD, clockReads, "one read in 16 polls while spinning");
        assertEquals(0, idle.yields());
        nowNs += 20_000L;
        for (int poll = 1; poll <= PollIdleStrategy.CLOCK_PERIOD; poll++)
        {
            assertTrue(idle.pollStep(0, deadlineNs));
        }
        assertEquals(1, idle.yields(), "the poll that read the clock past the spin share yielded");
        final int readsBefore = clockReads;
        for (int poll = 0; poll < 5; poll++)
        {
            assertTrue(idle.pollStep(0, deadlineNs));
        }
        assertEquals(readsBefore + 5, clockReads, "a read at every poll while yielding");
        assertEquals(6, idle.yields());
        nowNs = deadlineNs;
        assertFalse(idle.pollStep(0, deadlineNs), "the deadline passed");
        assertEquals(6, idle.yields());
        // the next phase spins again, reading the clock once in 16 polls
        idle.startPhase();
        final int readsAtStart = clockReads;
        for (int poll = 0; poll < PollIdleStrategy.CLOCK_PERIOD - 1; poll++)
        {
            assertTrue(idle.pollStep(0, nowNs + 100_000L));
        }
        assertEquals(readsAtStart, clockReads);
    }

    @Test
    void shouldYieldFromTheStartWithMoreNodesThanCores()
    {
        final PollIdleStrategy idle = new PollIdleStrategy(() -> nowNs, () -> cpuNs, new SpinBudget(4, 2).spinOnlyNs());
        idle.reset();
        idle.idle(0);
        idle.idle(0);
        assertEquals(2, idle.yields());
    }

    @Test
    void shouldReadNoCpuTimeAndGiveNoVerdictWithoutACpuClock()
    {
        final PollIdleStrategy idle = new PollIdleStrategy(() -> nowNs, null, 0);
        idle.reset();
        idle.idle(0);
        idle.idle(0);
        assertEquals(2, idle.yields());
        assertEquals(PollIdleStrategy.SPUN, idle.conclude());
    }

    @Test
    void shouldJudgeTheCoreByTheShareOfTheYieldsTheThreadRan()
    {
        assertEquals(PollIdleStrategy.KEPT_CORE, PollIdleStrategy.verdict(100_000L, 50_000L));
        assertEquals(PollIdleStrategy.KEPT_CORE, PollIdleStrategy.verdict(100_000L, 100_000L));
        assertEquals(PollIdleStrategy.GAVE_CORE, PollIdleStrategy.verdict(100_000L, 49_999L));
        assertEquals(PollIdleStrategy.KEPT_CORE, PollIdleStrategy.verdict(0, 0));
    }

    @Test
    void shouldTellWhetherThePhaseKeptItsCoreWhileItYielded()
    {
        final PollIdleStrategy idle = new PollIdleStrategy(() -> nowNs, () -> cpuNs, 20_000L);
        // a phase that ends while it spins learns nothing
        idle.reset();
        idle.idle(0);
        nowNs += 10_000L;
        cpuNs += 10_000L;
        assertEquals(PollIdleStrategy.SPUN, idle.conclude());
        // yields on a free core: the thread runs all the time
        assertEquals(PollIdleStrategy.KEPT_CORE, yieldingPhase(idle, 90_000L));
        // yields on a busy core: others run most of the time
        assertEquals(PollIdleStrategy.GAVE_CORE, yieldingPhase(idle, 10_000L));
        assertEquals(PollIdleStrategy.SPUN, idle.conclude());
    }

    /**
     * A phase that spins its 20 us, then yields for 100 us of which the thread runs {@code ranNs}.
     */
    private int yieldingPhase(final PollIdleStrategy idle, final long ranNs)
    {
        idle.reset();
        nowNs += 20_000L;
        cpuNs += 20_000L;
        idle.idle(0);
        nowNs += 100_000L;
        cpuNs += ranNs;
        return idle.conclude();
    }
}
