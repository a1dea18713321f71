package org.viadsm.examples.hosts;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.SharedLongArray;

/**
 * A node that increments a counter under a lock and passes a barrier, over and over, until the cluster fails; it
 * says on standard error when it got going: after ten rounds and {@link #SETTLE_NS} since it joined, so that every
 * link has carried its first heartbeats (a ucx link is watched only once one arrived; the first goes within a
 * fifth of a heartbeat interval).
 */
public final class Looper
{
    /** How long a node runs before it says it got going. */
    static final long SETTLE_NS = 2_000_000_000L;

    private Looper()
    {
    }

    public static void main(final String[] args)
    {
        try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment()))
        {
            final long joinedNs = System.nanoTime();
            boolean said = false;
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
                if (!said && i >= 10 && System.nanoTime() - joinedNs >= SETTLE_NS)
                {
                    said = true;
                    System.err.println("node " + dsm.nodeId() + " looping");
                }
            }
        }
    }
}
