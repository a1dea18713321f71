package org.viadsm.dsm;

import java.util.concurrent.TimeUnit;

/**
 * A node run as a separate process by {@link DsmProcessesTest}: a lock-protected counter and a barrier exchange;
 * with the argument {@code hang}, the last node stops in the middle to be killed; with {@code cached-hang FILE}, it
 * stops right after releasing lock 0 (which stays cached there), and the others ask for the lock once FILE exists;
 * with {@code condition-hang}, the others wait on a condition of lock 1 that the last node, which stops, would
 * signal;
 * with {@code spin}, the last node stops while the others poll a flag under lock 1, so that nothing they do needs
 * the last node.
 */
public final class NodeProgram
{
    private NodeProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final DsmContext context = DsmContext.fromEnvironment();
        context.timeouts().leaveNs(TimeUnit.SECONDS.toNanos(20));
        try (Dsm dsm = Dsm.join(context))
        {
            final SharedLongArray counter = dsm.allocLongs("counter", 1);
            final SharedIntArray ids = dsm.allocInts("ids", dsm.nodeCount());
            ids.set(dsm.nodeId(), 100 + dsm.nodeId());
            for (int i = 0; i < 500; i++)
            {
                dsm.lock(0).lock();
                counter.set(0, counter.get(0) + 1);
                dsm.lock(0).unlock();
            }
            final boolean last = dsm.nodeId() == dsm.nodeCount() - 1;
            final String mode = args.length > 0 ? args[0] : "";
            if ("spin".equals(mode))
            {
                dsm.barrier();
                spin(dsm, counter);
            }
            if (("hang".equals(mode) || "spin".equals(mode)) && last)
            {
                hang(dsm);
            }
            if (args.length > 0 && "condition-hang".equals(args[0]))
            {
                final DsmCondition condition = dsm.lock(1).newCondition();
                if (last)
                {
                    hang(dsm);
                }
                dsm.lock(1).lock();
                condition.await();
            }
            if (args.length > 1 && "cached-hang".equals(args[0]))
            {
                dsm.barrier();
                if (last)
                {
                    dsm.lock(0).lock();
                    dsm.lock(0).unlock();
                }
                dsm.barrier();
                if (last)
                {
                    hang(dsm);
                }
                final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!java.nio.file.Files.exists(java.nio.file.Path.of(args[1])) &&
                    System.nanoTime() - deadlineNs < 0)
                {
                    Thread.sleep(10);
                }
                dsm.lock(0).lock();
                dsm.lock(0).unlock();
            }
            dsm.barrier();
            long sum = 0;
            for (int node = 0; node < dsm.nodeCount(); node++)
            {
                sum += ids.get(node);
            }
            System.out.println("node " + dsm.nodeId() + " counter " + counter.get(0) + " ids " + sum);
        }
    }

    private static void hang(final Dsm dsm) throws InterruptedException
    {
        System.err.println("node " + dsm.nodeId() + " hangs");
        Thread.sleep(TimeUnit.MINUTES.toMillis(10));
    }

    /** BARNES's wait for a flag: lock, test, unlock, back off; the flag is never set. */
    private static void spin(final Dsm dsm, final SharedLongArray counter) throws InterruptedException
    {
        if (dsm.nodeId() == dsm.nodeCount() - 1)
        {
            return;
        }
        System.err.println("node " + dsm.nodeId() + " spins");
        while (true)
        {
            dsm.lock(1).lock();
            final boolean done = counter.get(0) < 0;
            dsm.lock(1).unlock();
            if (done)
            {
                return;
            }
            Thread.sleep(0, 200_000);
        }
    }
}
