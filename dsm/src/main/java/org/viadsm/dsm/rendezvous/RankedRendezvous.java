package org.viadsm.dsm.rendezvous;

import java.util.ArrayList;
import java.util.List;

import org.viadsm.dsm.wire.WireCodec;

/**
 * What every rendezvous of a job knows: this rank, the job's size, and the codec of its entries.
 * <p>
 * <b>Note:</b> one thread per instance, as the codec is.
 */
abstract class RankedRendezvous implements Rendezvous
{
    final int rank;
    final int size;
    final WireCodec codec = RendezvousEntry.codec();

    RankedRendezvous(final int rank, final int size)
    {
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank " + rank + " is not in [0, " + size + ")");
        }
        this.rank = rank;
        this.size = size;
    }

    @Override
    public final int rank()
    {
        return rank;
    }

    @Override
    public final int size()
    {
        return size;
    }

    /**
     * The ranks whose values did not come.
     *
     * @param values every rank's value, null where none came.
     * @return their ranks, in order; empty if every rank's came.
     */
    static List<Integer> missing(final List<String> values)
    {
        final List<Integer> missing = new ArrayList<>();
        for (int other = 0; other < values.size(); other++)
        {
            if (null == values.get(other))
            {
                missing.add(other);
            }
        }
        return missing;
    }
}
