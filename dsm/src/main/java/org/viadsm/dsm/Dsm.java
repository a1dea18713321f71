package org.viadsm.dsm;

import java.util.Objects;

import org.agrona.CloseHelper;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageTable;

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
    private final DsmContext context;
    private final int nodeId;
    private final ViaProtocolPort port;
    private final HlrcNode node;
    private final NodeGuard guard;
    private final NodeStatistics statistics;
    private final SyncObjects syncObjects;
    private final DsmBarrier barrier;
    private final Allocations allocations;

    Dsm(final DsmContext context, final ViaProtocolPort port, final HlrcNode node, final Counters counters)
    {
        this.context = context;
        this.nodeId = context.nodeId();
        this.port = port;
        this.node = node;
        this.guard = new NodeGuard(nodeId, port.nodeCount(), port);
        this.statistics = new NodeStatistics(nodeId, node.space(), counters);
        this.syncObjects =
            new SyncObjects(this, guard, context.protocol().maxLocks(), context.protocol().maxSemaphores());
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
        return NodeJoin.join(context);
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
        allocations.free(Objects.requireNonNull(array, "array"));
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
        return syncObjects.lock(id);
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
        return syncObjects.semaphore(id);
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
     * joined or last reset them, or, once it began a measured phase, in its measured phases
     * ({@link #beginMeasuredPhase()}).
     *
     * @return the statistics.
     */
    public DsmStats stats()
    {
        return statistics.snapshot();
    }

    /**
     * Sets this node's statistics to zero, e.g. after initialisation; times count from now. Forgets the measured
     * phases.
     */
    public void resetStats()
    {
        statistics.reset();
    }

    /**
     * Begins a measured phase on this node, such as the part of a program it times: from the first measured phase
     * on, {@link #stats()} (and the statistics file {@link #close()} writes) give the sums over the measured phases
     * since the node joined or {@link #resetStats()}, nothing outside them. A phase under way is ended first. Each
     * node marks its own phases; no other node takes part, and nothing is sent.
     */
    public void beginMeasuredPhase()
    {
        statistics.beginPhase();
    }

    /**
     * Ends the measured phase under way on this node, if any: what it counted is added to the sums.
     */
    public void endMeasuredPhase()
    {
        statistics.endPhase();
    }

    /** {@return whether this node is closed: true once {@link #close()} has returned} */
    public boolean isClosed()
    {
        return guard.isClosed();
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
        if (guard.isClosed())
        {
            return;
        }
        final long closingNs = System.nanoTime();
        try
        {
            // A cluster that lost a node has stopped: nobody will read this node's memory any more.
            node.leave(port.lostNode() >= 0 ? 0 : context.timeouts().leaveNs());
        }
        finally
        {
            statistics.write(context.statsFile());
            statistics.stop(closingNs);
            guard.close();
            for (final PageTable table : node.space().tables())
            {
                table.invalidateAll();
            }
            CloseHelper.closeAll(node, port::close);
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

    /** See {@link NodeGuard#enter()}. */
    void enter()
    {
        guard.enter();
    }

    void exit()
    {
        guard.exit();
    }

    /** See {@link NodeGuard#failure(String, ProtocolException)}. */
    DsmException failure(final String activity, final ProtocolException ex)
    {
        return guard.failure(activity, ex);
    }
}
