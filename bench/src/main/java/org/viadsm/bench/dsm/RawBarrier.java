package org.viadsm.bench.dsm;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.via.SpinParkIdle;

/**
 * The barrier baseline: a sense-reversing counter barrier on two words of memory every node process maps. The
 * last to arrive resets the count and flips the sense; the others wait for the flip as the DSM's waits do (spin
 * about 20 us, then park with backoff).
 * <p>
 * <b>Note:</b> one per node process, used by one thread.
 */
final class RawBarrier
{
    private final UnsafeBuffer buffer;
    private final int nodes;
    private final SpinParkIdle idle = new SpinParkIdle("raw barrier");
    private long sense;

    RawBarrier(final UnsafeBuffer buffer, final int nodes)
    {
        this.buffer = buffer;
        this.nodes = nodes;
    }

    void await()
    {
        sense = 1 - sense;
        if (nodes - 1 == buffer.getAndAddLong(RawShared.BARRIER_COUNT_OFFSET, 1))
        {
            buffer.putLongVolatile(RawShared.BARRIER_COUNT_OFFSET, 0);
            buffer.putLongRelease(RawShared.BARRIER_SENSE_OFFSET, sense);
            return;
        }
        idle.reset();
        while (buffer.getLongVolatile(RawShared.BARRIER_SENSE_OFFSET) != sense)
        {
            idle.idle();
        }
    }
}
