package org.viadsm.consistency.sync;

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
 * a {@link ProtocolException} naming the peer when a node it depends on fails or leaves, and after the
 * configured synchronization timeout.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SyncState implements NotificationHandler
{
    private static final int NO_GRANT = -1;
    private static final long WAIT_SLICE_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ProtocolPort port;
    private final Counters counters;
    private final int nodeId;
    private final long syncTimeoutNs;
    private final boolean[] barrierArrived = new boolean[2 * ControlRegionLayout.MAX_ROUNDS];
    private final boolean[] left;
    private final String[] failures;
    private final IdleStrategy idle = new BackoffIdleStrategy(
        200, 0, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(200));
    private int grantedLock = NO_GRANT;
    private int leftCount;
    private int failedCount;

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
        this.left = new boolean[port.nodeCount()];
        this.failures = new String[port.nodeCount()];
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
                barrierArrived[barrierSlot(argument >>> 8, argument & 0xFF)] = true;
                break;
            case Notifications.LEAVE:
                if (!left[fromNode])
                {
                    left[fromNode] = true;
                    leftCount++;
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
                throw new ProtocolException(nodeId, "waited for lock " + lockId + " but was granted lock " +
                    grantedLock);
            }
            checkFailures(false, startNs, "lock ", lockId, predecessor);
            port.awaitNotifications(WAIT_SLICE_NS, this);
        }
        grantedLock = NO_GRANT;
    }

    /**
     * Waits for a barrier round's message.
     *
     * @param parity the epoch parity.
     * @param round  the round.
     * @param from   the node that sends it.
     * @param epoch  the barrier's number, for messages.
     */
    public void awaitBarrier(final int parity, final int round, final int from, final long epoch)
    {
        final int slot = barrierSlot(parity, round);
        final long startNs = System.nanoTime();
        while (!barrierArrived[slot])
        {
            checkFailures(true, startNs, "barrier ", epoch, from);
            port.awaitNotifications(WAIT_SLICE_NS, this);
        }
        barrierArrived[slot] = false;
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
            checkFailures(false, startNs, activity, id, -1);
            idle.idle();
        }
        return value;
    }

    /**
     * Backs off between polls of remote state (semaphore counts), checking failures.
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
        checkFailures(false, startNs, activity, id, -1);
        if (leftCount + failedCount == port.nodeCount() - 1)
        {
            throw new ProtocolException(nodeId, "every other node has left while this node waited for " + activity +
                id);
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
        while (leftCount + failedCount < port.nodeCount() - 1)
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
        return left[node];
    }

    private void checkFailures(
        final boolean leavingFails, final long startNs, final String activity, final long id, final int peer)
    {
        if (failedCount > 0 || (leavingFails && leftCount > 0))
        {
            for (int node = 0; node < failures.length; node++)
            {
                if (null != failures[node])
                {
                    throw new ProtocolException(nodeId, "node " + node + " failed (" + failures[node] +
                        ") while this node waited for " + activity + id);
                }
                if (leavingFails && left[node])
                {
                    throw new ProtocolException(nodeId, "node " + node + " left the cluster while this node " +
                        "waited for " + activity + id);
                }
            }
        }
        if (Long.MAX_VALUE != syncTimeoutNs && System.nanoTime() - startNs > syncTimeoutNs)
        {
            throw new ProtocolException(nodeId, "timed out after " +
                TimeUnit.NANOSECONDS.toMillis(syncTimeoutNs) + " ms waiting for " + activity + id +
                (peer >= 0 ? " from node " + peer : ""));
        }
    }

    private static int barrierSlot(final int parity, final int round)
    {
        return parity * ControlRegionLayout.MAX_ROUNDS + round;
    }
}
