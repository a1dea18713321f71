package org.viadsm.bench.via;

import org.viadsm.bench.BenchCase;

/**
 * A ping-pong row reported one way: half the round trip, in ns. A round trip that outlasts the waits' spin phase
 * means the waiting side parked, and its partner's answer then waits for a wake-up (tens of µs here); the row notes
 * how often that happened on either side.
 */
abstract class OneWayCase extends BenchCase
{
    OneWayCase(final String metric, final String baselineName)
    {
        this(metric, baselineName, "<= 3");
    }

    OneWayCase(final String metric, final String baselineName, final String target)
    {
        super(metric, "ns", baselineName, target);
    }

    @Override
    public final double figure(final double sampleNs)
    {
        return sampleNs / 2;
    }

    @Override
    public final long slowSampleNs()
    {
        return SpinParkIdle.spinNs();
    }

    @Override
    public final String slowSampleMeaning()
    {
        return "round trips longer than the spin phase: a waiter parked";
    }
}
