package org.viadsm.via.provider.tcp;

import java.util.ArrayList;
import java.util.Iterator;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineVi;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViRecord;
import org.viadsm.via.engine.ViRecordLayout;

import static org.viadsm.via.engine.ViRecordLayout.RESULT_ABANDONED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_ACCEPTED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_NO_MATCH;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_REJECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * Connection management of a tcp NIC, mapped onto TCP connects and a handshake on the connection that becomes the
 * VI's: the requester connects and sends its request (a description of its VI); the answering NIC accepts with a
 * description of its own VI, or rejects; the requester settles its connect word and confirms, and both VIs are
 * connected. A connection to a NIC that does not listen yet is retried until the request's timeout, since the
 * nodes of a cluster start at different moments: only then does the request fail, with
 * {@link ViaError#NOT_REACHABLE}.
 * <p>
 * Peer to peer, both sides send a request and the NIC with the smaller id matches: it keeps the requests of larger
 * NICs until one of its VIs makes the matching request (same discriminator, naming the requester's address), and
 * answers them; a larger NIC answers a smaller one's request with a deferral, and its VI waits for the smaller one
 * to answer its own. On one NIC the VI with the smaller id matches.
 * <p>
 * <b>Note:</b> thread-safe. Lock order: a channel's lock before this object's; nothing holding this object's
 * monitor takes a channel's.
 */
final class TcpConnector implements Connector
{
    static final long ESTABLISH_TIMEOUT_NS = 30_000_000_000L;

    private final TcpNic nic;
    private final TcpEngine engine;
    private final long retryNs = TcpConfiguration.connectRetryNs();
    private final PendingRequest[] requests;
    private final ArrayList<IncomingRequest> clientRequests = new ArrayList<>();
    private final PeerMatcher matcher;
    private int retries;

    TcpConnector(final TcpNic nic, final TcpEngine engine)
    {
        this.nic = nic;
        this.engine = engine;
        this.requests = new PendingRequest[nic.attributes().maxVis()];
        this.matcher = new PeerMatcher(this);
    }

    TcpChannel.Handler newIncoming()
    {
        return new IncomingRequest(this);
    }

    @Override
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        do
        {
            final IncomingRequest request = takeClientRequest(discriminator);
            if (null != request)
            {
                idler.finish();
                return new TcpConnectRequest(this, request);
            }
        }
        while (idler.idle(null));
        checkNicOpen();
        throw new ViaException(ViaError.TIMEOUT, "no connection request with discriminator " + discriminator +
            " reached " + nic.address() + " within " + timeoutNs + " ns");
    }

    /**
     * {@inheritDoc}
     * <p>
     * A refused connection is retried every {@link TcpConfiguration#connectRetryNs()} until the timeout; the
     * request then fails with {@link ViaError#NOT_REACHABLE} if no connection succeeded, else with
     * {@link ViaError#TIMEOUT}.
     */
    @Override
    public void connectRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final PendingRequest request = begin(vi, address, discriminator, timeoutNs, false);
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        engine.connect(request);
        final ViRecord record = vi.record();
        long word;
        while (RESULT_PENDING == ViRecordLayout.connectResult(word = record.connectWord()))
        {
            if (request.wentAway)
            {
                giveUp(request, ViaError.NOT_REACHABLE, address + " closed the connection without answering the " +
                    "request of VI " + vi.id());
            }
            else if (!idler.idle(null))
            {
                checkNicOpen();
                giveUp(request, unanswered(request), request.reached ?
                    address + " did not answer the connection request of VI " + vi.id() :
                    "no NIC listens at " + address + ": connections were refused for " + timeoutNs + " ns");
            }
        }
        idler.finish();
        final int result = ViRecordLayout.connectResult(word);
        if (RESULT_ACCEPTED == result)
        {
            awaitEstablished(request);
            forget(request);
            return;
        }
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        forget(request);
        switch (result)
        {
            case RESULT_REJECTED:
                throw new ViaException(ViaError.REJECT, address + " rejected the connection request of VI " +
                    vi.id() + " with discriminator " + discriminator);
            case RESULT_NO_MATCH:
                throw new ViaException(ViaError.NO_MATCH, address + " cannot connect VI " + vi.id() +
                    ": reliability levels differ");
            default:
                throw new ViaException(ViaError.NOT_REACHABLE, "connection request of VI " + vi.id() +
                    " was abandoned (the VI disconnected)");
        }
    }

    void accept(final TcpConnectRequest answer, final Vi vi)
    {
        final IncomingRequest request = answer.request;
        checkNotAnswered(request);
        final EngineVi server = nic.ownVi(vi);
        final ViRecord record = server.record();
        if (!record.beginConnect(server.nextConnectSequence()))
        {
            throw new IllegalStateException("VI " + server.id() + " is not idle: " +
                ViRecordLayout.viState(record.state()));
        }
        try
        {
            markAnswered(request);
            if (request.requester.reliability != server.reliability().vipValue())
            {
                answerBare(request, FrameLayout.TYPE_NO_MATCH, server.id());
                throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                    ", the request from " + request.requester.address + " is " +
                    request.requester.attributes().reliabilityLevel());
            }
            if (!sendAccept(request, server))
            {
                throw clientGone(request);
            }
            final Idler idler = new Idler(nic);
            idler.start(ESTABLISH_TIMEOUT_NS);
            while (IncomingRequest.ACCEPTING == request.state && idler.idle(null))
            {
                Thread.onSpinWait();
            }
            idler.finish();
            if (IncomingRequest.ESTABLISHED != request.state && !abandonAccept(request))
            {
                throw clientGone(request);
            }
        }
        catch (final RuntimeException ex)
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            throw ex;
        }
    }

    void reject(final TcpConnectRequest answer)
    {
        markAnswered(answer.request);
        answerBare(answer.request, FrameLayout.TYPE_REJECT, 0);
    }

    @Override
    public void connectPeerRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final PendingRequest request = begin(vi, address, discriminator, timeoutNs, true);
        if (!matcher.matchAll(request))
        {
            engine.connect(request);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * The request fails with {@link ViaError#NOT_REACHABLE} only once its timeout ran out without any connection
     * to the peer's NIC succeeding; refused connections are retried meanwhile.
     */
    @Override
    public boolean connectPeerDone(final EngineVi vi)
    {
        final PendingRequest request;
        synchronized (this)
        {
            request = requests[vi.id()];
        }
        if (null == request || !request.peer)
        {
            throw new IllegalStateException("VI " + vi.id() + " has no peer connection request");
        }
        if (request.completed)
        {
            return true;
        }
        matcher.matchAll(null);
        final ViRecord record = vi.record();
        final long word = record.connectWord();
        switch (ViRecordLayout.connectResult(word))
        {
            case RESULT_PENDING:
                if (request.isPastDeadline(System.nanoTime()))
                {
                    giveUp(request, unanswered(request), request.reached ?
                        "no peer matched the request of VI " + vi.id() + " to " + request.address +
                        " with discriminator " + request.discriminator :
                        "no NIC listened at " + request.address + " before the request of VI " + vi.id() +
                        " timed out");
                }
                return false;
            case RESULT_ACCEPTED:
                final int state = record.state();
                if (STATE_CONNECTED == state || STATE_ERROR == state)
                {
                    request.completed = true;
                    return true;
                }
                if (STATE_CONNECT_PENDING == state)
                {
                    return false;
                }
                forget(request);
                throw new ViaException(ViaError.NOT_REACHABLE, "the peer at " + request.address +
                    " could not complete the connection of VI " + vi.id());
            case RESULT_NO_MATCH:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                forget(request);
                throw new ViaException(ViaError.NO_MATCH, "the peer at " + request.address + " has another " +
                    "reliability level than VI " + vi.id() + " (" + vi.reliability() + ")");
            default:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                forget(request);
                throw new ViaException(ViaError.NOT_REACHABLE, "peer connection request of VI " + vi.id() +
                    " was abandoned");
        }
    }

    @Override
    public void connectPeerWait(final EngineVi vi, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        while (!connectPeerDone(vi))
        {
            if (!idler.idle(null))
            {
                checkNicOpen();
                throw new ViaException(ViaError.TIMEOUT, "peer connection of VI " + vi.id() +
                    " did not complete within " + timeoutNs + " ns");
            }
        }
        idler.finish();
    }

    @Override
    public int abandon(final EngineVi vi)
    {
        final PendingRequest request;
        synchronized (this)
        {
            request = requests[vi.id()];
        }
        final ViRecord record = vi.record();
        final int sequence = ViRecordLayout.connectSequence(record.connectWord());
        if (record.settle(sequence, 0, RESULT_ABANDONED) ||
            RESULT_ACCEPTED != ViRecordLayout.connectResult(record.connectWord()))
        {
            if (null != request)
            {
                forget(request);
            }
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            return record.state();
        }
        final Idler idler = new Idler(nic);
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (STATE_CONNECT_PENDING == record.state() && idler.idle(null))
        {
            Thread.onSpinWait();
        }
        if (null != request)
        {
            forget(request);
        }
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        return record.state();
    }

    /**
     * Engine thread: connects again the requests whose retry time came.
     *
     * @return the number of connections opened.
     */
    int onTimer(final long nowNs)
    {
        if (0 == retries)
        {
            return 0;
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
        for (final PendingRequest request : due)
        {
            engine.open(request);
        }
        return due.size();
    }

    /**
     * Engine thread: a connection is being opened for a request.
     *
     * @return false if the request is over and the connection must not be made.
     */
    synchronized boolean attach(final PendingRequest request, final TcpChannel channel)
    {
        if (requests[request.vi.id()] != request || !request.isPending() || null != request.outgoing)
        {
            return false;
        }
        request.outgoing = channel;
        return true;
    }

    /**
     * Engine thread, under the channel's lock: the request's connection is up; sends the request.
     */
    void onOutgoingConnected(final PendingRequest request, final TcpChannel channel)
    {
        request.reached = true;
        synchronized (this)
        {
            if (request.outgoing != channel || !request.isPending())
            {
                channel.close();
                return;
            }
        }
        ViDescription.send(channel, request.peer ? FrameLayout.TYPE_PEER_REQUEST : FrameLayout.TYPE_CLIENT_REQUEST,
            nic, request.vi, 0, request.sequence, request.discriminator);
    }

    /**
     * Engine thread: the request's connection failed or closed before an answer; a client whose server closed it
     * fails, anything else connects again after the retry pause.
     *
     * @param channel   the connection, or null if it was never made.
     * @param connected whether it had been established.
     */
    void onOutgoingLost(final PendingRequest request, final TcpChannel channel, final boolean connected)
    {
        synchronized (this)
        {
            if (null != channel && request.outgoing != channel || null == channel && null == request.outgoing)
            {
                return;
            }
            request.outgoing = null;
            if (!request.peer && connected)
            {
                request.wentAway = true;
            }
            else if (0 == request.retryAtNs && request.isPending())
            {
                request.retryAtNs = System.nanoTime() + retryNs;
                retries++;
            }
        }
    }

    /**
     * Engine thread, under the channel's lock: the answering VI accepted; connect unless the request is over.
     */
    void onAccepted(final PendingRequest request, final TcpChannel channel, final ViDescription answer)
    {
        final boolean won = request.vi.record().settle(request.sequence, answer.viId, RESULT_ACCEPTED);
        synchronized (this)
        {
            if (request.outgoing == channel)
            {
                request.outgoing = null;
            }
        }
        if (!won)
        {
            ViDescription.sendBare(channel, FrameLayout.TYPE_DECLINE, request.vi.id(), answer.viId,
                request.sequence);
            channel.shutdownAfterFlush(new DrainingHandler(FrameLayout.HEADER_LENGTH));
            return;
        }
        establish(request.vi, channel, answer, request.address, true);
    }

    /**
     * Engine thread, under the channel's lock: the request was rejected or the levels differ.
     */
    void onAnswered(final PendingRequest request, final TcpChannel channel, final int result)
    {
        request.vi.record().settle(request.sequence, 0, result);
        closeOutgoing(request, channel);
    }

    /**
     * Engine thread, under the channel's lock: the peer's NIC matches the other way round.
     */
    void onDeferred(final PendingRequest request, final TcpChannel channel)
    {
        closeOutgoing(request, channel);
    }

    /**
     * Engine thread, under the channel's lock: a request arrived.
     */
    void onRequest(final IncomingRequest request)
    {
        if (FrameLayout.TYPE_CLIENT_REQUEST == request.type)
        {
            synchronized (this)
            {
                clientRequests.add(request);
            }
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
     * Engine thread, under the channel's lock: the requester took this NIC's accept.
     */
    void onConfirmed(final IncomingRequest request)
    {
        final EngineVi vi = request.answeringVi;
        final PendingRequest local;
        synchronized (this)
        {
            local = request.localRequest;
        }
        final boolean live = null == local ?
            vi.record().isConnectPending() : vi.record().settle(local.sequence, request.requester.viId,
            RESULT_ACCEPTED);
        TcpChannel superseded = null;
        if (null != local)
        {
            synchronized (this)
            {
                if (local.matching == request)
                {
                    local.matching = null;
                }
                if (live)
                {
                    superseded = local.outgoing;
                    local.outgoing = null;
                }
            }
        }
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
        establish(vi, request.channel, request.requester, null == local ? request.requester.address : local.address,
            false);
        request.state = IncomingRequest.ESTABLISHED;
    }

    /**
     * Engine thread: an incoming request's connection closed or failed, or the requester declined.
     */
    void onIncomingLost(final IncomingRequest request)
    {
        if (IncomingRequest.ACCEPTING == request.state)
        {
            request.state = IncomingRequest.FAILED;
        }
        synchronized (this)
        {
            clientRequests.remove(request);
            matcher.remove(request);
            final PendingRequest local = request.localRequest;
            if (null != local && local.matching == request)
            {
                local.matching = null;
            }
        }
    }

    long nicId()
    {
        return nic.nicId();
    }

    int maxVis()
    {
        return requests.length;
    }

    /**
     * The request of a VI; the caller holds this object's monitor.
     */
    PendingRequest requestOf(final int viId)
    {
        return requests[viId];
    }

    /**
     * Turns a channel into a VI's connection. The requester, whose connect word is settled but whose VI is not yet
     * connected, confirms first, so that the confirmation precedes anything the VI sends once connected.
     *
     * @param confirm true on the requesting side.
     */
    private void establish(
        final EngineVi vi,
        final TcpChannel channel,
        final ViDescription peer,
        final String address,
        final boolean confirm)
    {
        final ViRecord record = vi.record();
        final int maxTransfer = Math.min(record.maxTransfer(), peer.maxTransfer);
        final TcpConnection connection = new TcpConnection(nic, vi, channel, peer.viId, maxTransfer);
        vi.onConnected(connection, address, peer.attributes());
        channel.handler(connection);
        if (confirm)
        {
            ViDescription.sendBare(channel, FrameLayout.TYPE_CONFIRM, vi.id(), peer.viId, peer.sequence);
        }
        engine.pollable(channel);
        if (!record.establish(STATE_CONNECT_PENDING, peer.nicId, peer.viId, maxTransfer))
        {
            connection.disconnect("VI " + vi.id() + " of " + nic.address() + " stopped connecting");
        }
    }

    /**
     * Under the channel's lock: sends the accept of a VI and waits for the confirmation.
     */
    boolean sendAccept(final IncomingRequest request, final EngineVi vi)
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

    private PendingRequest begin(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs, final boolean peer)
    {
        final TcpAddress target = TcpAddress.peer(address);
        final int sequence = vi.nextConnectSequence();
        if (!vi.record().beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + vi.id() + " is not idle: " +
                ViRecordLayout.viState(vi.record().state()));
        }
        final PendingRequest request =
            new PendingRequest(vi, sequence, peer, address, target, discriminator, timeoutNs);
        final PendingRequest previous;
        synchronized (this)
        {
            previous = requests[vi.id()];
            requests[vi.id()] = request;
        }
        if (null != previous)
        {
            forget(previous);
        }
        return request;
    }

    /**
     * Settles the request as abandoned, makes the VI idle and throws; if an answer won the race, returns and lets
     * the caller read it.
     */
    private void giveUp(final PendingRequest request, final ViaError error, final String message)
    {
        final ViRecord record = request.vi.record();
        if (record.settle(request.sequence, 0, RESULT_ABANDONED))
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            forget(request);
            throw new ViaException(error, message);
        }
    }

    /**
     * The request is over: its connection closes unless it became the VI's, a match it was part of ends.
     */
    void forget(final PendingRequest request)
    {
        final TcpChannel outgoing;
        final IncomingRequest matching;
        synchronized (this)
        {
            if (requests[request.vi.id()] == request && !request.completed)
            {
                requests[request.vi.id()] = null;
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

    private void closeOutgoing(final PendingRequest request, final TcpChannel channel)
    {
        synchronized (this)
        {
            if (request.outgoing == channel)
            {
                request.outgoing = null;
            }
        }
        channel.close();
    }

    private void awaitEstablished(final PendingRequest request)
    {
        final ViRecord record = request.vi.record();
        final Idler idler = new Idler(nic);
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (STATE_CONNECT_PENDING == record.state())
        {
            if (!idler.idle(null))
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, request.address + " accepted but the connection of " +
                    "VI " + request.vi.id() + " did not complete");
            }
        }
        idler.finish();
    }

    /**
     * The server gives up waiting for the confirmation; false if it gave up first, true if it came after all.
     */
    private boolean abandonAccept(final IncomingRequest request)
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

    private IncomingRequest takeClientRequest(final long discriminator)
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

    private synchronized void checkNotAnswered(final IncomingRequest request)
    {
        if (request.answered)
        {
            throw new IllegalStateException(
                "connection request from " + request.requester.address + " was already answered");
        }
    }

    private synchronized void markAnswered(final IncomingRequest request)
    {
        checkNotAnswered(request);
        request.answered = true;
    }

    private static ViaError unanswered(final PendingRequest request)
    {
        return request.reached ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
    }

    private static ViaException clientGone(final IncomingRequest request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.requester.address + " gave up");
    }

    private void checkNicOpen()
    {
        if (nic.isClosed())
        {
            throw new IllegalStateException("NIC " + nic.address() + " is closed");
        }
    }
}
