package org.viadsm.testsupport.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolConfig;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * N protocol nodes ({@link HlrcNode}) in one JVM over plain memory, for tests of the protocol without a NIC: the
 * in-memory port ArgoDSM's single-node backend stands for. Each node runs {@link #run(NodeBody)}'s body on a thread
 * of its own; one-sided operations touch the target node's buffers directly, and a notification is queued at its
 * target, which polls or waits for it as over a NIC.
 * <p>
 * The knobs a test turns:
 * <ul>
 * <li>{@link #deferWrites(boolean)}: RDMA Writes (and notifications) land late, as on a real NIC: only at the
 * issuer's next flush, poll or wait, or just before a later read or atomic to the same node, which keeps the port's
 * promise that operations to one node take effect in the order they are issued;</li>
 * <li>{@link #notifyHook(NotifyHook)}: called before every notification is sent, e.g. to delay one;</li>
 * <li>{@link #counters(int)}: each node's protocol counters, exact counts of its reads, writes, atomics, faults and
 * synchronizations for assertions.</li>
 * </ul>
 * A body that throws fails every port, so the other nodes' waits end with a peer failure instead of hanging; the
 * first failure is rethrown by {@link #run(NodeBody)} naming its node. The knobs are volatile: a test sets them
 * before {@link #run(NodeBody)} or from a node's thread while it runs.
 */
public final class InMemoryCluster
{
    private final int nodeCount;
    private final ProtocolConfig config;
    private final InMemoryPort[] ports;
    private final HlrcNode[] nodes;
    private final Counters[] counters;
    private volatile boolean deferWrites;
    private volatile NotifyHook notifyHook;
    private int nextRegion = 1;

    /**
     * Makes the nodes, each with its control region, a sync timeout of 30 s, and counters of its own.
     *
     * @param config the protocol settings; concluded here, so its node count is the cluster's.
     */
    public InMemoryCluster(final ProtocolConfig config)
    {
        this.config = config.conclude();
        this.nodeCount = config.nodeCount();
        this.ports = new InMemoryPort[nodeCount];
        this.nodes = new HlrcNode[nodeCount];
        this.counters = new Counters[nodeCount];
        for (int i = 0; i < nodeCount; i++)
        {
            counters[i] = new Counters();
            ports[i] = new InMemoryPort(this, i, counters[i]);
            ports[i].addRegion(HlrcNode.CONTROL_REGION, HlrcNode.controlRegionLength(config));
        }
        for (int i = 0; i < nodeCount; i++)
        {
            nodes[i] = new HlrcNode(ports[i], config, counters[i], TimeUnit.SECONDS.toNanos(30));
        }
    }

    /**
     * A cluster with the default protocol settings and pages of 512 bytes, small so a test spans pages cheaply.
     *
     * @param nodeCount how many nodes.
     * @return the cluster.
     */
    public static InMemoryCluster of(final int nodeCount)
    {
        return new InMemoryCluster(new ProtocolConfig().nodeCount(nodeCount).pageSize(512));
    }

    /**
     * Whether RDMA Writes and notifications land late (see the class comment); off at first.
     *
     * @param defer true to defer them until the issuer's next flush, poll, wait, read or atomic to the same node.
     * @return this cluster.
     */
    public InMemoryCluster deferWrites(final boolean defer)
    {
        this.deferWrites = defer;
        return this;
    }

    /**
     * Sets what runs before every notification is sent (null for nothing).
     *
     * @param hook called on the sending node's thread with sender, target and notification.
     * @return this cluster.
     */
    public InMemoryCluster notifyHook(final NotifyHook hook)
    {
        this.notifyHook = hook;
        return this;
    }

    /**
     * The number of nodes.
     *
     * @return the node count of the protocol settings.
     */
    public int nodeCount()
    {
        return nodeCount;
    }

    /**
     * The protocol settings every node runs with.
     *
     * @return the concluded settings.
     */
    public ProtocolConfig config()
    {
        return config;
    }

    /**
     * A node, e.g. to check its state after {@link #run(NodeBody)}.
     *
     * @param nodeId the node.
     * @return its protocol node.
     */
    public HlrcNode node(final int nodeId)
    {
        return nodes[nodeId];
    }

    /**
     * A node's protocol counters.
     *
     * @param nodeId the node.
     * @return its counters, counting from the cluster's creation.
     */
    public Counters counters(final int nodeId)
    {
        return counters[nodeId];
    }

    /**
     * A node's port, e.g. to read a word of its control region as another node would see it.
     *
     * @param nodeId the node.
     * @return its port.
     */
    public ProtocolPort port(final int nodeId)
    {
        return ports[nodeId];
    }

    /**
     * The round trips a node has waited for: each read, atomic and {@code awaitReads()} that had started operations
     * to wait for (writes and notifications are not waited for one by one).
     *
     * @param nodeId the node.
     * @return its count, from the cluster's creation.
     */
    public long roundTrips(final int nodeId)
    {
        return ports[nodeId].roundTrips();
    }

    boolean defersWrites()
    {
        return deferWrites;
    }

    NotifyHook hook()
    {
        return notifyHook;
    }

    InMemoryPort portOf(final int nodeId)
    {
        return ports[nodeId];
    }

    /**
     * Allocates a long array on every node, as the dsm's collective allocation would: a region of its own on each
     * node and one page table per node.
     *
     * @param name   the array's name, for messages.
     * @param length its number of elements.
     * @param homes  how its pages get homes.
     * @return the array as every node sees it.
     */
    public LongArray longs(final String name, final int length, final Homes homes)
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

    /**
     * Runs the body on every node, each on a thread of its own, and returns when all have returned.
     *
     * @param body what each node does.
     * @throws AssertionError naming the node, for the first body that threw (its {@link Error} as it is).
     */
    public void run(final NodeBody body)
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
                    for (final InMemoryPort port : ports)
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

    /** What a node does in {@link #run(NodeBody)}. */
    @FunctionalInterface
    public interface NodeBody
    {
        /**
         * Runs on the node's own thread.
         *
         * @param nodeId the node.
         * @param node   its protocol node.
         * @throws Exception to fail the run, naming the node.
         */
        void run(int nodeId, HlrcNode node) throws Exception;
    }

    /** Runs before a notification is sent. */
    @FunctionalInterface
    public interface NotifyHook
    {
        /**
         * Called on the sender's thread before the notification's write is issued.
         *
         * @param from         the sending node.
         * @param to           the target node.
         * @param notification the notification's value.
         * @throws InterruptedException if a delay is cut short; the notification is sent anyway.
         */
        void beforeNotify(int from, int to, int notification) throws InterruptedException;
    }

    /**
     * A shared long array seen through each node's page table, with the access checks of a shared array: an access
     * to a page in too weak a state faults it in through the node first.
     */
    public static final class LongArray
    {
        private final PageTable[] tables;
        private final int length;
        private final int perPage;

        LongArray(final PageTable[] tables, final int length)
        {
            this.tables = tables;
            this.length = length;
            this.perPage = tables[0].pageSize() / Long.BYTES;
        }

        /**
         * Reads an element as the node sees it, read-faulting its page first if the node holds no valid copy.
         *
         * @param node  the reading node, on its own thread.
         * @param index the element.
         * @return its value.
         */
        public long get(final HlrcNode node, final int index)
        {
            final PageTable table = tables[node.nodeId()];
            final int page = index / perPage;
            if (table.states()[page] < PageState.READ_ONLY)
            {
                node.readFault(table, page);
            }
            return table.memory().getLong(index * Long.BYTES);
        }

        /**
         * Writes an element at the node, write-faulting its page first if the node may not write it yet.
         *
         * @param node  the writing node, on its own thread.
         * @param index the element.
         * @param value its new value.
         */
        public void set(final HlrcNode node, final int index, final long value)
        {
            final PageTable table = tables[node.nodeId()];
            final int page = index / perPage;
            if (table.states()[page] != PageState.READ_WRITE)
            {
                node.writeFault(table, page);
            }
            table.memory().putLong(index * Long.BYTES, value);
        }

        /**
         * A node's page table of the array.
         *
         * @param nodeId the node.
         * @return its table: page states, memory, homes.
         */
        public PageTable table(final int nodeId)
        {
            return tables[nodeId];
        }

        /**
         * The array's length.
         *
         * @return its number of elements.
         */
        public int length()
        {
            return length;
        }
    }
}
