package org.viadsm.dsm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

import org.agrona.CloseHelper;
import org.agrona.collections.Int2ObjectHashMap;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.via.Nic;
import org.viadsm.via.ViaException;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.memory.MemoryRegion;

/**
 * A node of a viadsm cluster: shared arrays, locks, barriers and semaphores under home-based lazy release
 * consistency, over an emulated VIA NIC.
 * <pre>{@code
 * try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment()))
 * {
 *     SharedDoubleArray a = dsm.allocDoubles("a", 1 << 20);     // every node, same order
 *     for (int i = dsm.nodeId(); i < a.length(); i += dsm.nodeCount())
 *     {
 *         a.set(i, i);
 *     }
 *     dsm.barrier();                                             // now every node sees every write
 * }
 * }</pre>
 * Every page of a shared array has a home node whose copy is the master. A read of a page that is not valid here
 * fetches it from its home (RDMA Read). The first write to a page in an interval makes a twin; at the next release
 * (unlock, barrier, semaphore post) the changed runs go home (RDMA Write). At an acquire (lock, barrier exit,
 * semaphore wait) the node invalidates the pages other nodes wrote, as their write notices say.
 * <p>
 * Memory consistency effects: actions on a node prior to releasing a {@link DsmLock} happen-before actions on any
 * node after a subsequent acquire of that lock; actions of every node before a {@link #barrier()} happen-before the
 * actions of every node after it; actions prior to a {@link DsmSemaphore#release()} happen-before actions after
 * an acquire that takes its permits. Data-race-free programs see sequential consistency.
 * <p>
 * Allocation, {@link #free(SharedArray)}, {@link #barrier()} and {@link #close()} are collective: every node calls
 * them, in the same order.
 * Closing waits for every other node to close (or fail), so that no node frees memory another still reads.
 * <p>
 * <b>Note:</b> a node, its arrays and locks are used by one thread at a time. A second thread that enters the
 * protocol (a fault, a synchronization) while another is inside it is detected and gets an
 * {@link IllegalStateException}, but concurrent accesses to valid pages are not checked.
 */
public final class Dsm implements AutoCloseable
{
    /** Operations between two looks for lost peers by a node that does not call its NIC otherwise, minus one. */
    private static final int PROBE_PERIOD_MASK = 15;
    /** The rendezvous topic under which nodes publish their NIC addresses. */
    private static final String ADDRESSES_TOPIC = "addresses";

    private final DsmContext context;
    private final int nodeId;
    private final ViaProtocolPort port;
    private final HlrcNode node;
    private final Counters counters;
    private final Int2ObjectHashMap<DsmLock> locks = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<DsmSemaphore> semaphores = new Int2ObjectHashMap<>();
    private final DsmBarrier barrier;
    private final Allocations allocations;
    private long statsStartNs;
    private long closingNs;
    private int enters;
    private boolean stopAnnounced;
    private Thread active;
    private boolean closed;

    private Dsm(final DsmContext context, final ViaProtocolPort port, final HlrcNode node,
        final Counters counters)
    {
        this.context = context;
        this.nodeId = context.nodeId();
        this.port = port;
        this.node = node;
        this.counters = counters;
        this.barrier = new DsmBarrier(this);
        this.allocations = new Allocations(this, node, port, context.protocol().pageSize());
    }

    /**
     * Joins a cluster: opens this node's NIC, connects to every other node and returns once all have joined.
     *
     * @param context this node's id, every node's address, the protocol's sizes and the NIC's settings; concluded
     *                here and kept by the node, so it can no longer change.
     * @return the node.
     * @throws IllegalArgumentException if the context is invalid.
     * @throws DsmException             if a node cannot be reached in time or is configured differently.
     */
    public static Dsm join(final DsmContext context)
    {
        AgronaAccess.check();
        context.conclude();
        final Nic nic;
        try
        {
            nic = Nic.open(context.localAddress(), context.nicContext());
        }
        catch (final ViaException ex)
        {
            throw new DsmException(context.nodeId(), "cannot open NIC " + context.localAddress() + ": " +
                ex.getMessage(), ex);
        }
        final Rendezvous rendezvous = context.rendezvous();
        try
        {
            if (null != rendezvous)
            {
                context.joinedAddresses(
                    rendezvous.allGather(ADDRESSES_TOPIC, nic.address(), context.connectTimeoutNs()));
            }
            final Counters counters = new Counters();
            final ViaProtocolPort port = new ViaProtocolPort(nic, context.nodeId(), context.nodeCount(), counters);
            final ByteBuffer control = nic.allocateMemory(HlrcNode.controlRegionLength(context.protocol()));
            final MemoryRegion controlRegion = port.addRegion(HlrcNode.CONTROL_REGION, control);
            ClusterConnector.connect(port, context, controlRegion.handle());
            final HlrcNode node = new HlrcNode(port, context.protocol(), counters, context.syncTimeoutNs());
            final Dsm dsm = new Dsm(context, port, node, counters);
            dsm.collective("joining");
            dsm.resetStats();
            return dsm;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(nic);
            if (ex instanceof DsmException || ex instanceof IllegalArgumentException)
            {
                throw ex;
            }
            throw new DsmException(context.nodeId(), "cannot join the cluster: " + ex.getMessage(), ex);
        }
        finally
        {
            if (null != rendezvous)
            {
                // every node that passed the joining barrier has read every address; one that failed needs none
                rendezvous.retract(ADDRESSES_TOPIC);
            }
        }
    }

    /**
     * This node's id.
     *
     * @return from 0 to {@link #nodeCount()} - 1.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * The settings the node joined with.
     *
     * @return the concluded, immutable context.
     */
    public DsmContext context()
    {
        return context;
    }

    /**
     * Number of nodes in the cluster.
     *
     * @return the node count.
     */
    public int nodeCount()
    {
        return context.nodeCount();
    }

    /**
     * The coherence unit.
     *
     * @return bytes per page.
     */
    public int pageSize()
    {
        return context.protocol().pageSize();
    }

    /**
     * Collectively allocates a shared array of doubles with block placement; see
     * {@link #allocDoubles(String, int, Placement)}.
     *
     * @param name   the array's name, the same on every node.
     * @param length number of elements.
     * @return this node's handle to the array.
     */
    public SharedDoubleArray allocDoubles(final String name, final int length)
    {
        return allocDoubles(name, length, Placement.block());
    }

    /**
     * Collectively allocates a shared array of doubles, zero-filled. Every node calls this in the same order with
     * the same arguments and gets the same array; arrays start on page boundaries.
     *
     * @param name      the array's name, the same on every node.
     * @param length    number of elements.
     * @param placement how pages get homes.
     * @return this node's handle to the array.
     * @throws IllegalArgumentException if the name is empty or too long, the length negative or too large.
     * @throws DsmException             on every node if any node allocated differently (name, type, length,
     *                                  placement or order), naming the node that disagreed.
     */
    public SharedDoubleArray allocDoubles(final String name, final int length, final Placement placement)
    {
        return new SharedDoubleArray(allocations.allocate(ElementType.DOUBLE, name, length, placement).faults(), 0,
            length);
    }

    /**
     * Collectively allocates a shared array of longs with block placement.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return this node's handle to the array.
     */
    public SharedLongArray allocLongs(final String name, final int length)
    {
        return allocLongs(name, length, Placement.block());
    }

    /**
     * Collectively allocates a shared array of longs; see {@link #allocDoubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement how pages get homes.
     * @return this node's handle to the array.
     */
    public SharedLongArray allocLongs(final String name, final int length, final Placement placement)
    {
        return new SharedLongArray(allocations.allocate(ElementType.LONG, name, length, placement).faults(), 0,
            length);
    }

    /**
     * Collectively allocates a shared long updated atomically, homed at node 0; see
     * {@link #allocAtomicLong(String, Placement)}.
     *
     * @param name the long's name, the same on every node.
     * @return this node's handle to it.
     */
    public DsmAtomicLong allocAtomicLong(final String name)
    {
        return allocAtomicLong(name, Placement.onNode(0));
    }

    /**
     * Collectively allocates a shared long updated atomically, zero at first: a one-element long array (the same
     * name space, agreement and order as {@link #allocLongs(String, int, Placement)}) behind an
     * {@link java.util.concurrent.atomic.AtomicLong}-like handle.
     *
     * @param name      the long's name, the same on every node.
     * @param placement where its home is.
     * @return this node's handle to it.
     */
    public DsmAtomicLong allocAtomicLong(final String name, final Placement placement)
    {
        return new DsmAtomicLong(allocLongs(name, 1, placement));
    }

    /**
     * Collectively allocates a shared array of ints with block placement.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return this node's handle to the array.
     */
    public SharedIntArray allocInts(final String name, final int length)
    {
        return allocInts(name, length, Placement.block());
    }

    /**
     * Collectively allocates a shared array of ints; see {@link #allocDoubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement how pages get homes.
     * @return this node's handle to the array.
     */
    public SharedIntArray allocInts(final String name, final int length, final Placement placement)
    {
        return new SharedIntArray(allocations.allocate(ElementType.INT, name, length, placement).faults(), 0,
            length);
    }

    /**
     * Collectively allocates a shared array of floats with block placement.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return this node's handle to the array.
     */
    public SharedFloatArray allocFloats(final String name, final int length)
    {
        return allocFloats(name, length, Placement.block());
    }

    /**
     * Collectively allocates a shared array of floats; see {@link #allocDoubles(String, int, Placement)}.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement how pages get homes.
     * @return this node's handle to the array.
     */
    public SharedFloatArray allocFloats(final String name, final int length, final Placement placement)
    {
        return new SharedFloatArray(allocations.allocate(ElementType.FLOAT, name, length, placement).faults(), 0,
            length);
    }

    /**
     * Collectively allocates a shared array of bytes with block placement.
     *
     * @param name   the array's name.
     * @param length number of elements.
     * @return this node's handle to the array.
     */
    public SharedByteArray allocBytes(final String name, final int length)
    {
        return allocBytes(name, length, Placement.block());
    }

    /**
     * Collectively allocates a shared array of bytes; see {@link #allocDoubles(String, int, Placement)}. Nodes may
     * write different bytes of one page, even of one word, concurrently: diffs are byte-granular for byte arrays.
     *
     * @param name      the array's name.
     * @param length    number of elements.
     * @param placement how pages get homes.
     * @return this node's handle to the array.
     */
    public SharedByteArray allocBytes(final String name, final int length, final Placement placement)
    {
        return new SharedByteArray(allocations.allocate(ElementType.BYTE, name, length, placement).faults(), 0,
            length);
    }

    /**
     * Collectively frees a shared array: every node calls this for the same array, in the same order relative to
     * its other allocations and frees. It is a barrier as well (every write to any array before it happens-before
     * every access after it, on every node), after which every node deregisters the array's memory from its NIC
     * and releases it (removing its shared-memory file), and the name may be allocated again. Any access through
     * the array, its sub-arrays or its views afterwards throws {@link IllegalStateException}, touching nothing.
     *
     * @param array any handle of the array, e.g. a sub-array of it.
     * @throws IllegalStateException    if the array was freed already.
     * @throws IllegalArgumentException if the array belongs to another node.
     * @throws DsmException             on every node if any node freed differently (another array, or allocated
     *                                  instead), naming the node that disagreed; or if a node fails meanwhile.
     */
    public void free(final SharedArray array)
    {
        allocations.free(switch (Objects.requireNonNull(array, "array"))
        {
            case SharedDoubleArray a -> a.faults();
            case SharedLongArray a -> a.faults();
            case SharedIntArray a -> a.faults();
            case SharedFloatArray a -> a.faults();
            case SharedByteArray a -> a.faults();
        });
    }

    /**
     * Opens a scope whose {@link AllocationScope#close()} frees every array this node allocates while it is open;
     * opening is local, closing is collective.
     *
     * @return the scope.
     */
    public AllocationScope allocationScope()
    {
        return new AllocationScope(allocations, allocations.mark());
    }

    /**
     * The cluster-wide lock {@code id}; every call with the same id returns the same object.
     *
     * @param id from 0 to the configured number of locks - 1.
     * @return the lock.
     * @throws IllegalArgumentException if the id is out of range.
     */
    public DsmLock lock(final int id)
    {
        if (id < 0 || id >= context.protocol().maxLocks())
        {
            throw new IllegalArgumentException(
                "lock id must be in [0, " + context.protocol().maxLocks() + "): " + id);
        }
        DsmLock lock = locks.get(id);
        if (null == lock)
        {
            lock = new DsmLock(this, id);
            locks.put(id, lock);
        }
        return lock;
    }

    /**
     * Waits until every node has called it: closes this node's interval, exchanges write notices, and
     * invalidates what others wrote. The short form of {@link #clusterBarrier()}'s {@link DsmBarrier#await()}: an
     * interrupt does not end the wait (it is still set after it), and a broken barrier throws.
     *
     * @throws DsmException if the barrier is broken, or a node fails or leaves the cluster meanwhile.
     */
    public void barrier()
    {
        enter();
        try
        {
            node.barrier();
        }
        catch (final ProtocolException ex)
        {
            throw failure("barrier", ex);
        }
        finally
        {
            exit();
        }
    }

    /**
     * The cluster's barrier as an object, with {@link java.util.concurrent.CyclicBarrier}'s waits: the arrival index,
     * timed and interruptible forms, breaking.
     *
     * @return this node's handle to the barrier.
     */
    public DsmBarrier clusterBarrier()
    {
        return barrier;
    }

    /**
     * The cluster-wide semaphore {@code id}; every call with the same id returns the same object.
     *
     * @param id from 0 to the configured number of semaphores - 1.
     * @return the semaphore.
     * @throws IllegalArgumentException if the id is out of range.
     */
    public DsmSemaphore semaphore(final int id)
    {
        if (id < 0 || id >= context.protocol().maxSemaphores())
        {
            throw new IllegalArgumentException(
                "semaphore id must be in [0, " + context.protocol().maxSemaphores() + "): " + id);
        }
        DsmSemaphore semaphore = semaphores.get(id);
        if (null == semaphore)
        {
            semaphore = new DsmSemaphore(this, id);
            semaphores.put(id, semaphore);
        }
        return semaphore;
    }

    /**
     * Adds a permit to cluster-wide semaphore {@code id} (SPLASH's {@code SETPAUSE}), releasing this node's writes:
     * the short form of {@code semaphore(id).release()}.
     *
     * @param id from 0 to the configured number of semaphores - 1.
     */
    public void semaphorePost(final int id)
    {
        semaphore(id).release();
    }

    /**
     * Takes a permit from cluster-wide semaphore {@code id} (SPLASH's {@code WAITPAUSE}), waiting for one, and
     * acquires the releasers' writes: the short form of {@code semaphore(id).acquireUninterruptibly()}.
     *
     * @param id from 0 to the configured number of semaphores - 1.
     */
    public void semaphoreWait(final int id)
    {
        semaphore(id).acquireUninterruptibly();
    }

    /**
     * A snapshot of this node's statistics: its counts, the pages it is home of, and where its time went since it
     * joined or last reset them.
     *
     * @return the statistics.
     */
    public DsmStats stats()
    {
        final long endNs = closed ? closingNs : System.nanoTime();
        return DsmStats.of(nodeId, counters.snapshot(), endNs - statsStartNs, homes());
    }

    /**
     * Sets this node's statistics to zero, e.g. after initialisation; times count from now.
     */
    public void resetStats()
    {
        counters.reset();
        statsStartNs = System.nanoTime();
    }

    /**
     * Whether this node is closed.
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Leaves the cluster: tells every node, waits for every other node to leave (or fail), then frees this node's
     * memory and shared-memory files. Idempotent. Arrays of a closed node throw {@link IllegalStateException}.
     * Locks still held (say, after an exception in a critical section) are abandoned: nodes waiting for them fail
     * with a {@link DsmException} naming this node, rather than wait forever.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closingNs = System.nanoTime();
        try
        {
            // A cluster that lost a node has stopped: nobody will read this node's memory any more.
            node.leave(port.lostNode() >= 0 ? 0 : context.leaveTimeoutNs());
        }
        finally
        {
            writeStats();
            closed = true;
            for (final PageTable table : node.space().tables())
            {
                table.invalidateAll();
            }
            CloseHelper.closeAll(node, port::close);
        }
    }

    private long homes()
    {
        long homes = 0;
        for (final PageTable table : node.space().tables())
        {
            for (int page = 0; page < table.pages(); page++)
            {
                if (table.homes().home(page) == nodeId)
                {
                    homes++;
                }
            }
        }
        return homes;
    }

    private void writeStats()
    {
        final Path file = context.statsFile();
        if (null != file)
        {
            try
            {
                Files.writeString(file, stats().toJson() + System.lineSeparator(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                System.err.println("node " + nodeId + ": cannot write statistics to " + file + ": " + ex);
            }
        }
    }

    HlrcNode node()
    {
        return node;
    }

    DsmCondition newCondition(final int lockId)
    {
        return new DsmCondition(this, lockId, allocations.condition(lockId, context.protocol().maxLocks()));
    }

    /**
     * Enters the protocol: fails if the node is closed, in use by another thread, or has lost a node (a cluster
     * that lost a node has stopped, whatever this operation touches); now and then lets the NIC look for lost
     * peers, for a node whose operations stay local.
     */
    void enter()
    {
        if (closed)
        {
            throw new IllegalStateException("node " + nodeId + " is closed");
        }
        final Thread current = Thread.currentThread();
        if (null != active && active != current)
        {
            throw new IllegalStateException("node " + nodeId + " is in use by thread '" + active.getName() +
                "'; a node is used by one thread at a time");
        }
        if (0 == (++enters & PROBE_PERIOD_MASK))
        {
            port.probe();
        }
        if (port.lostNode() >= 0)
        {
            throw lost(null, null);
        }
        active = current;
    }

    void exit()
    {
        active = null;
    }

    /**
     * The exception for a failed operation: a {@link NodeLostException} if this node has lost a node by now (the
     * failure is then a consequence of the loss), else a {@link DsmException} with the protocol's message. The NIC's
     * queued asynchronous errors are taken in first: a loss the NIC has seen but not yet reported is the cause.
     */
    DsmException failure(final String activity, final ProtocolException ex)
    {
        port.probe();
        if (port.lostNode() >= 0)
        {
            return lost(activity, ex);
        }
        final String message = ex.getMessage();
        final String prefix = "node " + nodeId + ": ";
        return new DsmException(nodeId, activity + ": " +
            (message.startsWith(prefix) ? message.substring(prefix.length()) : message), ex);
    }

    private NodeLostException lost(final String activity, final ProtocolException ex)
    {
        final int lostNode = port.lostNode();
        if (!stopAnnounced)
        {
            stopAnnounced = true;
            port.announceStop();
        }
        final String what = lostNode == nodeId ? port.lostReason() :
            "node " + lostNode + " was lost (" + port.lostReason() + ")";
        return new NodeLostException(nodeId, lostNode, (null == activity ? "" : activity + ": ") + what +
            "; the cluster has stopped", ex);
    }

    private void collective(final String activity)
    {
        enter();
        try
        {
            node.syncBarrier();
        }
        catch (final ProtocolException ex)
        {
            throw failure(activity, ex);
        }
        finally
        {
            exit();
        }
    }
}
