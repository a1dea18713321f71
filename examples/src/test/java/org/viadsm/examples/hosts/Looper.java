package org.viadsm.examples.hosts;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.SharedLongArray;

/**
 * A node that increments a counter under a lock and passes a barrier, over and over, until the cluster fails; it
 * says on standard error when it got going.
 */
public final class Looper
{
    private Looper()
    {
    }

    public static void main(final String[] args)
    {
        try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment()))
        {
            final SharedLongArray counter = dsm.allocLongs("counter", 1);
            for (long i = 0; ; i++)
            {
                dsm.lock(0).lock();
                try
                {
                    counter.set(0, counter.get(0) + 1);
                }
                finally
                {
                    dsm.lock(0).unlock();
                }
                dsm.barrier();
                if (10 == i)
                {
                    System.err.println("node " + dsm.nodeId() + " looping");
                }
            }
        }
    }
}
