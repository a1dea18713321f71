package org.viadsm.consistency;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * N protocol nodes in one JVM over plain memory: the in-memory port ArgoDSM's single-node backend stands for.
 * Each node runs on its own thread; one-sided operations touch the target node's buffers directly.
 */
final class InMemoryCluster
{
    final int nodeCount;
    final ProtocolConfig config;
    final Port[] ports;
    final HlrcNode[] nodes;
    final Counters[] counters;
    /** When set, writes land only at flushWrites (or before a later read or atomic to the same node). */
    volatile boolean deferWrites;
    /** Called before a notification is sent, e.g. to delay it. */
    volatile NotifyHook notifyHook;
    private int nextRegion = 1;

    InMemoryCluster(final ProtocolConfig config)
    {
        this.config = config.conclude();
        this.nodeCount = config.nodeCount();
        this.ports = new Port[nodeCount];
        this.nodes = new HlrcNode[nodeCount];
        this.counters = new Counters[nodeCount];
        for (int i = 0; i < nodeCount; i++)
        {
            ports[i] = new Port(i);
            ports[i].addRegion(HlrcNode.CONTROL_REGION, HlrcNode.controlRegionLength(config));
        }
        for (int i = 0; i < nodeCount; i++)
        {
            counters[i] = new Counters();
            nodes[i] = new HlrcNode(ports[i], config, counters[i], TimeUnit.SECONDS.toNanos(30));
        }
    }

    static InMemoryCluster of(final int nodeCount)
    {
        return new InMemoryCluster(new ProtocolConfig().nodeCount(nodeCount).pageSize(512));
    }

    /** Allocates a long array on every node, as the dsm's collective allocation would. */
    LongArray longs(final String name, final int length, final Homes homes)
    {
        final int region = nextRegion++;
        final int pageSize = config.pageSize();
        final int pages = (int)(((long)length * Long.BYTES + pageSize - 1) / pageSize);
        final int bytes = (int)HlrcNode.arrayRegionLength(config, pages);
        final PageTable[] tables = new PageTable[nodeCount];
        for (int i = 0; i < nodeCount; i++)
        {
            final AtomicBuffer memory = ports[i].addRegion(region, bytes);
            tables[i] = nodes[i].addArray(name, region, pages, Long.BYTES, homes.policy(pages, nodeCount),
                memory);
        }
        return new LongArray(tables, length);
    }

    /** Runs body on every node, each on its own thread; rethrows the first failure naming the node. */
    void run(final NodeBody body)
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++)
        {
            final int id = i;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    body.run(id, nodes[id]);
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, new AssertionError("node " + id + " failed: " + ex, ex));
                    for (final Port port : ports)
                    {
                        port.failAll("node " + id + " threw " + ex);
                    }
                }
            }, "node-" + i);
            threads.add(thread);
            thread.start();
        }
        for (final Thread thread : threads)
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError(ex);
            }
        }
        if (null != failure.get())
        {
            final Throwable ex = failure.get();
            if (ex instanceof Error)
            {
                throw (Error)ex;
            }
            throw new AssertionError(ex);
        }
    }

    @FunctionalInterface
    interface NodeBody
    {
        void run(int nodeId, HlrcNode node) throws Exception;
    }

    @FunctionalInterface
    interface NotifyHook
    {
        void beforeNotify(int from, int to, int notification) throws InterruptedException;
    }

    /** A shared long array seen through each node's page table, with the access checks of a shared array. */
    static final class LongArray
    {
        final PageTable[] tables;
        final int length;
        final int perPage;

        LongArray(final PageTable[] tables, final int length)
        {
            this.tables = tables;
            this.length = length;
            this.perPage = tables[0].pageSize() / Long.BYTES;
        }

        long get(final HlrcNode node, final int index)
        {
            final PageTable table = tables[node.nodeId()];
            final int page = index / perPage;
            if (table.states()[page] < PageState.READ_ONLY)
            {
                node.readFault(table, page);
            }
            return table.memory().getLong(index * Long.BYTES);
        }

        void set(final HlrcNode node, final int index, final long value)
        {
            final PageTable table = tables[node.nodeId()];
            final int page = index / perPage;
            if (table.states()[page] != PageState.READ_WRITE)
            {
                node.writeFault(table, page);
            }
            table.memory().putLong(index * Long.BYTES, value);
        }

        PageTable table(final int nodeId)
        {
            return tables[nodeId];
        }
    }

    final class Port implements ProtocolPort
    {
        private final int nodeId;
        private final Int2ObjectHashMap<AtomicBuffer> regions = new Int2ObjectHashMap<>();
        private final ConcurrentLinkedQueue<long[]> inbox = new ConcurrentLinkedQueue<>();
        private volatile Thread waiter;
        private volatile String failure;
        private final List<List<Runnable>> pending = new ArrayList<>();

        Port(final int nodeId)
        {
            this.nodeId = nodeId;
            for (int i = 0; i < nodeCount; i++)
            {
                pending.add(new ArrayList<>());
            }
        }

        private void issue(final int node, final Runnable operation)
        {
            if (deferWrites)
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
            counters[nodeId].increment(Counter.RDMA_READS);
            counters[nodeId].add(Counter.RDMA_READ_BYTES, length);
            land(node);
            region(localRegion).putBytes((int)localOffset, ports[node].region(region), (int)offset, length);
        }

        @Override
        public void write(final int node, final int region, final long offset, final int localRegion,
            final long localOffset, final int length)
        {
            counters[nodeId].increment(Counter.RDMA_WRITES);
            counters[nodeId].add(Counter.RDMA_WRITE_BYTES, length);
            issue(node, () -> ports[node].region(region).putBytes(
                (int)offset, region(localRegion), (int)localOffset, length));
        }

        @Override
        public void writeAndNotify(final int node, final int region, final long offset, final int localRegion,
            final long localOffset, final int length, final int notification)
        {
            final NotifyHook hook = notifyHook;
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
                final Port target = ports[node];
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
            counters[nodeId].increment(Counter.ATOMICS);
            land(node);
            final AtomicBuffer target = ports[node].region(region);
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
            counters[nodeId].increment(Counter.ATOMICS);
            land(node);
            return ports[node].region(region).getAndAddLong((int)offset, delta);
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
}
