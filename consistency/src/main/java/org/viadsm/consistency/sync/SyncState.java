package org.viadsm.consistency.sync;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * The notifications a node has received and the waits that depend on them. Every wait is bounded: it fails with
 * a {@link ProtocolException} naming the peer when a node it depends on fails, or leaves before reaching the
 * awaited barrier, and after the configured synchronization timeout. A node whose wait failed is broken: later
 * synchronizations fail at once with the first failure, since the queues and barriers it took part in are no
 * longer consistent. Waits the caller bounds ({@link SyncWait}) end by their timeout or an interrupt instead, and
 * leave the node usable.
 * <p>
 * A barrier that a node left by timeout or interrupt is broken for every node: the node tells every other, and
 * their barrier waits then end with {@link #BROKEN}.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SyncState implements NotificationHandler
{
    /** Barrier kind of {@link BarrierProtocol#barrier()}. */
    public static final int FULL_BARRIER = 0;
    /** Barrier kind of {@link BarrierProtocol#syncBarrier()}. */
    public static final int SYNC_BARRIER = 1;
    /** A barrier wait's outcome: another node broke the barrier. */
    public static final int BROKEN = -3;
    /** Argument of a broken-barrier notification: the breaker timed out. */
    public static final int BROKEN_BY_TIMEOUT = 0;
    /** Argument of a broken-barrier notification: the breaker was interrupted. */
    public static final int BROKEN_BY_INTERRUPT = 1;

    private static final int NO_GRANT = -1;
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ProtocolPort port;
    private final Counters counters;
    private final int nodeId;
    private final long syncTimeoutNs;
    private final BarrierMailbox barriers = new BarrierMailbox();
    private final BarrierPoll barrierPoll;
    private final long[] leftAfterEpoch;
    private final String[] failures;
    private final boolean[] gone;
    private int grantedLock = NO_GRANT;
    private int goneCount;
    private int failedCount;
    private String broken;

    /**
     * Creates the state.
     *
     * @param port          the network.
     * @param counters      the node's counters.
     * @param syncTimeoutNs longest a synchronization may wait; {@link Long#MAX_VALUE} for no limit.
     */
    public SyncState(final ProtocolPort port, final Counters counters, final long syncTimeoutNs)
    {
        this.port = port;
        this.counters = counters;
        this.nodeId = port.nodeId();
        this.syncTimeoutNs = syncTimeoutNs;
        this.barrierPoll = new BarrierPoll(port, this, barriers);
        this.leftAfterEpoch = new long[port.nodeCount()];
        this.failures = new String[port.nodeCount()];
        this.gone = new boolean[port.nodeCount()];
        Arrays.fill(leftAfterEpoch, -1L);
    }

    /**
     * The argument of this node's leave notification: the barriers it has passed, so a peer still waiting in one
     * of them knows this node took part.
     *
     * @param epoch barriers passed.
     * @return the notification argument.
     */
    public static int leaveArgument(final long epoch)
    {
        return BarrierMailbox.epochArgument(epoch);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void onNotification(final int fromNode, final int notification)
    {
        counters.increment(Counter.MESSAGES_RECEIVED);
        final int argument = Notifications.argument(notification);
        switch (Notifications.type(notification))
        {
            case Notifications.GRANT:
                if (NO_GRANT != grantedLock)
                {
                    throw new ProtocolException(nodeId, "grant of lock " + argument + " from node " + fromNode +
                        " arrived while the grant of lock " + grantedLock + " was unclaimed");
                }
                grantedLock = argument;
                break;
            case Notifications.BARRIER:
                barriers.onRound(argument);
                break;
            case Notifications.LEAVE:
                if (leftAfterEpoch[fromNode] < 0)
                {
                    leftAfterEpoch[fromNode] = argument;
                    markGone(fromNode);
                }
                break;
            case Notifications.BROKEN:
                barriers.onBroken(fromNode, argument);
                break;
            default:
                throw new ProtocolException(nodeId, "unknown notification 0x" + Integer.toHexString(notification) +
                    " from node " + fromNode);
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void onPeerFailure(final int node, final String reason)
    {
        if (null == failures[node])
        {
            failures[node] = reason;
            failedCount++;
            markGone(node);
        }
    }

    /**
     * Fails at once if an earlier wait of this node failed.
     *
     * @throws ProtocolException with the first failure.
     */
    public void ensureUsable()
    {
        if (null != broken)
        {
            throw new ProtocolException(nodeId, "unusable after an earlier failure: " + broken);
        }
    }

    /**
     * Whether the node may still synchronize: no earlier wait failed.
     *
     * @return true if usable.
     */
    boolean isUsable()
    {
        return null == broken;
    }

    /**
     * Takes the grant of a lock if it has arrived.
     *
     * @param lockId the lock.
     * @return true if the grant of {@code lockId} arrived, and is now consumed.
     */
    boolean takeGrant(final int lockId)
    {
        if (grantedLock == lockId)
        {
            grantedLock = NO_GRANT;
            return true;
        }
        if (NO_GRANT != grantedLock)
        {
            fail("waited for lock " + lockId + " but was granted lock " + grantedLock);
        }
        return false;
    }

    /**
     * One step of a wait for a notification: fails if a node failed or the synchronization timeout passed, ends
     * the wait on its own timeout or an interrupt, else delivers notifications, sleeping a while for one.
     *
     * @param wait     the wait's bounds.
     * @param activity what is awaited, for messages.
     * @param id       the lock, condition or semaphore concerned.
     * @return {@link SyncWait#PENDING} to go on, or how the wait ended.
     */
    int awaitStep(final SyncWait wait, final String activity, final long id)
    {
        return step(wait, -1, activity, id, -1);
    }

    /**
     * Fails a wait that only other nodes can end once every other node has left or failed.
     *
     * @param activity what is awaited, for messages.
     * @param id       the lock, condition or semaphore concerned.
     */
    void checkNotAlone(final String activity, final long id)
    {
        if (port.nodeCount() > 1 && goneCount == port.nodeCount() - 1)
        {
            fail("every other node has left while this node waited for " + activity + id);
        }
    }

    /**
     * Nodes that have left or failed so far; grows only.
     *
     * @return the count.
     */
    int goneCount()
    {
        return goneCount;
    }

    /**
     * Whether a peer has left or failed.
     *
     * @param node the peer.
     * @return true once gone.
     */
    boolean isGone(final int node)
    {
        return gone[node];
    }

    /**
     * Fails the node's current synchronization: it is unusable from now on.
     *
     * @param message what went wrong.
     * @throws ProtocolException always.
     */
    void failWith(final String message)
    {
        fail(message);
    }

    /**
     * Breaks the barrier from barrier {@code epoch} on, here: this node timed out or was interrupted in it. The
     * caller tells the other nodes.
     *
     * @param reason {@link #BROKEN_BY_TIMEOUT} or {@link #BROKEN_BY_INTERRUPT}.
     * @param epoch  the barrier this node gave up.
     * @return true if the barrier was not broken before, so the others must be told.
     */
    boolean breakBarrier(final int reason, final long epoch)
    {
        return barriers.onBroken(nodeId, BarrierMailbox.brokenArgument(reason, epoch));
    }

    /**
     * Whether barrier {@code epoch} is broken: some node broke it or an earlier one.
     *
     * @param epoch the barrier's number.
     * @return true if it cannot complete.
     */
    boolean isBarrierBroken(final long epoch)
    {
        return barriers.isBroken(epoch);
    }

    /**
     * Why the barrier is broken.
     *
     * @return e.g. {@code node 2 timed out in it}; null while it is not.
     */
    public String barrierBroken()
    {
        return barriers.broken();
    }

    /**
     * Waits for the partner's arrival word at a two-node barrier ({@link PairBarrier}): polls it in this node's memory,
     * and asks the partner for a wake-up before it sleeps.
     *
     * @param pair    the node's pair barrier.
     * @param control this node's control region.
     * @param offset  the arrival word of the barrier's parity.
     * @param epoch   the barrier's number.
     * @param wait    the wait's bounds.
     * @return {@link SyncWait#PENDING} once the word is in, or {@link SyncWait#TIMED_OUT},
     *         {@link SyncWait#INTERRUPTED} or {@link #BROKEN}.
     */
    int awaitPair(final PairBarrier pair, final AtomicBuffer control, final int offset, final long epoch,
        final SyncWait wait)
    {
        if (!PairBarrier.isFor(control.getLongVolatile(offset), epoch) && !barriers.isBroken(epoch) &&
            !barrierPoll.pollWord(control, offset, epoch, wait) && !barriers.isBroken(epoch))
        {
            counters.increment(Counter.BARRIER_SLEEPS);
            // a partner already known failed or gone gets no wake request, whose flush would wait for it
            checkFailures(epoch, wait.startNs(), "barrier ", epoch, pair.partner());
            pair.requestWake(epoch);
            barrierPoll.probeWakeUp(wait);
            while (!PairBarrier.isFor(control.getLongVolatile(offset), epoch) && !barriers.isBroken(epoch))
            {
                final int outcome = step(wait, epoch, "barrier ", epoch, pair.partner());
                if (SyncWait.PENDING != outcome)
                {
                    return outcome;
                }
            }
        }
        return barriers.isBroken(epoch) ? BROKEN : SyncWait.PENDING;
    }

    /**
     * Waits for a barrier round's message.
     *
     * @param kind   {@link #FULL_BARRIER} or {@link #SYNC_BARRIER}: what this node is doing.
     * @param parity the epoch parity.
     * @param round  the round.
     * @param from   the node that sends it.
     * @param epoch  the barrier's number.
     * @param wait   the wait's bounds.
     * @return {@link SyncWait#PENDING} once the message is in, or {@link SyncWait#TIMED_OUT},
     *         {@link SyncWait#INTERRUPTED} or {@link #BROKEN}.
     */
    public int awaitBarrier(
        final int kind, final int parity, final int round, final int from, final long epoch, final SyncWait wait)
    {
        int arrivedKind = barriers.take(parity, round);
        if (-1 == arrivedKind && !barriers.isBroken(epoch))
        {
            arrivedKind = barrierPoll.poll(parity, round, epoch, wait);
            if (-1 == arrivedKind && !barriers.isBroken(epoch))
            {
                counters.increment(Counter.BARRIER_SLEEPS);
                barrierPoll.probeWakeUp(wait);
                arrivedKind = barriers.take(parity, round);
            }
            while (-1 == arrivedKind && !barriers.isBroken(epoch))
            {
                final int outcome = step(wait, epoch, "barrier ", epoch, from);
                if (SyncWait.PENDING != outcome)
                {
                    return outcome;
                }
                arrivedKind = barriers.take(parity, round);
            }
        }
        if (barriers.isBroken(epoch))
        {
            return BROKEN;
        }
        if (arrivedKind != kind)
        {
            failKindMismatch(from, arrivedKind, kind, epoch);
        }
        return SyncWait.PENDING;
    }

    /**
     * Fails the barrier: the node it heard from is in another kind of barrier.
     *
     * @param from        that node.
     * @param arrivedKind the kind of its barrier.
     * @param kind        the kind of this node's.
     * @param epoch       the barrier's number.
     * @throws ProtocolException always.
     */
    void failKindMismatch(final int from, final int arrivedKind, final int kind, final long epoch)
    {
        fail("node " + from + " is in " + BarrierMailbox.kindName(arrivedKind) + " while this node is in " +
            BarrierMailbox.kindName(kind) + " (barrier " + epoch + "); every node must make the same collective " +
            "calls in the same order");
    }

    /**
     * Waits until every other node has left (or failed), up to {@code timeoutNs}.
     *
     * @param timeoutNs longest wait.
     * @return true if every other node left or failed in time.
     */
    public boolean awaitAllLeft(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (goneCount < port.nodeCount() - 1)
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                return false;
            }
            try
            {
                port.awaitNotifications(WAIT_SLICE_NS, this);
            }
            catch (final ProtocolException ex)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a peer has left the cluster.
     *
     * @param node the peer.
     * @return true once its leave notification arrived.
     */
    public boolean hasLeft(final int node)
    {
        return leftAfterEpoch[node] >= 0;
    }

    private void markGone(final int node)
    {
        if (!gone[node])
        {
            gone[node] = true;
            goneCount++;
        }
    }

    /**
     * Fails the wait if a node it depends on failed, or (for a barrier, {@code epoch >= 0}) left before reaching
     * it, or the timeout passed.
     */
    private void checkFailures(final long epoch, final long startNs, final String activity, final long id,
        final int peer)
    {
        if (failedCount > 0 || (epoch >= 0 && goneCount > 0))
        {
            for (int node = 0; node < failures.length; node++)
            {
                if (null != failures[node])
                {
                    fail("node " + node + " failed (" + failures[node] + ") while this node waited for " + activity +
                        id);
                }
                if (epoch >= 0 && leftAfterEpoch[node] >= 0 && leftBefore(node, epoch))
                {
                    fail("node " + node + " left the cluster while this node waited for " + activity + id);
                }
            }
        }
        if (Long.MAX_VALUE != syncTimeoutNs && System.nanoTime() - startNs > syncTimeoutNs)
        {
            fail("timed out after " + TimeUnit.NANOSECONDS.toMillis(syncTimeoutNs) + " ms waiting for " + activity +
                id + (peer >= 0 ? " from node " + peer : ""));
        }
    }

    private int step(final SyncWait wait, final long epoch, final String activity, final long id, final int peer)
    {
        checkFailures(epoch, wait.startNs(), activity, id, peer);
        final long nowNs = System.nanoTime();
        final int outcome = wait.check(nowNs);
        if (SyncWait.PENDING == outcome)
        {
            port.awaitNotifications(wait.sleepNs(nowNs, WAIT_SLICE_NS), this);
        }
        return outcome;
    }

    /** Whether a node left having passed fewer barriers than {@code epoch} (compared modulo the 20-bit field). */
    private boolean leftBefore(final int node, final long epoch)
    {
        return BarrierMailbox.isBefore(leftAfterEpoch[node], epoch);
    }

    private void fail(final String message)
    {
        if (null == broken)
        {
            broken = message;
        }
        throw new ProtocolException(nodeId, message);
    }
}
