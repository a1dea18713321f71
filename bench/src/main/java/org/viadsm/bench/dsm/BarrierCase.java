package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;

/**
 * {@code dsm.barrier_N}: every node passes barriers back to back; node 0 times each of its barriers (arrival to
 * departure). Baseline: the same loop over a {@link RawBarrier} on a /dev/shm file the same processes map. Samples
 * are a tenth of the base count, in chunks of {@value #CHUNK} barriers; after each chunk node 0 decides for all
 * (through an untimed DSM barrier) whether the count or the time budget is reached.
 */
final class BarrierCase extends NodeCase
{
    private static final int CHUNK = 100;

    BarrierCase(final DsmRig rig, final int nodes)
    {
        super("dsm.barrier_" + nodes, "us",
            "sense-reversing counter barrier in a /dev/shm file the " + nodes + " processes map (spin ~20 us, then " +
                "park, as the DSM waits)", 2 == nodes ? "<=1.5 us" : "-", rig);
    }

    @Override
    public int samples(final int iterations)
    {
        return Math.max(1, iterations / 10);
    }

    @Override
    public void open()
    {
        rig.raw();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return loop(warmup, iterations, true);
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        return loop(warmup, iterations, false);
    }

    private Histogram loop(final int warmup, final int iterations, final boolean dsm)
    {
        final RawBarrier raw = rig.rawBarrier();
        final Histogram histogram = BenchCase.histogram();
        final int warm = warmup / 10;
        final int samples = samples(iterations);
        for (int i = 0; i < warm; i++)
        {
            pass(raw, dsm);
        }
        final long deadlineNs = System.nanoTime() + budgetNs();
        boolean stop = false;
        while (!stop)
        {
            for (int i = 0; i < CHUNK; i++)
            {
                final long startBytes = BenchCase.allocatedBytes();
                final long startNs = System.nanoTime();
                pass(raw, dsm);
                final long endNs = System.nanoTime();
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
            }
            stop = rig.agree(histogram.getTotalCount() >= samples || System.nanoTime() - deadlineNs > 0);
        }
        return placeholder(rig.isMeasurer() ? histogram : BenchCase.histogram());
    }

    private void pass(final RawBarrier raw, final boolean dsm)
    {
        if (dsm)
        {
            rig.dsm.barrier();
        }
        else
        {
            raw.await();
        }
    }
}
