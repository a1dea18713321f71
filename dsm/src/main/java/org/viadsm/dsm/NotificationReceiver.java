package org.viadsm.dsm;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.port.NotificationHandler;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;

/**
 * The receiving half of {@link ViaProtocolPort}: the one completion queue every peer's receive queue reports to,
 * the notifications its completed receives carry (each receive is reposted as soon as it is consumed), and the peer
 * failures the NIC reported, handed to the protocol in order. Departures and stops are noted in the port's
 * {@link NodeLoss} as they are taken in, so that a loss is resolved against the notifications that came before it.
 * <p>
 * <b>Note:</b> used by the node's application thread only, except {@link #peerFailed(int, String)}, which the
 * provider's engine thread may call.
 */
final class NotificationReceiver
{
    private final int nodeId;
    private final CompletionQueue recvCq;
    private final SendRing[] peers;
    private final NodeLoss loss;
    private final Completion completion = new Completion();
    private final Queue<String> asyncFailures = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<int[]> early = new ArrayDeque<>();

    NotificationReceiver(final int nodeId, final CompletionQueue recvCq, final SendRing[] peers, final NodeLoss loss)
    {
        this.nodeId = nodeId;
        this.recvCq = recvCq;
        this.peers = peers;
        this.loss = loss;
    }

    CompletionQueue completionQueue()
    {
        return recvCq;
    }

    /** Queues a peer's failure for the application thread; any thread. */
    void peerFailed(final int node, final String reason)
    {
        asyncFailures.add(node + ":" + reason);
    }

    /** The node connected through {@code vi}, or -1. */
    int nodeOf(final Vi vi)
    {
        for (final SendRing peer : peers)
        {
            if (null != peer && peer.vi == vi)
            {
                return peer.node;
            }
        }
        return -1;
    }

    int poll(final NotificationHandler handler)
    {
        int count = 0;
        while (!early.isEmpty())
        {
            final int[] event = early.poll();
            dispatch(event[0], event[1], handler);
            count++;
        }
        String failure;
        while (null != (failure = asyncFailures.poll()))
        {
            final int colon = failure.indexOf(':');
            handler.onPeerFailure(Integer.parseInt(failure.substring(0, colon)), failure.substring(colon + 1));
            count++;
        }
        while (recvCq.done(completion))
        {
            count += deliver(handler);
        }
        return count;
    }

    int await(final long timeoutNs, final NotificationHandler handler)
    {
        final int count = poll(handler);
        if (count > 0)
        {
            return count;
        }
        if (recvCq.await(timeoutNs, completion))
        {
            return deliver(handler) + poll(handler);
        }
        return poll(handler);
    }

    /**
     * Waits for the next completed receive tagged {@code tag} in its user data (a hello), keeping any
     * notification that arrives meanwhile for {@link #poll}.
     *
     * @return the node whose receive completed, or -1 on timeout.
     */
    int awaitTagged(final long tag, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || !recvCq.await(leftNs, completion))
            {
                return -1;
            }
            final Vi vi = completion.vi();
            final Descriptor d = vi.recvDone();
            if (null == d)
            {
                continue;
            }
            final int node = nodeOf(vi);
            if (d.isError())
            {
                throw new ProtocolException(nodeId, "receive from node " + node + " completed with " +
                    DescriptorStatus.toString(d.status()));
            }
            if (d.userData() == tag)
            {
                return node;
            }
            if (Notifications.LEAVE == Notifications.type(d.immediateData()))
            {
                loss.departed(node);
            }
            early.add(new int[] {node, d.immediateData()});
            d.reset();
            vi.postRecv(d.send());
        }
    }

    /**
     * Takes in the receives completed so far, noting departures and reported losses; the protocol gets the
     * notifications later, in order, from {@link #poll}.
     */
    void takeIn()
    {
        while (recvCq.done(completion))
        {
            final Vi vi = completion.vi();
            final Descriptor d = vi.recvDone();
            if (null == d || d.isError())
            {
                continue;
            }
            final int node = nodeOf(vi);
            final int notification = d.immediateData();
            switch (Notifications.type(notification))
            {
                case Notifications.LEAVE:
                    loss.departed(node);
                    break;
                case Notifications.STOPPED:
                    loss.reported(node, Notifications.argument(notification));
                    break;
                default:
                    break;
            }
            early.add(new int[] {node, notification});
            d.reset();
            vi.postRecv(d.send());
        }
    }

    private int deliver(final NotificationHandler handler)
    {
        final Vi vi = completion.vi();
        final Descriptor d = vi.recvDone();
        if (null == d)
        {
            return 0;
        }
        final int node = nodeOf(vi);
        final int status = d.status();
        if (DescriptorStatus.isError(status))
        {
            final String failure = "receive completed with " + DescriptorStatus.toString(status);
            if (0 != (status & (DescriptorStatus.DESC_FLUSHED_ERROR | DescriptorStatus.TRANSPORT_ERROR)))
            {
                loss.connectionFailed(node, "its connection failed (a " + failure + ")");
            }
            handler.onPeerFailure(node, failure);
            return 1;
        }
        final int notification = d.immediateData();
        d.reset();
        vi.postRecv(d.send());
        dispatch(node, notification, handler);
        return 1;
    }

    /**
     * Hands a notification to the protocol, after noting a departure (a peer that announced it closes its
     * connections afterwards, which is no loss) or taking a stop (a peer that lost a node) for itself.
     */
    private void dispatch(final int node, final int notification, final NotificationHandler handler)
    {
        switch (Notifications.type(notification))
        {
            case Notifications.LEAVE:
                loss.departed(node);
                handler.onNotification(node, notification);
                break;
            case Notifications.STOPPED:
                final int lost = Notifications.argument(notification);
                loss.reported(node, lost);
                handler.onPeerFailure(node, "it stopped after losing node " + lost);
                break;
            default:
                handler.onNotification(node, notification);
        }
    }
}
