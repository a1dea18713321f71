package org.viadsm.consistency.sync;

import java.util.Arrays;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.interval.Intervals;

/**
 * Locks: a distributed MCS queue over one-sided operations that leaves a released lock with its last holder
 * (lock caching, as TreadMarks leaves the token with its last holder), and hands the releaser's vector clock to
 * the next holder.
 * <p>
 * Lock {@code L}'s manager (node {@code L mod N}) holds only the queue's tail; every node has a queue element for
 * {@code L}, a {@link LockWord} with a clock beside it. To acquire, a node marks its element waiting and swaps
 * itself into the tail with compare-and-swap. If its predecessor released the lock with nobody behind, the
 * predecessor's element says {@link LockWord#CACHED}: the node takes the lock with a compare-and-swap on that
 * element and reads the clock beside it (with two nodes the word itself carries the releaser's own clock entry,
 * all of that clock the taker can lack, so the take reads nothing). Otherwise it writes itself into the
 * predecessor's element as its successor and sleeps until the grant, an RDMA Write of the releaser's clock with a
 * notification. Waiters are
 * served in the order they reached the tail (FIFO); nobody but the acquirer, its predecessor and the manager's
 * memory takes part, and no thread of theirs runs. Before it links, the node leaves its clock beside the
 * predecessor's element, and the grant brings the write notices that clock lacks as far as the releaser knows
 * them, so the node reads the logs only of the writers the grant left out.
 * <p>
 * <b>Caching.</b> A release that finds no successor costs no network operation: the releaser leaves its clock
 * beside its own element and marks it {@link LockWord#CACHED}, with a compare-and-swap on its own memory that a
 * successor's remote compare-and-swap would contend with. Re-acquiring a cached lock is a local compare-and-swap
 * again, and needs no write notices: the lock's last release was this node's own, so every write that
 * happens-before that release is already visible here (program order, and this node's clock already covers every
 * interval the releasing clock does); no other node has released the lock since, or the element would not still
 * say {@link LockWord#CACHED}. It still advances the node's synchronization epoch, as every acquire does, so
 * array views made before it expire. A node that wants a cached lock queues at the tail as always and then takes
 * it from the element, so the cache costs FIFO nothing: the holder's re-acquire and the taker's compare-and-swap
 * are ordered on the element's word.
 * <p>
 * <b>Giving up.</b> A waiter that times out or is interrupted marks its element {@link LockWord#ABANDONED} and
 * leaves; its element stays in the queue, so nobody polls and no queue link breaks. A release that reaches an
 * abandoned element passes it by, or leaves the lock there ({@link LockWord#DEPOSITED}) if nobody is queued behind
 * it. A later acquire by the same node rejoins the queue at the element's old place.
 * <p>
 * <b>Failures.</b> A waiter fails, naming the node, when a node fails, when a node it depends on left the cluster
 * holding the lock, or when every other node has gone. A node that fails while a lock is cached there makes the
 * next acquirer's compare-and-swap on its element fail with that node's name.
 * <p>
 * Memory consistency effects: the releaser's diffs are home and its write notices published before the clock it
 * hands on covers them, and the acquirer applies the notices of exactly the intervals its clock lacks, so writes
 * before a release happen-before reads after the next acquire of the same lock, on any node.
 * <p>
 * <b>Note:</b> used by the node's application thread only; locks are not reentrant.
 */
public final class LockProtocol
{
    /** An acquire that took the network. */
    public static final int ACQUIRED = 0;
    /** An acquire with no remote operation: the lock was cached at this node. */
    public static final int ACQUIRED_CACHED = 1;

    private static final long NO_CLOCK_LEFT = -1;

    private final SyncNode node;
    private final AtomicBuffer control;
    // the node's parts a cached hand-off uses, held here: each object between this and them is a dependent load
    private final ControlRegionLayout layout;
    private final Intervals intervals;
    private final SyncState sync;
    private final Counters counters;
    private final int nodeCount;
    private final LockQueue queue;
    private final int maxLocks;
    private final int lockIds;
    private final VectorClock incoming;
    private final SyncWait wait = new SyncWait();
    /** Per lock, the {@code Intervals.clockChanges()} of the clock a cached release left beside it, or -1. */
    private final long[] clockLeft;
    /** A node alone: no other node reads or swaps its lock elements, so its cached hand-off needs no atomics. */
    private final boolean alone;

    /**
     * Creates the lock protocol.
     *
     * @param node     the node's synchronization plumbing.
     * @param maxLocks number of user lock ids; internal ones follow up to the layout's lock ids.
     * @param lockIds  number of lock ids in all.
     */
    public LockProtocol(final SyncNode node, final int maxLocks, final int lockIds)
    {
        this.node = node;
        this.control = node.control;
        this.layout = node.layout;
        this.intervals = node.intervals;
        this.sync = node.sync;
        this.counters = node.counters;
        this.nodeCount = node.nodeCount;
        this.queue = new LockQueue(node, lockIds);
        this.maxLocks = maxLocks;
        this.lockIds = lockIds;
        this.incoming = new VectorClock(node.nodeCount);
        this.clockLeft = new long[lockIds];
        Arrays.fill(clockLeft, NO_CLOCK_LEFT);
        this.alone = 1 == node.nodeCount;
    }

    /**
     * Acquires a lock, waiting in FIFO order behind earlier requesters.
     *
     * @param lockId the lock.
     * @throws IllegalArgumentException if the id is out of range.
     * @throws IllegalStateException    if this node already holds it.
     */
    public void lock(final int lockId)
    {
        acquire(lockId, SyncWait.NO_TIMEOUT, false);
    }

    /**
     * Acquires a lock only if it is free now.
     *
     * @param lockId the lock.
     * @return true if acquired.
     * @throws IllegalArgumentException if the id is out of range.
     * @throws IllegalStateException    if this node already holds it.
     */
    public boolean tryLock(final int lockId)
    {
        return acquire(lockId, 0, false) >= 0;
    }

    /**
     * Acquires a lock, waiting in FIFO order up to a timeout or until the thread is interrupted, and counts it.
     *
     * @param lockId        the lock.
     * @param timeoutNs     longest wait; {@link SyncWait#NO_TIMEOUT} for none, 0 to take it only if free.
     * @param interruptible whether an interrupt of the thread ends the wait.
     * @return {@link #ACQUIRED}, {@link #ACQUIRED_CACHED}, {@link SyncWait#TIMED_OUT} or
     *         {@link SyncWait#INTERRUPTED}.
     * @throws IllegalArgumentException if the id is out of range.
     * @throws IllegalStateException    if this node already holds it.
     */
    public int acquire(final int lockId, final long timeoutNs, final boolean interruptible)
    {
        checkLockId(lockId, maxLocks);
        final int element = layout.lockElement(lockId);
        final long word = control.getLongVolatile(element);
        if (LockWord.CACHED == LockWord.ownState(word, nodeCount) && sync.isUsable() && takeCached(element, word))
        {
            // the common case, kept free of clock reads: nothing to wait for, no notices to apply
            intervals.acquireLocal();
            counters.increment(Counter.LOCK_ACQUIRES_LOCAL);
            return ACQUIRED_CACHED;
        }
        final long startNs = System.nanoTime();
        final int outcome = acquireQuietly(lockId, timeoutNs, interruptible);
        if (outcome >= 0)
        {
            node.counters.increment(ACQUIRED_CACHED == outcome ? Counter.LOCK_ACQUIRES_LOCAL :
                Counter.LOCK_ACQUIRES_REMOTE);
        }
        node.counters.add(Counter.LOCK_WAIT_NS, System.nanoTime() - startNs);
        return outcome;
    }

    /**
     * Releases a lock: closes the interval, then leaves the lock cached here if nobody is queued behind this
     * node, or hands it and this node's clock to the next waiter.
     *
     * @param lockId the lock.
     * @throws IllegalMonitorStateException if this node does not hold it.
     */
    public void unlock(final int lockId)
    {
        if (lockId < 0 || lockId >= maxLocks || !isHeld(lockId))
        {
            throw new IllegalMonitorStateException("lock " + lockId + " is not held by node " + node.nodeId);
        }
        release(lockId);
    }

    /**
     * Whether this node holds a lock.
     *
     * @param lockId the lock.
     * @return true if held.
     */
    public boolean isHeld(final int lockId)
    {
        return lockId >= 0 && lockId < lockIds &&
            LockWord.HELD == LockWord.state(control.getLongVolatile(layout.lockElement(lockId)));
    }

    /**
     * Acquires any lock, user or internal, without counting it.
     *
     * @param lockId        the lock.
     * @param timeoutNs     longest wait, as for {@link #acquire}.
     * @param interruptible whether an interrupt ends the wait.
     * @return as {@link #acquire}.
     */
    int acquireQuietly(final int lockId, final long timeoutNs, final boolean interruptible)
    {
        node.sync.ensureUsable();
        final int element = node.layout.lockElement(lockId);
        while (true)
        {
            final long word = control.getLongVolatile(element);
            final int state = LockWord.ownState(word, node.nodeCount);
            if (LockWord.CACHED != state)
            {
                // the lock leaves or left this node: another clock may be written beside it
                clockLeft[lockId] = NO_CLOCK_LEFT;
            }
            switch (state)
            {
                case LockWord.IDLE:
                    return join(lockId, element, LockWord.successor(word), timeoutNs, interruptible);
                case LockWord.CACHED:
                    if (control.compareAndSetLong(element, word, LockWord.of(LockWord.HELD, -1)))
                    {
                        node.intervals.acquireLocal();
                        return ACQUIRED_CACHED;
                    }
                    break;
                case LockWord.DEPOSITED:
                    if (control.compareAndSetLong(element, word, LockWord.of(LockWord.HELD, -1)))
                    {
                        incoming.read(control, node.layout.lockClock(lockId));
                        node.intervals.acquireLock(incoming);
                        return ACQUIRED_CACHED;
                    }
                    break;
                case LockWord.ABANDONED:
                    if (control.compareAndSetLong(element, word, LockWord.withState(word, LockWord.WAITING)))
                    {
                        return awaitGrant(lockId, element, timeoutNs, interruptible);
                    }
                    break;
                case LockWord.HELD:
                    throw new IllegalStateException("lock " + lockId + " is already held by node " + node.nodeId +
                        "; locks are not reentrant");
                default:
                    node.sync.failWith("lock " + lockId + ": this node's element is " + LockWord.describe(word) +
                        " while it does not wait for the lock");
            }
        }
    }

    /**
     * Releases a held lock, user or internal.
     *
     * @param lockId the lock.
     */
    void release(final int lockId)
    {
        sync.ensureUsable();
        intervals.release();
        final VectorClock clock = intervals.clock();
        final int element = layout.lockElement(lockId);
        long word = control.getLongVolatile(element);
        if (LockWord.successor(word) < 0)
        {
            // a lock re-acquired from the cache and released with no interval closed or applied in between
            // leaves the clock that is already beside it
            final long changes = intervals.clockChanges();
            if (clockLeft[lockId] != changes)
            {
                clock.write(control, layout.lockClock(lockId));
                clockLeft[lockId] = changes;
            }
            if (alone)
            {
                control.putLongRelease(element, LockWord.of(LockWord.CACHED, -1));
                return;
            }
            if (control.compareAndSetLong(element, word, 2 == nodeCount ?
                LockWord.cached(clock.get(node.nodeId)) : LockWord.of(LockWord.CACHED, -1)))
            {
                return;
            }
            word = control.getLongVolatile(element);
        }
        final int successor = LockWord.successor(word);
        control.putLongVolatile(element, LockWord.of(LockWord.IDLE, successor));
        queue.pass(lockId, successor, clock);
    }

    /**
     * The queue operations, for conditions.
     *
     * @return the queue.
     */
    LockQueue queue()
    {
        return queue;
    }

    static void checkLockId(final int lockId, final int limit)
    {
        if (lockId < 0 || lockId >= limit)
        {
            throw new IllegalArgumentException("lock id must be in [0, " + limit + "): " + lockId);
        }
    }

    private int join(final int lockId, final int element, final int tailGuess, final long timeoutNs,
        final boolean interruptible)
    {
        control.putLongVolatile(element, LockWord.of(LockWord.WAITING, -1));
        final boolean firm = SyncWait.NO_TIMEOUT == timeoutNs && !interruptible;
        int guess = tailGuess;
        if (queue.joinsInOneRoundTrip(lockId, tailGuess))
        {
            switch (queue.joinAndLinkOrTake(lockId, tailGuess, firm))
            {
                case LockQueue.TAKEN:
                    toHeld(element);
                    node.intervals.acquireLock(queue.taken());
                    return ACQUIRED;
                case LockQueue.LINKED:
                    return awaitGrant(lockId, element, timeoutNs, interruptible);
                default:
                    guess = queue.tailFound();
                    break;
            }
        }
        final int predecessor = queue.joinTail(lockId, node.nodeId, guess);
        if (predecessor < 0)
        {
            toHeld(element);
            incoming.clear();
            node.intervals.acquireLock(incoming);
            return ACQUIRED;
        }
        if (predecessor == node.nodeId)
        {
            node.sync.failWith("lock " + lockId + ": the queue's tail was this node, whose element was idle");
        }
        if (LockQueue.TAKEN == queue.linkOrTake(lockId, predecessor, firm))
        {
            toHeld(element);
            node.intervals.acquireLock(queue.taken());
            return ACQUIRED;
        }
        return awaitGrant(lockId, element, timeoutNs, interruptible);
    }

    private int awaitGrant(final int lockId, final int element, final long timeoutNs, final boolean interruptible)
    {
        final SyncState sync = node.sync;
        wait.start(timeoutNs, interruptible);
        int goneSeen = 0;
        try
        {
            while (!sync.takeGrant(lockId))
            {
                if (sync.goneCount() != goneSeen)
                {
                    goneSeen = sync.goneCount();
                    checkHoldersGone(lockId, "lock ");
                }
                final int outcome = sync.awaitStep(wait, "lock ", lockId);
                if (SyncWait.PENDING != outcome)
                {
                    if (abandon(lockId, element))
                    {
                        return outcome;
                    }
                    wait.mustFinish();
                }
            }
        }
        finally
        {
            wait.finish();
        }
        acquireGranted(lockId);
        return ACQUIRED;
    }

    /**
     * Fails the wait if a node that has left the cluster still holds the lock (it will never release it), or if
     * every other node has gone.
     *
     * @param lockId   the lock.
     * @param activity what is awaited, for messages.
     */
    void checkHoldersGone(final int lockId, final String activity)
    {
        for (int other = 0; other < node.nodeCount; other++)
        {
            if (other != node.nodeId && node.sync.isGone(other) && node.sync.hasLeft(other) &&
                LockWord.HELD == LockWord.state(node.readWord(other, node.layout.lockElement(lockId))))
            {
                node.sync.failWith("node " + other + " left the cluster holding lock " + lockId +
                    " while this node waited for " + activity + lockId);
            }
        }
        node.sync.checkNotAlone(activity, lockId);
    }

    private boolean abandon(final int lockId, final int element)
    {
        while (true)
        {
            final long word = control.getLongVolatile(element);
            if (LockWord.HELD == LockWord.state(word))
            {
                return false;
            }
            if (LockWord.WAITING != LockWord.state(word))
            {
                node.sync.failWith("lock " + lockId + ": this node's element is " + LockWord.describe(word) +
                    " while it waits for the grant");
            }
            if (control.compareAndSetLong(element, word, LockWord.withState(word, LockWord.ABANDONED)))
            {
                return true;
            }
        }
    }

    /**
     * Takes the lock cached in this node's element, which said {@code word}: a compare-and-swap, which a successor's
     * remote compare-and-swap on the element contends with; on a node alone, which has no successor to contend with
     * (its own queue operations run on its own thread), a store.
     */
    private boolean takeCached(final int element, final long word)
    {
        if (alone)
        {
            control.putLongRelease(element, LockWord.of(LockWord.HELD, -1));
            return true;
        }
        return control.compareAndSetLong(element, word, LockWord.of(LockWord.HELD, -1));
    }

    private void toHeld(final int element)
    {
        long word;
        do
        {
            word = control.getLongVolatile(element);
        }
        while (!control.compareAndSetLong(element, word, LockWord.withState(word, LockWord.HELD)));
    }

    /**
     * Takes the lock the grant that arrived handed here: marks this node's element held (a grant to a node that
     * waits firmly leaves that to it), then acquires the grant's clock and notices.
     *
     * @param lockId the lock.
     */
    void acquireGranted(final int lockId)
    {
        toHeld(node.layout.lockElement(lockId));
        final int grant = node.layout.grantInbox();
        incoming.read(control, grant);
        node.intervals.acquireForwarded(incoming, control, grant + node.layout.clockLength());
    }
}
