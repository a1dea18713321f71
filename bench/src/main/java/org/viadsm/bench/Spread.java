package org.viadsm.bench;

import java.util.Arrays;

/**
 * One side of a benchmark row (the measured path or its baseline) over several rounds: the median over the rounds
 * of each round's typical figure (p50) and tail figure (p99), and the lowest and highest typical figure of any
 * round, which tells how noisy the rounds were.
 */
public final class Spread
{
    /** No measurement. */
    public static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);

    private final double typical;
    private final double tail;
    private final double min;
    private final double max;
    private final int rounds;

    /**
     * Figures as given.
     *
     * @param typical the typical figure (median over rounds of each round's p50).
     * @param tail    the tail figure (median over rounds of each round's p99).
     * @param min     the lowest typical figure of a round.
     * @param max     the highest typical figure of a round.
     * @param rounds  how many rounds.
     */
    public Spread(final double typical, final double tail, final double min, final double max, final int rounds)
    {
        this.typical = typical;
        this.tail = tail;
        this.min = min;
        this.max = max;
        this.rounds = rounds;
    }

    /**
     * Summarises rounds: medians of the typical and tail figures, extremes of the typical figures.
     *
     * @param typicals each round's typical figure.
     * @param tails    each round's tail figure, as many.
     * @return the spread.
     * @throws IllegalArgumentException if the arrays are empty or differ in length.
     */
    public static Spread of(final double[] typicals, final double[] tails)
    {
        if (0 == typicals.length || typicals.length != tails.length)
        {
            throw new IllegalArgumentException(
                "need one tail per typical figure: typicals=" + typicals.length + " tails=" + tails.length);
        }
        final double[] sorted = typicals.clone();
        Arrays.sort(sorted);
        return new Spread(median(typicals), median(tails), sorted[0], sorted[sorted.length - 1], typicals.length);
    }

    /**
     * The median, the mean of the middle two for an even count.
     *
     * @param values the values; not changed.
     * @return the median.
     */
    public static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return 0 == sorted.length % 2 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
    }

    /**
     * The median over rounds of each round's p50.
     *
     * @return the typical figure, NaN if not measured.
     */
    public double typical()
    {
        return typical;
    }

    /**
     * The median over rounds of each round's p99 (for a bandwidth: the rate of the slowest 1% of batches).
     *
     * @return the tail figure.
     */
    public double tail()
    {
        return tail;
    }

    /**
     * The lowest typical figure of a round.
     *
     * @return the minimum.
     */
    public double min()
    {
        return min;
    }

    /**
     * The highest typical figure of a round.
     *
     * @return the maximum.
     */
    public double max()
    {
        return max;
    }

    /**
     * How many rounds.
     *
     * @return the round count, 0 if not measured.
     */
    public int rounds()
    {
        return rounds;
    }

    /**
     * How far apart the rounds were: highest over lowest typical figure.
     *
     * @return max / min, 1 for a single round, NaN if not measured.
     */
    public double variation()
    {
        return max / min;
    }
}
