package org.viadsm.dsm;

/**
 * A node run as a separate process by {@link DsmWarmupTest}: node 0 joins with the warm-up, the last node without
 * it, and stops its process as soon as it has joined, so that it is lost while node 0 warms up.
 */
public final class WarmupLossProgram
{
    private WarmupLossProgram()
    {
    }

    public static void main(final String[] args)
    {
        final DsmContext context = DsmContext.fromEnvironment();
        context.conclude();
        final boolean last = context.nodeId() == context.nodeCount() - 1;
        final DsmContext joining = DsmContext.fromEnvironment().warmup(!last);
        final Dsm dsm = Dsm.join(joining);
        if (last)
        {
            System.err.println("node " + dsm.nodeId() + " joined, stops");
            Runtime.getRuntime().halt(9);
        }
        System.err.println("node " + dsm.nodeId() + " warmed up");
        dsm.close();
    }
}
