package org.viadsm.consistency.sync;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decisions of a barrier wait's poll phase: whether it polls or yields, for how long, and how the score of
 * recent waits turns polling off and back on.
 */
class SpinBudgetTest
{
    @Test
    void shouldPollOnlyWhileTheNodesFitTheCores()
    {
        assertTrue(SpinBudget.fitsCores(2, 2));
        assertTrue(SpinBudget.fitsCores(1, 8));
        assertFalse(SpinBudget.fitsCores(3, 2));
        assertTrue(new SpinBudget(2, 2).spins());
        assertFalse(new SpinBudget(4, 2).spins());
    }

    @Test
    void shouldYieldForOneWakeUpWithMoreNodesThanCores()
    {
        final SpinBudget budget = new SpinBudget(4, 2);
        for (int i = 0; i < 40; i++)
        {
            assertEquals(SpinBudget.YIELD_NS, budget.nextBudgetNs());
            budget.onWaited(SpinBudget.YIELD_NS, 10_000_000L);
        }
        assertEquals(SpinBudget.YIELD_NS, SpinBudget.budgetNs(false, 0, 0, 16));
        assertEquals(SpinBudget.YIELD_NS, SpinBudget.budgetNs(false, SpinBudget.SCORE_MAX, 0, 0));
    }

    @Test
    void shouldPollTwiceTheRecentWaitWithinItsBounds()
    {
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.spinNs(0));
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.spinNs(SpinBudget.MIN_SPIN_NS / 2));
        assertEquals(2 * 70_000L, SpinBudget.spinNs(70_000L));
        assertEquals(SpinBudget.MAX_SPIN_NS, SpinBudget.spinNs(SpinBudget.MAX_SPIN_NS));
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.spinNs(SpinBudget.MAX_SPIN_NS + 1));
        assertEquals(SpinBudget.MIN_SPIN_NS, SpinBudget.spinNs(1_000_000_000L));
    }

    @Test
    void shouldAverageRecentWaitsAQuarterTowardsTheNewest()
    {
        assertEquals(100, SpinBudget.nextRecentWaitNs(0, 400));
        assertEquals(300, SpinBudget.nextRecentWaitNs(400, 0));
        assertEquals(400, SpinBudget.nextRecentWaitNs(400, 400));
        assertEquals(300, SpinBudget.nextRecentWaitNs(400, -5));
    }

    @Test
    void shouldRaiseTheScoreByOneAndLowerItByTwoWithinItsBounds()
    {
        assertEquals(1, SpinBudget.nextScore(0, true));
        assertEquals(SpinBudget.SCORE_MAX, SpinBudget.nextScore(SpinBudget.SCORE_MAX, true));
        assertEquals(3, SpinBudget.nextScore(5, false));
        assertEquals(0, SpinBudget.nextScore(1, false));
        assertEquals(0, SpinBudget.nextScore(0, false));
    }

    @Test
    void shouldGoStraightToThePortsWaitAtScoreZeroExceptEveryProbePeriod()
    {
        assertEquals(SpinBudget.spinNs(50_000L), SpinBudget.budgetNs(true, 1, 50_000L, 0));
        for (int skipped = 1; skipped <= 3 * SpinBudget.PROBE_PERIOD; skipped++)
        {
            assertEquals(0 == skipped % SpinBudget.PROBE_PERIOD ? SpinBudget.MAX_SPIN_NS : 0,
                SpinBudget.budgetNs(true, 0, 50_000L, skipped), "skipped " + skipped);
        }
    }

    @Test
    void shouldStopPollingAfterMissesAndResumeWhenAProbeHits()
    {
        final SpinBudget budget = new SpinBudget(2, 2);
        assertEquals(SpinBudget.SCORE_MAX / 2, budget.score());
        int polled = 0;
        while (budget.score() > 0)
        {
            final long budgetNs = budget.nextBudgetNs();
            assertTrue(budgetNs >= SpinBudget.MIN_SPIN_NS);
            budget.onWaited(budgetNs, budgetNs + 1);
            polled++;
        }
        assertEquals(SpinBudget.SCORE_MAX / 4, polled);
        for (int wait = 1; wait < SpinBudget.PROBE_PERIOD; wait++)
        {
            final long budgetNs = budget.nextBudgetNs();
            assertEquals(0, budgetNs, "wait " + wait);
            budget.onWaited(budgetNs, 1_000L);
            assertEquals(0, budget.score());
        }
        final long probeNs = budget.nextBudgetNs();
        assertEquals(SpinBudget.MAX_SPIN_NS, probeNs);
        // a partner that resumes from the port's wait comes later than the shortest poll, and the probe catches it
        budget.onWaited(probeNs, SpinBudget.MIN_SPIN_NS + 1);
        assertEquals(1, budget.score());
        assertEquals(SpinBudget.spinNs(budget.recentWaitNs()), budget.nextBudgetNs());
    }

    @Test
    void shouldKeepPollingWhileWaitsEndWithinThePoll()
    {
        final SpinBudget budget = new SpinBudget(1, 1);
        for (int i = 0; i < 100; i++)
        {
            final long budgetNs = budget.nextBudgetNs();
            budget.onWaited(budgetNs, 2_000L);
        }
        assertEquals(SpinBudget.SCORE_MAX, budget.score());
        assertEquals(SpinBudget.MIN_SPIN_NS, budget.nextBudgetNs());
    }
}
