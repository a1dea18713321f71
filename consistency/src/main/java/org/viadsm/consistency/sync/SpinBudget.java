package org.viadsm.consistency.sync;

/**
 * How long a barrier wait keeps polling for its message before it goes to the port's wait, which spins briefly
 * and then sleeps until the message wakes it.
 * <p>
 * A wake-up costs about {@value #WAKE_UP_NS} ns, and it costs twice: the sleeper starts late, so the partner that
 * waits for it in the next barrier outlasts the port's short spin and sleeps too. Once one wait sleeps, every
 * barrier pays a wake-up. While the nodes that share the machine's cores are no more than the cores, a waiting node
 * holds a core nobody else needs, so it polls for a budget sized from its recent waits: twice the recent wait, at
 * least {@link #MIN_SPIN_NS} (a partner's wake-up and its way back) and at most {@link #MAX_SPIN_NS}; when the
 * recent wait is longer than that (imbalance, not hand-off) it polls only the minimum.
 * <p>
 * Polling pays only if the message comes within the budget. When the machine is busy with other work, the nodes
 * share fewer cores than they number: a node that polls burns the share its partner needs, and a sleeper woken by
 * the message gets a core sooner than a poller that used its share. So the budget keeps a score of the waits that
 * polled: a wait the poll ended raises it by 1, up to {@link #SCORE_MAX}, one that outlasted the poll lowers it by
 * 2. At 0 waits go straight to the port's wait, except every {@value #PROBE_PERIOD}th, which polls the longest
 * budget to find out whether polling pays again. It must outlast the lateness of a partner that went to the port's
 * wait too (it resumes from a park or a sleep), or a probe would never catch the message once both nodes stopped
 * polling (a phase of long waits, such as a node reading many pages while the other waits, can stop both).
 * <p>
 * With more nodes than cores, polling would take the core from the node it waits for: the wait yields its core
 * instead, for about one wake-up, so that a node that is ready runs, and then sleeps.
 * <p>
 * The recent wait is a moving average (weight 1/4 to the newest) of the waits that found their message missing;
 * a wait that found it needs no budget.
 * <p>
 * <b>Note:</b> not thread-safe; one per node, used by its application thread.
 */
final class SpinBudget
{
    /** What a wake-up from sleep costs, in ns, on the machines measured. */
    static final long WAKE_UP_NS = 20_000L;
    /** The shortest poll phase while the nodes fit the cores: a partner's wake-up and its way back, with margin. */
    static final long MIN_SPIN_NS = 3 * WAKE_UP_NS;
    /** The longest poll phase. */
    static final long MAX_SPIN_NS = 10 * WAKE_UP_NS;
    /** The yield phase with more nodes than cores. */
    static final long YIELD_NS = WAKE_UP_NS;
    /** The highest score. */
    static final int SCORE_MAX = 8;
    /** At score 0, one wait in this many polls (the minimum) anyway. */
    static final int PROBE_PERIOD = 16;

    private final boolean nodesFitCores;
    private long recentWaitNs = MIN_SPIN_NS;
    private int score = SCORE_MAX / 2;
    private int skipped;

    /**
     * A budget for a node of a cluster.
     *
     * @param nodes nodes that share this machine's cores.
     * @param cores cores of this machine.
     */
    SpinBudget(final int nodes, final int cores)
    {
        this.nodesFitCores = fitsCores(nodes, cores);
    }

    /**
     * Whether waiting nodes may poll: every node can have a core of its own.
     *
     * @param nodes nodes that share the cores.
     * @param cores the cores.
     * @return true if {@code nodes <= cores}.
     */
    static boolean fitsCores(final int nodes, final int cores)
    {
        return nodes <= cores;
    }

    /**
     * The poll phase of a wait that polls, while the nodes fit the cores.
     *
     * @param recentWaitNs the recent wait, see {@link #nextRecentWaitNs(long, long)}.
     * @return ns to poll before the port's wait.
     */
    static long spinNs(final long recentWaitNs)
    {
        if (recentWaitNs > MAX_SPIN_NS)
        {
            return MIN_SPIN_NS;
        }
        return Math.min(MAX_SPIN_NS, Math.max(MIN_SPIN_NS, 2 * recentWaitNs));
    }

    /**
     * How long a wait polls or yields before the port's wait.
     *
     * @param nodesFitCores whether the nodes fit the cores, see {@link #fitsCores(int, int)}.
     * @param score         the score of the waits that polled, see {@link #nextScore(int, boolean)}.
     * @param recentWaitNs  the recent wait.
     * @param skipped       waits that went straight to the port's wait since the score reached 0, this one included.
     * @return ns: the poll phase; {@link #YIELD_NS} with more nodes than cores; at score 0, {@link #MAX_SPIN_NS}
     *         for every {@link #PROBE_PERIOD}th wait and 0 for the others.
     */
    static long budgetNs(final boolean nodesFitCores, final int score, final long recentWaitNs, final int skipped)
    {
        if (!nodesFitCores)
        {
            return YIELD_NS;
        }
        if (score > 0)
        {
            return spinNs(recentWaitNs);
        }
        return 0 == skipped % PROBE_PERIOD ? MAX_SPIN_NS : 0;
    }

    /**
     * The score after one more wait that polled.
     *
     * @param score the score so far.
     * @param hit   whether the message came while it polled.
     * @return the new score, from 0 to {@link #SCORE_MAX}.
     */
    static int nextScore(final int score, final boolean hit)
    {
        return hit ? Math.min(SCORE_MAX, score + 1) : Math.max(0, score - 2);
    }

    /**
     * The moving average after one more wait.
     *
     * @param recentWaitNs the average so far.
     * @param waitNs       the wait that ended.
     * @return the new average: a quarter of the way from the old one to the new wait.
     */
    static long nextRecentWaitNs(final long recentWaitNs, final long waitNs)
    {
        return recentWaitNs + (Math.max(0, waitNs) - recentWaitNs) / 4;
    }

    /**
     * Whether this node's waits poll (the nodes fit the cores) or yield.
     *
     * @return true if they poll without giving up the core.
     */
    boolean spins()
    {
        return nodesFitCores;
    }

    /**
     * How long the next wait that found its message missing polls or yields before the port's wait; then
     * {@link #onWaited(long, long)} tells how it went.
     *
     * @return ns.
     */
    long nextBudgetNs()
    {
        if (nodesFitCores && 0 == score)
        {
            skipped++;
        }
        return budgetNs(nodesFitCores, score, recentWaitNs, skipped);
    }

    /**
     * A wait that found its message missing ended (by the message, slept or not).
     *
     * @param budgetNs what {@link #nextBudgetNs()} gave it.
     * @param waitNs   how long it took.
     */
    void onWaited(final long budgetNs, final long waitNs)
    {
        if (nodesFitCores && budgetNs > 0)
        {
            score = nextScore(score, waitNs <= budgetNs);
            if (score > 0)
            {
                skipped = 0;
            }
        }
        recentWaitNs = nextRecentWaitNs(recentWaitNs, waitNs);
    }

    /**
     * The recent wait.
     *
     * @return ns, the moving average.
     */
    long recentWaitNs()
    {
        return recentWaitNs;
    }

    /**
     * The score of the waits that polled.
     *
     * @return from 0 (waits go straight to the port's wait) to {@link #SCORE_MAX}.
     */
    int score()
    {
        return score;
    }
}
