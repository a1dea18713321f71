package org.viadsm.bench;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.HdrHistogram.Histogram;

/**
 * One row of a benchmark: a measured path and the baseline it is compared with, both timed by the same harness in
 * the same run. Each timed sample is recorded in nanoseconds in a histogram; {@link #figure(double)} turns a
 * sample into the row's unit (half a round trip, a rate...).
 * <p>
 * The runner calls {@link #open()} once, then {@link #measure(int, int)} and {@link #baseline(int, int)} once per
 * round (in alternating order), then {@link #close()}.
 * <p>
 * <b>Note:</b> used by one thread.
 */
public abstract class BenchCase implements AutoCloseable
{
    /** Longest a benchmark waits for anything before it gives up: the benchmarks never hang. */
    public static final long TIMEOUT_NS = 60_000_000_000L;

    private final String metric;
    private final String unit;
    private final String baselineName;
    private final String target;
    private static final com.sun.management.ThreadMXBean THREADS = threads();
    private static final ThreadLocal<long[]> TIMED_ALLOCATION = ThreadLocal.withInitial(() -> new long[2]);

    private final long[] allocatedBytes = new long[2];
    private final long[] allocatedOps = new long[2];
    private long budgetNs = TIMEOUT_NS;

    /**
     * Names the row.
     *
     * @param metric       the metric, e.g. {@code shm.send_recv_64B_oneway}.
     * @param unit         the unit of {@link #figure(double)}.
     * @param baselineName what the baseline measures.
     * @param target       the ratio aimed for, for display, e.g. {@code <= 3}.
     */
    protected BenchCase(final String metric, final String unit, final String baselineName, final String target)
    {
        this.metric = metric;
        this.unit = unit;
        this.baselineName = baselineName;
        this.target = target;
    }

    /**
     * The metric's name.
     *
     * @return the name.
     */
    public final String metric()
    {
        return metric;
    }

    /**
     * Whether a {@code --only} selection picks this row.
     *
     * @param only texts of which the metric must contain one; empty for every row.
     * @return true if the row is selected.
     */
    public final boolean isSelected(final List<String> only)
    {
        boolean selected = only.isEmpty();
        for (final String text : only)
        {
            selected |= metric.contains(text);
        }
        return selected;
    }

    /**
     * The unit of the figures.
     *
     * @return the unit.
     */
    public final String unit()
    {
        return unit;
    }

    /**
     * What the baseline measures.
     *
     * @return the baseline's name.
     */
    public final String baselineName()
    {
        return baselineName;
    }

    /**
     * The ratio aimed for.
     *
     * @return the target, for display.
     */
    public final String target()
    {
        return target;
    }

    /**
     * The time budget of one timed run: a run that would take longer ends early with fewer samples (cases whose
     * cost is bounded may ignore it).
     *
     * @return the budget in ns.
     */
    public final long budgetNs()
    {
        return budgetNs;
    }

    /**
     * Sets the time budget of one timed run.
     *
     * @param budgetNs the budget in ns, positive.
     * @return this case.
     * @throws IllegalArgumentException if the budget is not positive.
     */
    public final BenchCase budgetNs(final long budgetNs)
    {
        if (budgetNs <= 0)
        {
            throw new IllegalArgumentException("budget must be positive: budgetNs=" + budgetNs);
        }
        this.budgetNs = budgetNs;
        return this;
    }

    /**
     * The samples a timed run takes with the base count, if not cut short by the budget.
     *
     * @param iterations the base count.
     * @return samples per run.
     */
    public int samples(final int iterations)
    {
        return iterations;
    }

    /**
     * Why this case cannot run here (a provider missing from the build), checked before {@link #open()}.
     *
     * @return the reason, or null if it can run.
     */
    public String unavailableReason()
    {
        return null;
    }

    /**
     * Sets the case up (connections, memory); called once before the rounds.
     */
    public void open()
    {
    }

    /**
     * Times the measured path.
     *
     * @param warmup     operations done first and not recorded.
     * @param iterations the base count of recorded operations; a case may scale it to its cost.
     * @return one sample per recorded operation or batch, in ns.
     */
    public abstract Histogram measure(int warmup, int iterations);

    /**
     * Times the baseline, as {@link #measure(int, int)} does the measured path.
     *
     * @param warmup     operations done first and not recorded.
     * @param iterations the base count of recorded operations.
     * @return one sample per recorded operation or batch, in ns.
     */
    public abstract Histogram baseline(int warmup, int iterations);

    /**
     * Turns a sample into the row's unit.
     *
     * @param sampleNs a sample in ns (a percentile of the histogram).
     * @return the figure in {@link #unit()}.
     */
    public abstract double figure(double sampleNs);

    /**
     * Samples at or above this many ns are counted as slow, and the row notes what share of either side's samples
     * were (for a ping-pong: round trips in which a waiter outlasted its spin phase and parked).
     *
     * @return the threshold in ns, or 0 for no such count.
     */
    public long slowSampleNs()
    {
        return 0;
    }

    /**
     * What {@link #slowSampleNs()} means, for the note.
     *
     * @return a few words.
     */
    public String slowSampleMeaning()
    {
        return "slow";
    }

    /**
     * A remark for the table (a caveat about the method), or null.
     *
     * @return the note.
     */
    public String note()
    {
        return null;
    }

    /**
     * Releases what {@link #open()} took; idempotent.
     */
    @Override
    public void close()
    {
    }

    /**
     * The bytes the calling thread has allocated so far, to bracket a timed section with (see
     * {@link #countAllocation(long, long)}).
     *
     * @return bytes, or -1 if the JVM cannot tell.
     */
    public static long allocatedBytes()
    {
        return null == THREADS ? -1 : THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Counts what the calling thread allocated in a timed section, wherever in a case's {@link #measure} or
     * {@link #baseline} it runs: the runner adds it to the side it is timing, and the row reports the bytes per timed
     * operation. Only the timed operations belong in the section: not the histogram, the warm-up or the set-up.
     *
     * @param startBytes what {@link #allocatedBytes()} returned before the section.
     * @param ops        the operations timed in it.
     */
    public static void countAllocation(final long startBytes, final long ops)
    {
        final long nowBytes = allocatedBytes();
        if (startBytes >= 0 && nowBytes >= 0 && ops > 0)
        {
            final long[] timed = TIMED_ALLOCATION.get();
            timed[0] += nowBytes - startBytes;
            timed[1] += ops;
        }
    }

    /**
     * The bytes the timing thread allocated per timed operation of one side, over every round so far.
     *
     * @param baseline true for the baseline, false for the measured path.
     * @return bytes, NaN if the case counted nothing.
     */
    public final double bytesPerOp(final boolean baseline)
    {
        final int at = baseline ? 1 : 0;
        return 0 == allocatedOps[at] ? Double.NaN : (double)allocatedBytes[at] / allocatedOps[at];
    }

    /**
     * Before the runner times a side: forgets what the thread counted so far.
     */
    static void startTiming()
    {
        final long[] timed = TIMED_ALLOCATION.get();
        timed[0] = 0;
        timed[1] = 0;
    }

    /**
     * After the runner timed a side: adds what the thread counted to that side.
     *
     * @param baseline true for the baseline, false for the measured path.
     */
    final void endTiming(final boolean baseline)
    {
        final long[] timed = TIMED_ALLOCATION.get();
        final int at = baseline ? 1 : 0;
        allocatedBytes[at] += timed[0];
        allocatedOps[at] += timed[1];
    }

    /**
     * A histogram for samples from 1 ns to {@link #TIMEOUT_NS}, at 3 significant digits.
     *
     * @return a new histogram.
     */
    public static Histogram histogram()
    {
        return new Histogram(1, TIMEOUT_NS, 3);
    }

    /**
     * Records a sample, clamped into the histogram's range.
     *
     * @param histogram from {@link #histogram()}.
     * @param sampleNs  the sample.
     */
    public static void record(final Histogram histogram, final long sampleNs)
    {
        histogram.recordValue(Math.max(1, Math.min(sampleNs, TIMEOUT_NS)));
    }

    private static com.sun.management.ThreadMXBean threads()
    {
        final java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean &&
            ((com.sun.management.ThreadMXBean)threads).isThreadAllocatedMemorySupported())
        {
            final com.sun.management.ThreadMXBean hotspot = (com.sun.management.ThreadMXBean)threads;
            hotspot.setThreadAllocatedMemoryEnabled(true);
            return hotspot;
        }
        return null;
    }
}
