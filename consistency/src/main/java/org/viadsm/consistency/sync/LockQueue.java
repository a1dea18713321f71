package org.viadsm.consistency.sync;

import java.util.Arrays;

import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.port.Notifications;

/**
 * The one-sided operations on a lock's distributed queue: joining its tail at the manager, linking behind or
 * taking from the predecessor, and handing the lock down the queue past abandoned elements. Each node has one
 * queue element per lock, a {@link LockWord} with a clock beside it, in its control region.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class LockQueue
{
    /** {@link #linkOrTake} took the lock from a predecessor that had released it. */
    static final int TAKEN = 1;
    /** {@link #linkOrTake} queued behind a predecessor that holds the lock or waits for it. */
    static final int LINKED = 2;
    /** {@link #joinAndLinkOrTake} found the tail was not its guess, {@link #tailFound()}: nothing joined or taken. */
    static final int NOT_JOINED = 0;
    /**
     * In the word before the clock a node leaves beside its predecessor's element: the node waits until it is
     * granted the lock (no timeout, no interrupt), so it never abandons its element and the grant needs no
     * compare-and-swap on it.
     */
    static final long FIRM_WAIT = 1L << 32;

    private final SyncNode node;
    private final VectorClock incoming;
    /** Per lock, whether its last {@link #linkOrTake} found the lock released at the predecessor. */
    private final boolean[] takenLast;
    private int tailFound = -1;

    LockQueue(final SyncNode node, final int lockIds)
    {
        this.node = node;
        this.incoming = new VectorClock(node.nodeCount);
        this.takenLast = new boolean[lockIds];
        Arrays.fill(takenLast, true);
    }

    /**
     * The clock the last {@link #linkOrTake} that returned {@link #TAKEN} read.
     *
     * @return the predecessor's clock.
     */
    VectorClock taken()
    {
        return incoming;
    }

    /**
     * The tail the last {@link #joinAndLinkOrTake} that returned {@link #NOT_JOINED} found.
     *
     * @return the node, or -1 for none.
     */
    int tailFound()
    {
        return tailFound;
    }

    /**
     * Makes {@code joiner} the last element of the lock's queue, at the lock's manager.
     *
     * @param lockId the lock.
     * @param joiner the joining node, whose element is already {@link LockWord#WAITING}.
     * @param guess  the node most likely to be the tail now, or -1 for none.
     * @return the node that was last before, or -1 if nobody ever queued for the lock.
     */
    int joinTail(final int lockId, final int joiner, final int guess)
    {
        final int manager = manager(lockId);
        final int tail = node.layout.lockTail(lockId);
        long expected = guess + 1L;
        long seen;
        while ((seen = node.compareAndSwap(manager, tail, expected, joiner + 1L)) != expected)
        {
            expected = seen;
        }
        return (int)expected - 1;
    }

    /**
     * Queues this node behind its predecessor, or takes the lock if the predecessor released it with nobody
     * behind ({@link LockWord#CACHED} or {@link LockWord#DEPOSITED}); the clock it left is then in {@link #taken()}.
     * <p>
     * Which of the two it will be is guessed from the last time: a lock whose predecessor was found released is
     * first tried with a compare-and-swap that takes it (one round trip to the predecessor, and the clock's read);
     * otherwise, and when that guess fails, the node leaves its clock beside the predecessor's element and adds
     * itself as the element's successor with one fetch-and-add, which links it whatever the element's state: one
     * round trip, with the clock's write before it, where a compare-and-swap that guessed the state took three
     * when it guessed wrong (the guess, the clock's write, the link: a contended lock's predecessor holds it or
     * waits for it, and which of the two nobody knows). A fetch-and-add that finds the lock released has taken it
     * all the same (see {@link LockWord#ownState(long, int)}). With two nodes a cached word carries a stamp instead
     * ({@link LockWord#cached(long)}), so they link as {@link #linkOrTakeStamped} does.
     *
     * @param lockId      the lock.
     * @param predecessor the node {@link #joinTail} returned.
     * @param firm        whether this node waits until it is granted the lock, whatever the time or interrupts.
     * @return {@link #TAKEN} or {@link #LINKED}.
     */
    int linkOrTake(final int lockId, final int predecessor, final boolean firm)
    {
        if (2 == node.nodeCount)
        {
            return linkOrTakeStamped(lockId, predecessor, firm);
        }
        final int element = node.layout.lockElement(lockId);
        final long cached = LockWord.of(LockWord.CACHED, -1);
        if (takenLast[lockId] &&
            cached == node.compareAndSwap(predecessor, element, cached, LockWord.of(LockWord.IDLE, node.nodeId)))
        {
            return take(lockId, predecessor);
        }
        leaveClock(lockId, predecessor, firm);
        final long seen =
            node.port.fetchAndAdd(predecessor, SyncNode.CONTROL, element, LockWord.successorDelta(node.nodeId));
        // the clock's write completed before the atomic did: this frees the outbox without another round trip
        node.port.flushWrites();
        final int state = LockWord.state(seen);
        if (LockWord.IDLE == state || LockWord.successor(seen) >= 0)
        {
            node.sync.failWith("lock " + lockId + ": the element of node " + predecessor + ", before this " +
                "node in the queue, was " + LockWord.describe(seen));
        }
        if (LockWord.CACHED == state || LockWord.DEPOSITED == state)
        {
            return take(lockId, predecessor);
        }
        takenLast[lockId] = false;
        return LINKED;
    }

    private int take(final int lockId, final int predecessor)
    {
        takenLast[lockId] = true;
        final int at = node.readInto(predecessor, node.layout.lockClock(lockId), node.layout.clockLength());
        incoming.read(node.control, at);
        return TAKEN;
    }

    /**
     * {@link #linkOrTake} with two nodes, with compare-and-swap: a cached lock's word carries the releaser's own
     * clock entry, the only one this node can lack ({@link LockWord#cached(long)}): the first compare-and-swap
     * expects the entry this node knows, and a take reads no clock, so taking a lock cached at the other node costs
     * one remote compare-and-swap here, or two if the releaser closed intervals this node has not seen.
     *
     * @param lockId      the lock.
     * @param predecessor the node {@link #joinTail} returned.
     * @param firm        whether this node waits until it is granted the lock, whatever the time or interrupts.
     * @return {@link #TAKEN} or {@link #LINKED}.
     */
    private int linkOrTakeStamped(final int lockId, final int predecessor, final boolean firm)
    {
        return linkOrTakeStamped(lockId, predecessor, firm, LockWord.cached(node.intervals.clock().get(predecessor)));
    }

    /**
     * Whether {@link #joinAndLinkOrTake} applies: two nodes, and the tail guessed to be the other node, which
     * manages the lock, so that both compare-and-swaps go to it.
     *
     * @param lockId the lock.
     * @param guess  the node most likely to be the tail now, or -1 for none.
     * @return true if it does.
     */
    boolean joinsInOneRoundTrip(final int lockId, final int guess)
    {
        return 2 == node.nodeCount && guess >= 0 && guess != node.nodeId && manager(lockId) == guess;
    }

    /** The node that manages a lock: holds its queue's tail. */
    private int manager(final int lockId)
    {
        return lockId % node.nodeCount;
    }

    /**
     * {@link #joinTail} and {@link #linkOrTake} in one round trip, where {@link #joinsInOneRoundTrip} says so: the
     * tail's compare-and-swap and the take's (which expects the lock cached at the other node with the clock entry
     * this node knows, see {@link #linkOrTakeStamped}) are started together, and the port's order makes the take
     * land after the swap, so the lock is never taken by a node that has not joined. An uncontended lock that
     * migrates between two nodes then costs its acquirer one round trip, where it cost two. If the tail was the
     * guess, the take's outcome decides as in {@link #linkOrTake} (a take that finds another word goes on from
     * that word); if not, the take cannot have succeeded (with two nodes a tail that is not the other node is
     * nobody's: nobody ever queued, so no element was ever cached) and this node joins as usual.
     *
     * @param lockId the lock.
     * @param guess  the other node, the lock's manager.
     * @param firm   whether this node waits until it is granted the lock, whatever the time or interrupts.
     * @return {@link #TAKEN}, {@link #LINKED} or {@link #NOT_JOINED}.
     */
    int joinAndLinkOrTake(final int lockId, final int guess, final boolean firm)
    {
        final int results = node.outbox(ControlRegionLayout.OUTBOX_INBOX);
        final long tailExpected = guess + 1L;
        final long cached = LockWord.cached(node.intervals.clock().get(guess));
        node.port.startCompareAndSwap(guess, SyncNode.CONTROL, node.layout.lockTail(lockId), tailExpected,
            node.nodeId + 1L, SyncNode.CONTROL, results);
        node.port.startCompareAndSwap(guess, SyncNode.CONTROL, node.layout.lockElement(lockId), cached,
            LockWord.of(LockWord.IDLE, node.nodeId), SyncNode.CONTROL, results + Long.BYTES);
        node.port.awaitReads();
        final long tailSeen = node.control.getLong(results);
        final long elementSeen = node.control.getLong(results + Long.BYTES);
        if (tailSeen != tailExpected)
        {
            if (elementSeen == cached)
            {
                node.sync.failWith("lock " + lockId + ": took the lock cached at node " + guess + " while the " +
                    "queue's tail was " + (tailSeen - 1) + ", not node " + guess);
            }
            tailFound = (int)tailSeen - 1;
            return NOT_JOINED;
        }
        if (elementSeen == cached)
        {
            return takeStamped(guess, cached);
        }
        return linkOrTakeStamped(lockId, guess, firm, elementSeen);
    }

    /**
     * {@link #linkOrTakeStamped(int, int, boolean)} from a first guess of the predecessor's word.
     */
    private int linkOrTakeStamped(final int lockId, final int predecessor, final boolean firm, final long guess)
    {
        final int element = node.layout.lockElement(lockId);
        long expected = guess;
        boolean clockLeft = false;
        while (true)
        {
            final int state = LockWord.state(expected);
            final boolean take = LockWord.CACHED == state || LockWord.DEPOSITED == state;
            if (!take && (LockWord.IDLE == state || LockWord.successor(expected) >= 0))
            {
                node.sync.failWith("lock " + lockId + ": the element of node " + predecessor + ", before this " +
                    "node in the queue, is " + LockWord.describe(expected));
            }
            final boolean leaving = !take && !clockLeft;
            if (leaving)
            {
                leaveClock(lockId, predecessor, firm);
                clockLeft = true;
            }
            final long update = take ? LockWord.of(LockWord.IDLE, node.nodeId) :
                LockWord.withSuccessor(expected, node.nodeId);
            final long seen = node.compareAndSwap(predecessor, element, expected, update);
            if (leaving)
            {
                // as in linkOrTake: the clock's write completed before the atomic did, so this waits for nothing
                node.port.flushWrites();
            }
            if (seen == expected)
            {
                if (take && LockWord.CACHED == state)
                {
                    return takeStamped(predecessor, expected);
                }
                return take ? take(lockId, predecessor) : LINKED;
            }
            expected = seen;
        }
    }

    /**
     * The clock of a take from a stamped cached word: this node's own, with the releaser's entry from the stamp.
     */
    private int takeStamped(final int predecessor, final long word)
    {
        final VectorClock own = node.intervals.clock();
        incoming.copyFrom(own).set(predecessor, Math.max(own.get(predecessor), LockWord.stamp(word)));
        return TAKEN;
    }

    /**
     * Starts leaving this node's clock beside the predecessor's element, before this node links behind it, so that
     * the predecessor's release forwards the notices this node lacks. The link that follows is an atomic on the
     * same node, which takes effect after the write (the port's order), so the clock has landed when the link can
     * be seen, with no wait for the write in between: the atomic's round trip covers both. The caller flushes
     * before the outbox is written again. A stale clock of this node left there earlier is older, so it only makes
     * the release forward more; a stale {@link #FIRM_WAIT} is only ever seen for a node that cannot abandon its
     * element either (it was moved into the queue by a signal, or it rejoined at the place of an element that a
     * firm wait never abandons).
     */
    private void leaveClock(final int lockId, final int predecessor, final boolean firm)
    {
        final int outbox = node.layout.grantOutbox();
        node.control.putLong(outbox, node.nodeId + 1L | (firm ? FIRM_WAIT : 0));
        node.intervals.clock().write(node.control, outbox + Long.BYTES);
        node.port.write(predecessor, SyncNode.CONTROL, node.layout.lockSuccessorClock(lockId), SyncNode.CONTROL,
            outbox, Long.BYTES + node.layout.clockLength());
    }

    /**
     * Hands a released lock to the first element from {@code successor} on that still wants it: grants it to a
     * waiting element (its state becomes {@link LockWord#HELD}, by the releaser's compare-and-swap unless the
     * element's node waits firmly, when the node sets it itself on the grant; then an RDMA Write of the clock and
     * the notices forwarded for the successor's clock left beside this node's element, with a grant notification,
     * follows), passes abandoned elements that have a successor, and leaves the lock at an abandoned element that
     * has none ({@link LockWord#DEPOSITED}, clock beside it).
     *
     * @param lockId    the lock.
     * @param successor the node queued behind the releaser.
     * @param clock     the releaser's clock.
     */
    void pass(final int lockId, final int successor, final VectorClock clock)
    {
        final int element = node.layout.lockElement(lockId);
        final int clockOffset = node.layout.lockClock(lockId);
        final int clockLength = node.layout.clockLength();
        final int grant = node.layout.grantOutbox();
        clock.write(node.control, grant);
        final int successorClock = node.layout.lockSuccessorClock(lockId);
        final long tag = node.control.getLongVolatile(successorClock);
        final int grantLength;
        if (successor + 1L == (tag & ~FIRM_WAIT))
        {
            incoming.read(node.control, successorClock + Long.BYTES);
            grantLength = clockLength + node.intervals.forward(incoming, successor, node.control, grant + clockLength,
                ControlRegionLayout.FORWARDED_NOTICES_LENGTH);
        }
        else
        {
            node.control.putInt(grant + clockLength, 0);
            grantLength = clockLength + Integer.BYTES;
        }
        if (successor + 1L + FIRM_WAIT == tag)
        {
            // the successor waits until it is granted the lock: nothing it does can race the hand-off
            grant(lockId, successor, grant, grantLength);
            return;
        }
        int next = successor;
        long expected = LockWord.of(LockWord.WAITING, -1);
        while (true)
        {
            final int state = LockWord.state(expected);
            final int after = LockWord.successor(expected);
            if (LockWord.WAITING != state && LockWord.ABANDONED != state)
            {
                node.sync.failWith("lock " + lockId + ": the element of node " + next + ", next in the queue, is " +
                    LockWord.describe(expected));
            }
            final boolean deposit = LockWord.ABANDONED == state && after < 0;
            if (deposit)
            {
                // the clock is beside the word before the word says the lock is there
                node.port.write(next, SyncNode.CONTROL, clockOffset, SyncNode.CONTROL, grant, clockLength);
                node.port.flushWrites();
            }
            final long update = LockWord.WAITING == state ? LockWord.withState(expected, LockWord.HELD) :
                deposit ? LockWord.of(LockWord.DEPOSITED, -1) : LockWord.of(LockWord.IDLE, after);
            final long seen = node.compareAndSwap(next, element, expected, update);
            if (seen != expected)
            {
                expected = seen;
            }
            else if (LockWord.WAITING == state)
            {
                if (next != successor)
                {
                    // the notices were chosen for the successor, who gave up: the next one reads the logs
                    node.control.putInt(grant + clockLength, 0);
                }
                grant(lockId, next, grant, next != successor ? clockLength + Integer.BYTES : grantLength);
                return;
            }
            else if (deposit)
            {
                return;
            }
            else
            {
                next = after;
                expected = LockWord.of(LockWord.WAITING, -1);
            }
        }
    }

    /**
     * Writes a grant (the releaser's clock and the forwarded notices) into a node's grant inbox and notifies it.
     */
    private void grant(final int lockId, final int holder, final int grant, final int length)
    {
        node.port.writeAndNotify(holder, SyncNode.CONTROL, node.layout.grantInbox(), SyncNode.CONTROL, grant, length,
            Notifications.of(Notifications.GRANT, lockId));
        node.counters.increment(Counter.MESSAGES_SENT);
        node.port.flushWrites();
    }

    /**
     * Moves a node, signalled on a condition of a lock this node holds, into the lock's queue: its idle element
     * becomes {@link LockWord#WAITING} and joins the tail, behind this node or later waiters. The node is granted
     * the lock in its turn.
     *
     * @param lockId the lock, held by this node.
     * @param waiter the signalled node.
     */
    void transfer(final int lockId, final int waiter)
    {
        final int element = node.layout.lockElement(lockId);
        long expected = LockWord.of(LockWord.IDLE, -1);
        long seen;
        while ((seen = node.compareAndSwap(waiter, element, expected, LockWord.of(LockWord.WAITING, -1))) !=
            expected)
        {
            if (LockWord.IDLE != LockWord.ownState(seen, node.nodeCount))
            {
                node.sync.failWith("lock " + lockId + ": signalled node " + waiter + " has its element " +
                    LockWord.describe(seen));
            }
            expected = seen;
        }
        final int predecessor = joinTail(lockId, waiter, node.nodeId);
        expected = LockWord.of(predecessor == node.nodeId ? LockWord.HELD : LockWord.WAITING, -1);
        while ((seen = node.compareAndSwap(predecessor, element, expected,
            LockWord.withSuccessor(expected, waiter))) != expected)
        {
            final int state = LockWord.state(seen);
            if (LockWord.successor(seen) >= 0 ||
                (LockWord.WAITING != state && LockWord.HELD != state && LockWord.ABANDONED != state))
            {
                node.sync.failWith("lock " + lockId + ": the element of node " + predecessor + ", before signalled " +
                    "node " + waiter + ", is " + LockWord.describe(seen));
            }
            expected = seen;
        }
    }
}
