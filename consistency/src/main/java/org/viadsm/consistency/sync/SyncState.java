package org.viadsm.consistency.sync;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.viadsm.consistency.ControlRegionLayout;
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
 * longer consistent.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SyncState implements NotificationHandler
{
    /** Barrier kind of {@link BarrierProtocol#barrier()}. */
    public static final int FULL_BARRIER = 0;
    /** Barrier kind of {@link BarrierProtocol#syncBarrier()}. */
    public static final int SYNC_BARRIER = 1;

    private static final int NO_GRANT = -1;
    private static final int EPOCH_MASK = (1 << 20) - 1;
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ProtocolPort port;
    private final Counters counters;
    private final int nodeId;
    private final long syncTimeoutNs;
    private final byte[] barrierArrived = new byte[2 * ControlRegionLayout.MAX_ROUNDS];
    private final long[] leftAfterEpoch;
    private final String[] failures;
    private final boolean[] gone;
    private final IdleStrategy idle = new BackoffIdleStrategy(
        200, 0, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(200));
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
        return (int)(epoch & EPOCH_MASK);
    }

    /**
     * The argument of a barrier round message.
     *
     * @param kind   {@link #FULL_BARRIER} or {@link #SYNC_BARRIER}.
     * @param parity the epoch parity.
     * @param round  the round.
     * @return the notification argument.
     */
    public static int barrierArgument(final int kind, final int parity, final int round)
    {
        return kind << 9 | parity << 8 | round;
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
                barrierArrived[barrierSlot((argument >>> 8) & 1, argument & 0xFF)] = (byte)(1 + (argument >>> 9));
                break;
            case Notifications.LEAVE:
                if (leftAfterEpoch[fromNode] < 0)
                {
                    leftAfterEpoch[fromNode] = argument;
                    markGone(fromNode);
                }
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
     * Waits for the grant of a lock, which the predecessor in its queue sends.
     *
     * @param lockId      the lock.
     * @param predecessor the node expected to grant it.
     */
    public void awaitGrant(final int lockId, final int predecessor)
    {
        final long startNs = System.nanoTime();
        while (grantedLock != lockId)
        {
            if (NO_GRANT != grantedLock)
            {
                fail("waited for lock " + lockId + " but was granted lock " + grantedLock);
            }
            checkFailures(-1, startNs, "lock ", lockId, predecessor);
            if (gone[predecessor])
            {
                fail("node " + predecessor + " left the cluster without granting lock " + lockId + " to this node");
            }
            port.awaitNotifications(WAIT_SLICE_NS, this);
        }
        grantedLock = NO_GRANT;
    }

    /**
     * Waits for a barrier round's message.
     *
     * @param kind   {@link #FULL_BARRIER} or {@link #SYNC_BARRIER}: what this node is doing.
     * @param parity the epoch parity.
     * @param round  the round.
     * @param from   the node that sends it.
     * @param epoch  the barrier's number.
     */
    public void awaitBarrier(final int kind, final int parity, final int round, final int from, final long epoch)
    {
        final int slot = barrierSlot(parity, round);
        final long startNs = System.nanoTime();
        while (0 == barrierArrived[slot])
        {
            checkFailures(epoch, startNs, "barrier ", epoch, from);
            port.awaitNotifications(WAIT_SLICE_NS, this);
        }
        final int arrivedKind = barrierArrived[slot] - 1;
        barrierArrived[slot] = 0;
        if (arrivedKind != kind)
        {
            fail("node " + from + " is in " + kindName(arrivedKind) + " while this node is in " + kindName(kind) +
                " (barrier " + epoch + "); every node must make the same collective calls in the same order");
        }
    }

    /**
     * Waits until a word of this node's own memory, written one-sided by a peer, becomes non-zero.
     *
     * @param buffer   the memory.
     * @param offset   the word.
     * @param activity what is awaited, for messages.
     * @param id       the lock or semaphore concerned, for messages.
     * @return the word's value.
     */
    public long awaitLocalWord(final AtomicBuffer buffer, final int offset, final String activity, final long id)
    {
        final long startNs = System.nanoTime();
        idle.reset();
        long value;
        while (0L == (value = buffer.getLongVolatile(offset)))
        {
            port.pollNotifications(this);
            checkFailures(-1, startNs, activity, id, -1);
            idle.idle();
        }
        return value;
    }

    /**
     * Backs off between polls of remote state (semaphore counts), checking failures; fails when every other node
     * has gone, since none can post.
     *
     * @param startNs  when the wait began.
     * @param activity what is awaited, for messages.
     * @param id       the semaphore concerned.
     * @param first    whether this is the first poll of the wait.
     */
    public void pollPause(final long startNs, final String activity, final long id, final boolean first)
    {
        if (first)
        {
            idle.reset();
        }
        port.pollNotifications(this);
        checkFailures(-1, startNs, activity, id, -1);
        if (goneCount == port.nodeCount() - 1 && port.nodeCount() > 1)
        {
            fail("every other node has left while this node waited for " + activity + id);
        }
        idle.idle();
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

    /** Whether a node left having passed fewer barriers than {@code epoch} (compared modulo the 20-bit field). */
    private boolean leftBefore(final int node, final long epoch)
    {
        final int behind = (int)((epoch - leftAfterEpoch[node]) & EPOCH_MASK);
        return behind != 0 && behind < (EPOCH_MASK >> 1);
    }

    private void fail(final String message)
    {
        if (null == broken)
        {
            broken = message;
        }
        throw new ProtocolException(nodeId, message);
    }

    private static String kindName(final int kind)
    {
        return FULL_BARRIER == kind ? "a barrier" : "an allocation or another collective";
    }

    private static int barrierSlot(final int parity, final int round)
    {
        return parity * ControlRegionLayout.MAX_ROUNDS + round;
    }
}
