package org.viadsm.via.provider.tcp;

import java.util.ArrayList;
import java.util.Iterator;

/**
 * The connection requests of a tcp NIC: the one each VI makes (client or peer to peer) with its connection and its
 * retry time, and the requests other NICs sent to this one, waiting to be answered (client requests until a
 * {@code connectWait} takes them, peer requests until a VI of this NIC matches them).
 * <p>
 * <b>Note:</b> thread-safe, guarded by this object's monitor, which {@link PeerMatcher} shares. Nothing holding it
 * takes a channel's lock (a channel's lock comes first); channels are closed after it is released.
 */
final class RequestTable
{
    private final PendingRequest[] requests;
    private final ArrayList<IncomingRequest> clientRequests = new ArrayList<>();
    private final ArrayList<IncomingRequest> peerRequests = new ArrayList<>();
    private final long retryNs;
    private int retries;

    RequestTable(final int maxVis, final long retryNs)
    {
        this.requests = new PendingRequest[maxVis];
        this.retryNs = retryNs;
    }

    int maxVis()
    {
        return requests.length;
    }

    /**
     * Makes a request the VI's own; the previous one, if any, is forgotten.
     */
    void register(final PendingRequest request)
    {
        final PendingRequest previous;
        synchronized (this)
        {
            previous = requests[request.vi().id()];
            requests[request.vi().id()] = request;
        }
        if (null != previous)
        {
            forget(previous);
        }
    }

    synchronized PendingRequest request(final int viId)
    {
        return requests[viId];
    }

    /**
     * The request of a VI; the caller holds this object's monitor.
     */
    PendingRequest requestOf(final int viId)
    {
        return requests[viId];
    }

    /**
     * The peer requests kept for matching; the caller holds this object's monitor.
     */
    ArrayList<IncomingRequest> peerRequests()
    {
        return peerRequests;
    }

    /**
     * A connection is being opened for a request.
     *
     * @return false if the request is over and the connection must not be made.
     */
    synchronized boolean attach(final PendingRequest request, final TcpChannel channel)
    {
        if (requests[request.vi().id()] != request || !request.isPending() || null != request.outgoing)
        {
            return false;
        }
        request.outgoing = channel;
        return true;
    }

    synchronized boolean isOutgoing(final PendingRequest request, final TcpChannel channel)
    {
        return request.outgoing == channel;
    }

    /**
     * The requests whose retry time came and that still need a connection.
     *
     * @return the requests, or null if none.
     */
    ArrayList<PendingRequest> due(final long nowNs)
    {
        if (0 == retries)
        {
            return null;
        }
        final ArrayList<PendingRequest> due = new ArrayList<>();
        synchronized (this)
        {
            for (final PendingRequest request : requests)
            {
                if (null != request && 0 != request.retryAtNs && nowNs - request.retryAtNs >= 0)
                {
                    request.retryAtNs = 0;
                    retries--;
                    if (request.isPending() && !request.isPastDeadline(nowNs))
                    {
                        due.add(request);
                    }
                }
            }
        }
        return due;
    }

    /**
     * The request's connection failed or closed before an answer: a client whose server closed it fails, anything
     * else connects again after the retry pause.
     *
     * @param channel   the connection, or null if it was never made.
     * @param connected whether it had been established.
     */
    synchronized void onOutgoingLost(final PendingRequest request, final TcpChannel channel, final boolean connected)
    {
        if (null != channel && request.outgoing != channel || null == channel && null == request.outgoing)
        {
            return;
        }
        request.outgoing = null;
        if (!request.isPeer() && connected)
        {
            request.wentAway = true;
        }
        else if (0 == request.retryAtNs && request.isPending())
        {
            request.retryAtNs = System.nanoTime() + retryNs;
            retries++;
        }
    }

    /**
     * The request's connection now belongs to its VI (or is being ended by the handshake): the request lets it go.
     */
    synchronized void handOver(final PendingRequest request, final TcpChannel channel)
    {
        if (request.outgoing == channel)
        {
            request.outgoing = null;
        }
    }

    /**
     * The request's connection ends without an answer that connects (a refusal, a deferral).
     */
    void closeOutgoing(final PendingRequest request, final TcpChannel channel)
    {
        handOver(request, channel);
        channel.close();
    }

    /**
     * The request is over: its connection closes unless it became the VI's, and a match it was part of ends. A
     * completed peer request stays, so that {@code connectPeerDone} keeps saying so.
     */
    void forget(final PendingRequest request)
    {
        final TcpChannel outgoing;
        final IncomingRequest matching;
        synchronized (this)
        {
            if (requests[request.vi().id()] == request && !request.isCompleted())
            {
                requests[request.vi().id()] = null;
            }
            outgoing = request.outgoing;
            request.outgoing = null;
            matching = request.matching;
            request.matching = null;
            if (0 != request.retryAtNs)
            {
                request.retryAtNs = 0;
                retries--;
            }
        }
        if (null != outgoing)
        {
            outgoing.close();
        }
        if (null != matching && IncomingRequest.ESTABLISHED != matching.state)
        {
            matching.channel.close();
        }
    }

    synchronized void addClientRequest(final IncomingRequest request)
    {
        clientRequests.add(request);
    }

    /**
     * Takes the oldest client request with the discriminator whose client is still there.
     *
     * @return the request, or null.
     */
    IncomingRequest takeClientRequest(final long discriminator)
    {
        while (true)
        {
            IncomingRequest found = null;
            synchronized (this)
            {
                final Iterator<IncomingRequest> it = clientRequests.iterator();
                while (it.hasNext())
                {
                    final IncomingRequest request = it.next();
                    if (request.channel.isClosed())
                    {
                        it.remove();
                    }
                    else if (request.requester.discriminator == discriminator)
                    {
                        it.remove();
                        found = request;
                        break;
                    }
                }
            }
            if (null == found || found.isAlive())
            {
                return found;
            }
        }
    }

    synchronized void checkNotAnswered(final IncomingRequest request)
    {
        if (request.answered)
        {
            throw new IllegalStateException(
                "connection request from " + request.requester.address + " was already answered");
        }
    }

    synchronized void markAnswered(final IncomingRequest request)
    {
        checkNotAnswered(request);
        request.answered = true;
    }

    synchronized PendingRequest localRequestOf(final IncomingRequest request)
    {
        return request.localRequest;
    }

    /**
     * Peer to peer, matching side: the requester confirmed. The match is over; if this NIC's request was still
     * pending ({@code live}), its own connection is no longer needed.
     *
     * @return that connection, to close, or null.
     */
    synchronized TcpChannel onConfirmed(final PendingRequest local, final IncomingRequest request, final boolean live)
    {
        if (local.matching == request)
        {
            local.matching = null;
        }
        if (!live)
        {
            return null;
        }
        final TcpChannel superseded = local.outgoing;
        local.outgoing = null;
        return superseded;
    }

    /**
     * An incoming request's connection closed or failed, or the requester declined: forget it, and free the VI
     * whose accept it was awaiting.
     */
    synchronized void onIncomingLost(final IncomingRequest request)
    {
        clientRequests.remove(request);
        peerRequests.remove(request);
        final PendingRequest local = request.localRequest;
        if (null != local && local.matching == request)
        {
            local.matching = null;
        }
    }

    /**
     * Peer to peer, matching side: the accept could not go out; the VI's request may match again.
     */
    synchronized void unmatch(final PendingRequest local, final IncomingRequest request)
    {
        if (local.matching == request)
        {
            local.matching = null;
        }
    }
}
