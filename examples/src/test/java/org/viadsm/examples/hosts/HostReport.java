package org.viadsm.examples.hosts;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.SharedLongArray;
import org.viadsm.dsm.rendezvous.HostAddress;

/**
 * A node that says which host it runs on, then counts to 100 per node under a lock; node 0 prints the count.
 */
public final class HostReport
{
    private HostReport()
    {
    }

    public static void main(final String[] args)
    {
        try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment()))
        {
            System.out.println("node " + dsm.nodeId() + " of " + dsm.nodeCount() + " at " +
                HostAddress.pick(null, null).getHostAddress());
            final SharedLongArray counter = dsm.allocLongs("counter", 1);
            for (int i = 0; i < 100; i++)
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
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                System.out.println("counter " + counter.get(0));
            }
        }
    }
}
