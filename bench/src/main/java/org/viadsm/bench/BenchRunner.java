package org.viadsm.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.HdrHistogram.Histogram;

/**
 * Runs benchmark cases over rounds and summarises each into a {@link BenchRow}: per round, the measured path and the
 * baseline are timed back to back (the order alternates between rounds, so a slow phase of the machine does not
 * always hit the same side); the row holds the medians over the rounds of each round's p50 and p99.
 * <p>
 * A case that fails gets a row with a note saying so, and the others still run. A case with a slow-sample threshold
 * gets a note when at least {@link #SLOW_SHARE_NOTED} of a round's samples on either side reached it.
 */
public final class BenchRunner
{
    /** A share of slow samples worth a note. */
    public static final double SLOW_SHARE_NOTED = 0.01;

    private final int rounds;
    private final int warmup;
    private final int iterations;
    private final long budgetNs;
    private final PrintStream progress;
    private int failures;

    /**
     * A runner.
     *
     * @param rounds     rounds, at least 1.
     * @param warmup     unrecorded operations before each timed run.
     * @param iterations recorded operations per timed run (the base count; cases scale it to their cost).
     * @param budgetNs   time budget of one timed run, for cases whose cost can run away.
     * @param progress   where to say what is running.
     * @throws IllegalArgumentException if a count is out of range.
     */
    public BenchRunner(
        final int rounds, final int warmup, final int iterations, final long budgetNs, final PrintStream progress)
    {
        if (rounds < 1 || warmup < 0 || iterations < 1 || budgetNs < 1)
        {
            throw new IllegalArgumentException("need rounds >= 1, warmup >= 0, iterations >= 1, budget >= 1: " +
                "rounds=" + rounds + " warmup=" + warmup + " iterations=" + iterations + " budgetNs=" + budgetNs);
        }
        this.budgetNs = budgetNs;
        this.rounds = rounds;
        this.warmup = warmup;
        this.iterations = iterations;
        this.progress = progress;
    }

    /**
     * Runs every case, opening each before its rounds and closing it after, and adds its row to the report.
     *
     * @param cases  the cases, in report order.
     * @param report receives one row per case.
     */
    public void run(final List<? extends BenchCase> cases, final BenchReport report)
    {
        for (final BenchCase benchCase : cases)
        {
            report.add(run(benchCase));
        }
    }

    /**
     * How many cases failed.
     *
     * @return the count so far.
     */
    public int failures()
    {
        return failures;
    }

    private BenchRow run(final BenchCase benchCase)
    {
        final String reason = benchCase.unavailableReason();
        if (null != reason)
        {
            progress.println(benchCase.metric() + ": not measured, " + reason);
            return unavailable(benchCase, reason);
        }
        final List<double[]> value = new ArrayList<>();
        final List<double[]> baseline = new ArrayList<>();
        final double[] slowShare = new double[2];
        final int[] shortRuns = new int[1];
        try
        {
            benchCase.budgetNs(budgetNs).open();
            for (int round = 0; round < rounds; round++)
            {
                progress.println(benchCase.metric() + ": round " + (round + 1) + " of " + rounds);
                if (0 == round % 2)
                {
                    value.add(measure(benchCase, slowShare, shortRuns));
                    baseline.add(baseline(benchCase, slowShare, shortRuns));
                }
                else
                {
                    baseline.add(baseline(benchCase, slowShare, shortRuns));
                    value.add(measure(benchCase, slowShare, shortRuns));
                }
            }
        }
        catch (final RuntimeException ex)
        {
            failures++;
            progress.println(benchCase.metric() + ": failed: " + ex);
            ex.printStackTrace(progress);
            return unavailable(benchCase, "failed: " + ex);
        }
        finally
        {
            benchCase.close();
        }
        return new BenchRow(benchCase.metric(), benchCase.unit(), benchCase.baselineName(), benchCase.target(),
            spread(value), spread(baseline), note(benchCase, slowShare, shortRuns[0]), benchCase.bytesPerOp(false),
            benchCase.bytesPerOp(true));
    }

    private double[] measure(final BenchCase benchCase, final double[] slowShare, final int[] shortRuns)
    {
        BenchCase.startTiming();
        final Histogram histogram = benchCase.measure(warmup, iterations);
        benchCase.endTiming(false);
        return figures(benchCase, histogram, slowShare, 0, shortRuns);
    }

    private double[] baseline(final BenchCase benchCase, final double[] slowShare, final int[] shortRuns)
    {
        BenchCase.startTiming();
        final Histogram histogram = benchCase.baseline(warmup, iterations);
        benchCase.endTiming(true);
        return figures(benchCase, histogram, slowShare, 1, shortRuns);
    }

    private String note(final BenchCase benchCase, final double[] slowShare, final int shortRuns)
    {
        final String note = join(benchCase.note(), 0 == shortRuns ? null : shortRuns + " of " + 2 * rounds +
            " runs reached the " + budgetNs / 1_000_000 + " ms budget and took fewer samples");
        if (slowShare[0] < SLOW_SHARE_NOTED && slowShare[1] < SLOW_SHARE_NOTED)
        {
            return note;
        }
        final String slow = String.format(Locale.ROOT,
            "up to %.1f%% of value samples and %.1f%% of baseline samples in a round were >= %d us (%s)",
            100 * slowShare[0], 100 * slowShare[1], benchCase.slowSampleNs() / 1000, benchCase.slowSampleMeaning());
        return join(note, slow);
    }

    private static String join(final String a, final String b)
    {
        return null == a ? b : null == b ? a : a + "; " + b;
    }

    private static BenchRow unavailable(final BenchCase benchCase, final String reason)
    {
        return BenchRow.unavailable(
            benchCase.metric(), benchCase.unit(), benchCase.baselineName(), benchCase.target(), reason);
    }

    private double[] figures(
        final BenchCase benchCase, final Histogram histogram, final double[] slowShare, final int side,
        final int[] shortRuns)
    {
        if (0 == histogram.getTotalCount())
        {
            throw new IllegalStateException(benchCase.metric() + " recorded no samples");
        }
        if (histogram.getTotalCount() < benchCase.samples(iterations))
        {
            shortRuns[0]++;
        }
        final long slowNs = benchCase.slowSampleNs();
        if (slowNs > 0)
        {
            final double share = (double)histogram.getCountBetweenValues(slowNs, histogram.getMaxValue()) /
                histogram.getTotalCount();
            slowShare[side] = Math.max(slowShare[side], share);
        }
        return new double[]{
            benchCase.figure(histogram.getValueAtPercentile(50)), benchCase.figure(histogram.getValueAtPercentile(99))};
    }

    private static Spread spread(final List<double[]> rounds)
    {
        final double[] typicals = new double[rounds.size()];
        final double[] tails = new double[rounds.size()];
        for (int i = 0; i < rounds.size(); i++)
        {
            typicals[i] = rounds.get(i)[0];
            tails[i] = rounds.get(i)[1];
        }
        return Spread.of(typicals, tails);
    }
}
