package org.viadsm.via.provider.tcp;

import java.util.ArrayList;

import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;


/**
 * The steps of the connection handshake that frames and connects drive, on whichever thread polls the NIC: sending
 * a request once its connection is up, taking an accept, a refusal or a deferral, keeping or deferring incoming
 * requests, and turning a channel into a VI's {@link TcpConnection} once both sides agree.
 * <p>
 * <b>Note:</b> the {@code on*} methods that take a channel run under that channel's lock.
 */
final class ConnectionSetup
{
    private final EngineNic nic;
    private final TcpEngine engine;
    private final RequestTable table;
    private final PeerMatcher matcher;

    ConnectionSetup(final EngineNic nic, final TcpEngine engine, final RequestTable table)
    {
        this.nic = nic;
        this.engine = engine;
        this.table = table;
        this.matcher = new PeerMatcher(nic, table, this);
    }

    PeerMatcher matcher()
    {
        return matcher;
    }

    TcpChannel.Handler newIncoming()
    {
        return new IncomingRequest(this);
    }

    boolean attach(final PendingRequest request, final TcpChannel channel)
    {
        return table.attach(request, channel);
    }

    /**
     * Connects again the requests whose retry time came.
     *
     * @return the number of connections opened.
     */
    int onTimer(final long nowNs)
    {
        final ArrayList<PendingRequest> due = table.due(nowNs);
        if (null == due)
        {
            return 0;
        }
        for (final PendingRequest request : due)
        {
            engine.open(request);
        }
        return due.size();
    }

    /**
     * The request's connection is up: sends the request.
     */
    void onOutgoingConnected(final PendingRequest request, final TcpChannel channel)
    {
        request.onReached();
        if (!table.isOutgoing(request, channel) || !request.isPending())
        {
            channel.close();
            return;
        }
        ViDescription.send(channel, request.isPeer() ? FrameLayout.TYPE_PEER_REQUEST : FrameLayout.TYPE_CLIENT_REQUEST,
            nic, request.vi(), 0, request.sequence(), request.discriminator());
    }

    void onOutgoingLost(final PendingRequest request, final TcpChannel channel, final boolean connected)
    {
        table.onOutgoingLost(request, channel, connected);
    }

    /**
     * The answering VI accepted: settle the connect word and connect, unless the request is over (then decline).
     */
    void onAccepted(final PendingRequest request, final TcpChannel channel, final ViDescription answer)
    {
        final boolean won = request.vi().settle(request.sequence(), answer.viId, ViConnection.CONNECT_ACCEPTED);
        table.handOver(request, channel);
        if (!won)
        {
            ViDescription.sendBare(channel, FrameLayout.TYPE_DECLINE, request.vi().id(), answer.viId,
                request.sequence());
            channel.shutdownAfterFlush(new DrainingHandler(FrameLayout.HEADER_LENGTH));
            return;
        }
        establish(request.vi(), channel, answer, request.address(), true);
    }

    /**
     * The request was rejected, or the levels differ.
     */
    void onAnswered(final PendingRequest request, final TcpChannel channel, final int result)
    {
        request.vi().settle(request.sequence(), 0, result);
        table.closeOutgoing(request, channel);
    }

    /**
     * The peer's NIC matches the other way round: this request's connection is not needed.
     */
    void onDeferred(final PendingRequest request, final TcpChannel channel)
    {
        table.closeOutgoing(request, channel);
    }

    /**
     * A request arrived: a client's waits for {@code connectWait}; a peer request from a NIC with a smaller id is
     * deferred (that NIC matches), any other is kept for matching.
     */
    void onRequest(final IncomingRequest request)
    {
        if (FrameLayout.TYPE_CLIENT_REQUEST == request.type)
        {
            table.addClientRequest(request);
        }
        else if (request.requester.nicId < nic.nicId())
        {
            ViDescription.sendBare(request.channel, FrameLayout.TYPE_DEFER, 0, request.requester.viId,
                request.requester.sequence);
            request.channel.shutdownAfterFlush(new DrainingHandler(FrameLayout.HEADER_LENGTH));
        }
        else
        {
            matcher.onPeerRequest(request);
        }
    }

    /**
     * The requester took this NIC's accept: connect the answering VI, if it still waits (a peer-to-peer match
     * settles its own request now).
     */
    void onConfirmed(final IncomingRequest request)
    {
        final ViConnection vi = request.answeringVi;
        final PendingRequest local = table.localRequestOf(request);
        final boolean live = null == local ?
            vi.isConnectPending() :
            vi.settle(local.sequence(), request.requester.viId, ViConnection.CONNECT_ACCEPTED);
        final TcpChannel superseded = null == local ? null : table.onConfirmed(local, request, live);
        if (!live)
        {
            request.state = IncomingRequest.FAILED;
            request.channel.close();
            return;
        }
        if (null != superseded)
        {
            superseded.close();
        }
        establish(vi, request.channel, request.requester, null == local ? request.requester.address : local.address(),
            false);
        request.state = IncomingRequest.ESTABLISHED;
    }

    /**
     * An incoming request's connection closed or failed, or the requester declined.
     */
    void onIncomingLost(final IncomingRequest request)
    {
        if (IncomingRequest.ACCEPTING == request.state)
        {
            request.state = IncomingRequest.FAILED;
        }
        table.onIncomingLost(request);
    }

    /**
     * Sends the accept of a VI; the confirmation comes later.
     *
     * @return false if the requester is gone.
     */
    boolean sendAccept(final IncomingRequest request, final ViConnection vi)
    {
        request.channel.lock();
        try
        {
            if (request.channel.isClosed())
            {
                return false;
            }
            request.answeringVi = vi;
            request.state = IncomingRequest.ACCEPTING;
            ViDescription.send(request.channel, FrameLayout.TYPE_ACCEPT, nic, vi, request.requester.viId,
                request.requester.sequence, request.requester.discriminator);
            return !request.channel.isClosed();
        }
        finally
        {
            request.channel.unlock();
        }
    }

    /**
     * Answers a request with a frame that ends the handshake, then ends the connection.
     */
    void answerBare(final IncomingRequest request, final int type, final int sourceVi)
    {
        request.channel.lock();
        try
        {
            if (!request.channel.isClosed())
            {
                ViDescription.sendBare(request.channel, type, sourceVi, request.requester.viId,
                    request.requester.sequence);
                request.channel.shutdownAfterFlush(new DrainingHandler(FrameLayout.HEADER_LENGTH));
            }
        }
        finally
        {
            request.channel.unlock();
        }
    }

    /**
     * The server gives up waiting for the confirmation.
     *
     * @return true if the confirmation came after all.
     */
    boolean abandonAccept(final IncomingRequest request)
    {
        request.channel.lock();
        try
        {
            if (IncomingRequest.ACCEPTING == request.state)
            {
                request.state = IncomingRequest.FAILED;
                request.channel.close();
            }
            return IncomingRequest.ESTABLISHED == request.state;
        }
        finally
        {
            request.channel.unlock();
        }
    }

    /**
     * Turns a channel into a VI's connection. The requester, whose connect word is settled but whose VI is not yet
     * connected, confirms first, so that the confirmation precedes anything the VI sends once connected.
     *
     * @param confirm true on the requesting side.
     */
    private void establish(
        final ViConnection vi,
        final TcpChannel channel,
        final ViDescription peer,
        final String address,
        final boolean confirm)
    {
        final int maxTransfer = Math.min(vi.maxTransfer(), peer.maxTransfer);
        final TcpConnection connection = new TcpConnection(nic, vi, channel, peer.viId, maxTransfer);
        vi.onConnected(connection, address, peer.attributes());
        channel.handler(connection);
        if (confirm)
        {
            ViDescription.sendBare(channel, FrameLayout.TYPE_CONFIRM, vi.id(), peer.viId, peer.sequence);
        }
        engine.pollable(channel);
        if (!vi.establish(peer.nicId, peer.viId, maxTransfer))
        {
            connection.disconnect("VI " + vi.id() + " of " + nic.address() + " stopped connecting");
        }
    }
}
