package org.viadsm.consistency.port;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A port for unit tests: every operation refuses unless a test overrides it.
 */
public class StubPort implements ProtocolPort
{
    private final int nodeId;
    private final int nodeCount;

    public StubPort(final int nodeId, final int nodeCount)
    {
        this.nodeId = nodeId;
        this.nodeCount = nodeCount;
    }

    @Override
    public int nodeId()
    {
        return nodeId;
    }

    @Override
    public int nodeCount()
    {
        return nodeCount;
    }

    @Override
    public AtomicBuffer region(final int region)
    {
        throw new UnsupportedOperationException("region");
    }

    @Override
    public void read(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        throw new UnsupportedOperationException("read");
    }

    @Override
    public void write(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        throw new UnsupportedOperationException("write");
    }

    @Override
    public void writeAndNotify(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length, final int notification)
    {
        throw new UnsupportedOperationException("writeAndNotify");
    }

    @Override
    public void flushWrites()
    {
    }

    @Override
    public long compareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update)
    {
        throw new UnsupportedOperationException("compareAndSwap");
    }

    @Override
    public long fetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        throw new UnsupportedOperationException("fetchAndAdd");
    }

    @Override
    public int pollNotifications(final NotificationHandler handler)
    {
        return 0;
    }

    @Override
    public int awaitNotifications(final long timeoutNs, final NotificationHandler handler)
    {
        java.util.concurrent.locks.LockSupport.parkNanos(Math.min(timeoutNs, 1_000_000L));
        return 0;
    }
}
