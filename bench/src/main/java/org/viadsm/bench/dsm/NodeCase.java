package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;

/**
 * A row run by every node process of a cluster: each node calls the same methods in the same order, node 0 times
 * and the others play their part, and every {@link #measure(int, int)} and {@link #baseline(int, int)} ends with a
 * DSM barrier so the nodes stay in step. Only node 0's histograms count; the others return a placeholder.
 */
abstract class NodeCase extends BenchCase
{
    final DsmRig rig;
    long sink;

    NodeCase(final String metric, final String unit, final String baselineName, final String target, final DsmRig rig)
    {
        super(metric, unit, baselineName, target);
        this.rig = rig;
    }

    /**
     * One timed operation.
     */
    @FunctionalInterface
    interface Op
    {
        /**
         * Runs operation {@code i}.
         *
         * @param i the operation's number, from 0 (warm-up operations first).
         */
        void run(int i);
    }

    /**
     * On node 0, runs {@code warmup} operations untimed then up to {@code samples} timed ones, each timed alone,
     * within the time budget; the other nodes do nothing. Ends with a DSM barrier on every node.
     *
     * @param warmup  untimed operations.
     * @param samples timed operations.
     * @param op      the operation.
     * @return node 0's samples, a placeholder elsewhere.
     */
    final Histogram timeEach(final int warmup, final int samples, final Op op)
    {
        return timeEach(warmup, samples, null, op);
    }

    /**
     * As {@link #timeEach(int, int, Op)}, with an untimed step before each operation.
     *
     * @param warmup  untimed operations.
     * @param samples timed operations.
     * @param before  run before operation {@code i}, outside its timing; null for none.
     * @param op      the operation.
     * @return node 0's samples, a placeholder elsewhere.
     */
    final Histogram timeEach(final int warmup, final int samples, final Op before, final Op op)
    {
        final Histogram histogram = BenchCase.histogram();
        if (rig.isMeasurer())
        {
            for (int i = 0; i < warmup; i++)
            {
                if (null != before)
                {
                    before.run(i);
                }
                op.run(i);
            }
            final long deadlineNs = System.nanoTime() + budgetNs();
            for (int i = 0; i < samples; i++)
            {
                if (null != before)
                {
                    before.run(warmup + i);
                }
                final long startBytes = BenchCase.allocatedBytes();
                final long startNs = System.nanoTime();
                op.run(warmup + i);
                final long endNs = System.nanoTime();
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
                if (endNs - deadlineNs > 0)
                {
                    break;
                }
            }
        }
        rig.dsm.barrier();
        return placeholder(histogram);
    }

    /**
     * What a node returns: node 0's histogram, or one sample elsewhere (the runner wants samples).
     *
     * @param histogram this node's histogram.
     * @return it, with one sample added if it has none.
     */
    static Histogram placeholder(final Histogram histogram)
    {
        if (0 == histogram.getTotalCount())
        {
            BenchCase.record(histogram, 1);
        }
        return histogram;
    }

    @Override
    public double figure(final double sampleNs)
    {
        return sampleNs / 1000.0;
    }
}
