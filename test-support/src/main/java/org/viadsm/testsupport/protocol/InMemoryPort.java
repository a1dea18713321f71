package org.viadsm.testsupport.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * One node's port of an {@link InMemoryCluster}: RDMA Reads, Writes and atomics copy between the nodes' direct
 * buffers on the caller's thread; a notification is queued at its target, whose wait it wakes. With the cluster's
 * writes deferred, a Write and a notification are kept per target node, in order, until the issuer flushes, polls or
 * waits, or reads or runs an atomic at that node. A compare-and-swap started without a wait is issued as a write is,
 * and lands at the latest at the issuer's next wait for started operations. The port counts the round trips its node
 * waits for (a read, an atomic, a wait for started operations).
 */
final class InMemoryPort implements ProtocolPort
{
    private final InMemoryCluster cluster;
    private final int nodeId;
    private final int nodeCount;
    private final Counters counters;
    private final Int2ObjectHashMap<AtomicBuffer> regions = new Int2ObjectHashMap<>();
    private final ConcurrentLinkedQueue<long[]> inbox = new ConcurrentLinkedQueue<>();
    private volatile Thread waiter;
    private volatile String failure;
    private final List<List<Runnable>> pending = new ArrayList<>();
    private final AtomicLong roundTrips = new AtomicLong();
    private boolean started;

    InMemoryPort(final InMemoryCluster cluster, final int nodeId, final Counters counters)
    {
        this.cluster = cluster;
        this.nodeId = nodeId;
        this.nodeCount = cluster.nodeCount();
        this.counters = counters;
        for (int i = 0; i < nodeCount; i++)
        {
            pending.add(new ArrayList<>());
        }
    }

    private void issue(final int node, final Runnable operation)
    {
        if (cluster.defersWrites())
        {
            pending.get(node).add(operation);
        }
        else
        {
            operation.run();
        }
    }

    /** Operations on one VI take effect in order: a read or atomic first lets earlier writes land. */
    private void land(final int node)
    {
        final List<Runnable> operations = pending.get(node);
        for (final Runnable operation : operations)
        {
            operation.run();
        }
        operations.clear();
    }

    long roundTrips()
    {
        return roundTrips.get();
    }

    synchronized AtomicBuffer addRegion(final int region, final int length)
    {
        final AtomicBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        regions.put(region, buffer);
        return buffer;
    }

    void failAll(final String reason)
    {
        failure = reason;
        final Thread thread = waiter;
        if (null != thread)
        {
            LockSupport.unpark(thread);
        }
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
    public synchronized AtomicBuffer region(final int region)
    {
        final AtomicBuffer buffer = regions.get(region);
        if (null == buffer)
        {
            throw new IllegalArgumentException("node " + nodeId + " has no region " + region);
        }
        return buffer;
    }

    @Override
    public void read(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        counters.increment(Counter.RDMA_READS);
        counters.add(Counter.RDMA_READ_BYTES, length);
        roundTrips.incrementAndGet();
        land(node);
        region(localRegion).putBytes((int)localOffset, cluster.portOf(node).region(region), (int)offset, length);
    }

    @Override
    public void write(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length)
    {
        counters.increment(Counter.RDMA_WRITES);
        counters.add(Counter.RDMA_WRITE_BYTES, length);
        issue(node, () -> cluster.portOf(node).region(region).putBytes(
            (int)offset, region(localRegion), (int)localOffset, length));
    }

    @Override
    public void writeAndNotify(final int node, final int region, final long offset, final int localRegion,
        final long localOffset, final int length, final int notification)
    {
        final InMemoryCluster.NotifyHook hook = cluster.hook();
        if (null != hook)
        {
            try
            {
                hook.beforeNotify(nodeId, node, notification);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        write(node, region, offset, localRegion, localOffset, length);
        issue(node, () ->
        {
            final InMemoryPort target = cluster.portOf(node);
            target.inbox.add(new long[] {nodeId, notification});
            final Thread thread = target.waiter;
            if (null != thread)
            {
                LockSupport.unpark(thread);
            }
        });
    }

    @Override
    public void flushWrites()
    {
        for (int node = 0; node < nodeCount; node++)
        {
            land(node);
        }
    }

    @Override
    public long compareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update)
    {
        counters.increment(Counter.ATOMICS);
        roundTrips.incrementAndGet();
        land(node);
        final AtomicBuffer target = cluster.portOf(node).region(region);
        while (true)
        {
            final long current = target.getLongVolatile((int)offset);
            if (current != expected)
            {
                return current;
            }
            if (target.compareAndSetLong((int)offset, expected, update))
            {
                return expected;
            }
        }
    }

    @Override
    public long fetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        counters.increment(Counter.ATOMICS);
        roundTrips.incrementAndGet();
        land(node);
        return cluster.portOf(node).region(region).getAndAddLong((int)offset, delta);
    }

    @Override
    public void startCompareAndSwap(final int node, final int region, final long offset, final long expected,
        final long update, final int localRegion, final long localOffset)
    {
        counters.increment(Counter.ATOMICS);
        started = true;
        issue(node, () -> region(localRegion).putLong((int)localOffset,
            swap(cluster.portOf(node).region(region), (int)offset, expected, update)));
    }

    @Override
    public void awaitReads()
    {
        if (started)
        {
            started = false;
            roundTrips.incrementAndGet();
            flushWrites();
        }
    }

    private static long swap(final AtomicBuffer target, final int offset, final long expected, final long update)
    {
        while (true)
        {
            final long current = target.getLongVolatile(offset);
            if (current != expected || target.compareAndSetLong(offset, expected, update))
            {
                return current;
            }
        }
    }

    @Override
    public void postFetchAndAdd(final int node, final int region, final long offset, final long delta)
    {
        counters.increment(Counter.ATOMICS);
        issue(node, () -> cluster.portOf(node).region(region).getAndAddLong((int)offset, delta));
    }

    @Override
    public int pollNotifications(final NotificationHandler handler)
    {
        // The NIC makes progress on its own: while this node waits, what it issued lands.
        flushWrites();
        int count = 0;
        long[] event;
        while (null != (event = inbox.poll()))
        {
            handler.onNotification((int)event[0], (int)event[1]);
            count++;
        }
        final String reason = failure;
        if (null != reason)
        {
            for (int node = 0; node < nodeCount; node++)
            {
                if (node != nodeId)
                {
                    handler.onPeerFailure(node, reason);
                }
            }
            count++;
        }
        return count;
    }

    @Override
    public int awaitNotifications(final long timeoutNs, final NotificationHandler handler)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        waiter = Thread.currentThread();
        try
        {
            while (true)
            {
                final int count = pollNotifications(handler);
                final long leftNs = deadlineNs - System.nanoTime();
                if (count > 0 || leftNs <= 0)
                {
                    return count;
                }
                LockSupport.parkNanos(this, Math.min(leftNs, TimeUnit.MILLISECONDS.toNanos(5)));
            }
        }
        finally
        {
            waiter = null;
        }
    }
}
