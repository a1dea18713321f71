package org.viadsm.consistency.sync;

/**
 * How long a barrier wait keeps polling for its message before it goes to the port's wait, which spins briefly
 * and then sleeps until the message wakes it, sized from what a wake-up costs on this machine now.
 * <p>
 * A waiter that sleeps sees its message one wake-up late, and the lateness cascades: the sleeper starts its next
 * phase late, so its partner waits that much longer at the next barrier, sleeps too and is woken late in turn. A
 * wake-up costs about {@value #WAKE_UP_NS} ns on a quiet machine, but 0.15 to 1 ms on a loaded one, where
 * a woken thread queues for a core. So the wait measures it: a wait that outlasts its poll parks once for
 * {@value #PROBE_PARK_NS} ns before the port's wait, and how far that park overshoots is a sample of the wake-up
 * cost (it sleeps anyway, so the probe costs it nothing). The poll budget is twice the moving average of the samples
 * (the lateness counts twice, at the sleeper and at its partner), at least {@link #MIN_SPIN_NS}, the granularity at
 * which the port's wait sees a message once it dozes, and at most {@link #MAX_SPIN_NS}. A partner that arrives
 * within a wake-up is caught polling; a longer wait (imbalance) polls one budget, then sleeps, so no more than one
 * wake-up's worth of core is spent on it. Every wait still ends in the port's wait.
 * <p>
 * A poller must not take the core from the node it waits for, nor from anything else the machine runs. While the
 * nodes that share the machine's cores are no more than the cores, a poll first spins on the core for
 * {@link #SPIN_ONLY_NS} (a partner on another core answers within it), then yields between polls. How much of the
 * yielding time the thread still ran tells whether others wanted its core ({@link PollIdleStrategy#conclude()}). On
 * a machine busy with other work they do, and a poller, even a
 * yielding one, slows the partner it waits for, while a sleeper woken by the message is scheduled ahead of threads
 * that used their share. So the budget keeps a score: a poll that kept its core raises it by 1, up to
 * {@link #SCORE_MAX}, one that gave its core away lowers it by 2. At 0 waits go straight to the port's wait, except
 * every {@value #PROBE_PERIOD}th, which polls to find out whether the machine is free again.
 * <p>
 * With more nodes than cores, the node a wait needs is often runnable on the waiter's own core: the wait yields
 * from the start, for {@link #YIELD_NS}, so that it runs and sends the message, and then sleeps. That its yields gave
 * the core away is the point there, so no score is kept, and no wake-up is measured: the probe park would keep the
 * waiter from the core its partner just left, when the message is already in.
 * <p>
 * <b>Note:</b> not thread-safe; one per node, used by its application thread.
 */
final class SpinBudget
{
    /** What a wake-up from sleep costs, in ns, on a quiet machine: the estimate before any is measured. */
    static final long WAKE_UP_NS = 20_000L;
    /** The park whose overshoot measures a wake-up, in ns. */
    static final long PROBE_PARK_NS = 10_000L;
    /** The shortest poll phase: about the port's longest doze park, after which a dozing waiter sees its message. */
    static final long MIN_SPIN_NS = 200_000L;
    /** The longest poll phase, and the largest wake-up sample taken. */
    static final long MAX_SPIN_NS = 2_000_000L;
    /** How long a poll phase spins before it yields between polls, while the nodes fit the cores. */
    static final long SPIN_ONLY_NS = WAKE_UP_NS;
    /** The poll phase with more nodes than cores, all of it yielding: about one wake-up. */
    static final long YIELD_NS = WAKE_UP_NS;

    /** The highest score. */
    static final int SCORE_MAX = 8;
    /** At score 0, one wait in this many polls anyway. */
    static final int PROBE_PERIOD = 16;

    private final boolean nodesFitCores;
    private long wakeUpNs = WAKE_UP_NS;
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
     * Whether waiting nodes may spin on their core: every node can have a core of its own.
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
     * The poll phase for a wake-up cost.
     *
     * @param wakeUpNs the wake-up cost, see {@link #nextWakeUpNs(long, long)}.
     * @return ns to poll before the port's wait: twice the wake-up, within {@link #MIN_SPIN_NS} and
     *         {@link #MAX_SPIN_NS}.
     */
    static long budgetNs(final long wakeUpNs)
    {
        return Math.min(MAX_SPIN_NS, Math.max(MIN_SPIN_NS, 2 * wakeUpNs));
    }

    /**
     * The wake-up cost after one more sample.
     *
     * @param wakeUpNs the moving average so far.
     * @param sampleNs how far a probe park overshot; taken within 0 and {@link #MAX_SPIN_NS}.
     * @return the new average: a quarter of the way from the old one to the sample.
     */
    static long nextWakeUpNs(final long wakeUpNs, final long sampleNs)
    {
        return wakeUpNs + (Math.min(MAX_SPIN_NS, Math.max(0, sampleNs)) - wakeUpNs) / 4;
    }

    /**
     * How long a poll phase spins before it yields between polls.
     *
     * @param nodesFitCores whether the nodes fit the cores, see {@link #fitsCores(int, int)}.
     * @return {@link #SPIN_ONLY_NS}, or 0 with more nodes than cores.
     */
    static long spinOnlyNs(final boolean nodesFitCores)
    {
        return nodesFitCores ? SPIN_ONLY_NS : 0;
    }

    /**
     * Whether a wait that outlasts its poll measures a wake-up with a probe park: only while the nodes fit the cores,
     * where the wake-up sizes the poll.
     *
     * @return true if it does.
     */
    boolean measuresWakeUps()
    {
        return nodesFitCores;
    }

    /**
     * Whether {@link #onPolled(int)} uses a poll's verdict: only while the nodes fit the cores; with more nodes than
     * cores every wait yields for one wake-up whatever the verdicts, so none need be taken.
     *
     * @return true if it does.
     */
    boolean judgesPolls()
    {
        return nodesFitCores;
    }

    /**
     * How long this node's poll phases spin before they yield.
     *
     * @return ns, see {@link #spinOnlyNs(boolean)}.
     */
    long spinOnlyNs()
    {
        return spinOnlyNs(nodesFitCores);
    }

    /**
     * How long a wait polls.
     *
     * @param score    the score of the polls, see {@link #nextScore(int, int)}.
     * @param wakeUpNs the wake-up cost.
     * @param skipped  waits that went straight to the port's wait since the score reached 0, this one included.
     * @return ns: {@link #budgetNs(long)} while the score is above 0, and at 0 for every {@link #PROBE_PERIOD}th
     *         wait; 0 for the others.
     */
    static long budgetNs(final int score, final long wakeUpNs, final int skipped)
    {
        return score > 0 || 0 == skipped % PROBE_PERIOD ? budgetNs(wakeUpNs) : 0;
    }

    /**
     * The score after one more poll.
     *
     * @param score   the score so far.
     * @param verdict what the poll's yields said, see {@link PollIdleStrategy#conclude()}.
     * @return the new score, from 0 to {@link #SCORE_MAX}: 1 up if it kept its core, 2 down if it gave it away,
     *         unchanged if it did not yield.
     */
    static int nextScore(final int score, final int verdict)
    {
        return switch (verdict)
        {
            case PollIdleStrategy.KEPT_CORE -> Math.min(SCORE_MAX, score + 1);
            case PollIdleStrategy.GAVE_CORE -> Math.max(0, score - 2);
            default -> score;
        };
    }

    /**
     * How long the next wait that found its message missing polls before the port's wait; then
     * {@link #onPolled(int)} tells how it went, if it polled.
     *
     * @return ns, see {@link #budgetNs(int, long, int)}; {@link #YIELD_NS} with more nodes than cores.
     */
    long nextBudgetNs()
    {
        if (!nodesFitCores)
        {
            return YIELD_NS;
        }
        if (0 == score)
        {
            skipped++;
        }
        return budgetNs(score, wakeUpNs, skipped);
    }

    /**
     * A poll phase ended.
     *
     * @param verdict what its yields said, see {@link PollIdleStrategy#conclude()}.
     */
    void onPolled(final int verdict)
    {
        if (!judgesPolls())
        {
            return;
        }
        score = nextScore(score, verdict);
        if (score > 0)
        {
            skipped = 0;
        }
    }

    /**
     * The score of the polls.
     *
     * @return from 0 (waits go straight to the port's wait) to {@link #SCORE_MAX}.
     */
    int score()
    {
        return score;
    }

    /**
     * A probe park of {@link #PROBE_PARK_NS} ended.
     *
     * @param parkedNs how long it took.
     */
    void onProbeParked(final long parkedNs)
    {
        wakeUpNs = nextWakeUpNs(wakeUpNs, parkedNs - PROBE_PARK_NS);
    }

    /**
     * The wake-up cost measured so far.
     *
     * @return ns, the moving average of the samples.
     */
    long wakeUpNs()
    {
        return wakeUpNs;
    }
}
