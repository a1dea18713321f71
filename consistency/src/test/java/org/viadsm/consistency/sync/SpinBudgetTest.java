package org.viadsm.consistency.sync;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decisions of a barrier wait's poll phase: how long it polls, sized from the measured wake-up, whether it
 * spins or yields, and how the score of the polls turns polling off on a busy machine and back on.
 */
class SpinBudgetTest
{
    @Test
    void shouldSpinBeforeYieldingOnlyWhileTheNodesFitTheCores()
    {
        assertTrue(SpinBudget.fitsCores(2, 2));
        assertTrue(SpinBudget.fitsCores(1, 8));
        assertFalse(SpinBudget.fitsCores(3, 2));
        assertEquals(SpinBudget.SPIN_ONLY_NS, new SpinBudget(2, 2).spinOnlyNs());
        assertEquals(0, new SpinBudget(4, 2).spinOnlyNs());
        assertTrue(new SpinBudget(2, 2).measuresWakeUps());
        assertFalse(new SpinBudget(4, 2).measuresWakeUps());
        assertTrue(new SpinBudget(2, 2).judgesPolls());
        assertFalse(new SpinBudget(4, 2).judgesPolls());
    }

    @Test
    void shouldPollTwiceTheWakeUpWithinItsBounds()
    {
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.budgetNs(0));
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.budgetNs(SpinBudget.MIN_SPIN_NS / 2));
        assertEquals(2 * 300_000L, SpinBudget.budgetNs(300_000L));
        assertEquals(SpinBudget.MAX_SPIN_NS, SpinBudget.budgetNs(SpinBudget.MAX_SPIN_NS / 2));
        assertEquals(SpinBudget.MAX_SPIN_NS, SpinBudget.budgetNs(1_000_000_000L));
    }

    @Test
    void shouldAverageWakeUpsAQuarterTowardsTheNewestSampleWithinItsBounds()
    {
        assertEquals(100, SpinBudget.nextWakeUpNs(0, 400));
        assertEquals(300, SpinBudget.nextWakeUpNs(400, 0));
        assertEquals(400, SpinBudget.nextWakeUpNs(400, 400));
        assertEquals(300, SpinBudget.nextWakeUpNs(400, -5));
        assertEquals(SpinBudget.MAX_SPIN_NS / 4, SpinBudget.nextWakeUpNs(0, Long.MAX_VALUE));
    }

    @Test
    void shouldStartFromTheNominalWakeUp()
    {
        final SpinBudget budget = new SpinBudget(2, 2);
        assertEquals(SpinBudget.WAKE_UP_NS, budget.wakeUpNs());
        assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
    }

    @Test
    void shouldLengthenThePollWhenWakeUpsAreLateAndShortenItWhenTheyAreOnTime()
    {
        final SpinBudget budget = new SpinBudget(2, 2);
        // a loaded machine: every probe park of 10 us takes 800 us
        for (int i = 0; i < 40; i++)
        {
            budget.onProbeParked(SpinBudget.PROBE_PARK_NS + 800_000L);
        }
        assertTrue(budget.wakeUpNs() > 790_000L && budget.wakeUpNs() <= 800_000L, "wake-up " + budget.wakeUpNs());
        assertEquals(2 * budget.wakeUpNs(), budget.nextBudgetNs());
        // a GC pause during a probe counts no more than the longest poll
        budget.onProbeParked(1_000_000_000L);
        assertEquals(SpinBudget.MAX_SPIN_NS, budget.nextBudgetNs());
        // quiet again: parks overshoot by 30 us
        for (int i = 0; i < 60; i++)
        {
            budget.onProbeParked(SpinBudget.PROBE_PARK_NS + 30_000L);
        }
        assertTrue(budget.wakeUpNs() < 40_000L, "wake-up " + budget.wakeUpNs());
        assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
    }

    @Test
    void shouldYieldForOneWakeUpWithMoreNodesThanCoresWhateverItsYieldsSay()
    {
        final SpinBudget budget = new SpinBudget(4, 2);
        budget.onProbeParked(SpinBudget.PROBE_PARK_NS + 4 * 400_000L);
        for (int i = 0; i < 3 * SpinBudget.PROBE_PERIOD; i++)
        {
            assertEquals(SpinBudget.YIELD_NS, budget.nextBudgetNs(), "wait " + i);
            budget.onPolled(PollIdleStrategy.GAVE_CORE);
        }
        assertEquals(SpinBudget.SCORE_MAX / 2, budget.score());
    }

    @Test
    void shouldRaiseTheScoreByOneAndLowerItByTwoWithinItsBounds()
    {
        assertEquals(1, SpinBudget.nextScore(0, PollIdleStrategy.KEPT_CORE));
        assertEquals(SpinBudget.SCORE_MAX, SpinBudget.nextScore(SpinBudget.SCORE_MAX, PollIdleStrategy.KEPT_CORE));
        assertEquals(3, SpinBudget.nextScore(5, PollIdleStrategy.GAVE_CORE));
        assertEquals(0, SpinBudget.nextScore(1, PollIdleStrategy.GAVE_CORE));
        assertEquals(0, SpinBudget.nextScore(0, PollIdleStrategy.GAVE_CORE));
        assertEquals(5, SpinBudget.nextScore(5, PollIdleStrategy.SPUN));
    }

    @Test
    void shouldGoStraightToThePortsWaitAtScoreZeroExceptEveryProbePeriod()
    {
        assertEquals(SpinBudget.budgetNs(300_000L), SpinBudget.budgetNs(1, 300_000L, 0));
        for (int skipped = 1; skipped <= 3 * SpinBudget.PROBE_PERIOD; skipped++)
        {
            assertEquals(0 == skipped % SpinBudget.PROBE_PERIOD ? SpinBudget.budgetNs(300_000L) : 0,
                SpinBudget.budgetNs(0, 300_000L, skipped), "skipped " + skipped);
        }
    }

    @Test
    void shouldStopPollingWhenOthersTakeTheCoreAndResumeWhenAProbeKeepsIt()
    {
        final SpinBudget budget = new SpinBudget(2, 2);
        assertEquals(SpinBudget.SCORE_MAX / 2, budget.score());
        int polled = 0;
        while (budget.score() > 0)
        {
            assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
            budget.onPolled(PollIdleStrategy.GAVE_CORE);
            polled++;
        }
        assertEquals(SpinBudget.SCORE_MAX / 4, polled);
        for (int wait = 1; wait < SpinBudget.PROBE_PERIOD; wait++)
        {
            assertEquals(0, budget.nextBudgetNs(), "wait " + wait);
            assertEquals(0, budget.score());
        }
        assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
        budget.onPolled(PollIdleStrategy.KEPT_CORE);
        assertEquals(1, budget.score());
        assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
    }

    @Test
    void shouldKeepPollingWhilePollsKeepTheirCoreOrEndBeforeTheyYield()
    {
        final SpinBudget budget = new SpinBudget(2, 2);
        for (int i = 0; i < 100; i++)
        {
            budget.nextBudgetNs();
            budget.onPolled(0 == i % 2 ? PollIdleStrategy.KEPT_CORE : PollIdleStrategy.SPUN);
        }
        assertEquals(SpinBudget.SCORE_MAX, budget.score());
        budget.onProbeParked(SpinBudget.PROBE_PARK_NS + 4 * 600_000L);
        assertEquals(SpinBudget.budgetNs(budget.wakeUpNs()), budget.nextBudgetNs());
    }
}
