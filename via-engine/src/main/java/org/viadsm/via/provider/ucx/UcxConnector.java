package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.engine.ConnectAttempt;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.ViConnection;

/**
 * Connection setup of a UCX NIC. A requester opens a control endpoint to the listener at the peer's address and
 * sends a request describing its VI (with its worker address and the key of the mirror it keeps of the peer's
 * registrations); the acceptor makes a data endpoint to that worker address, fills the requester's mirror, and
 * answers; the requester makes its data endpoint, fills the acceptor's mirror, becomes connected and confirms; the
 * acceptor becomes connected on the confirmation. Both links take the peer's data messages from the moment they
 * exist, so nothing either side sends once connected can arrive before the other side can take it.
 * <p>
 * Peer to peer, both VIs send a request; of the pair, the VI with the smaller (NIC id, VI id) accepts the other's
 * request and defers its own. A request to an address where nobody listens yet is retried every
 * {@link #RETRY_NS} until its timeout.
 * <p>
 * Messages from UCX callbacks are queued and handled by whichever thread makes progress next, under this
 * connector's lock; no UCX callback takes it. How a request that reached the listener is answered is
 * {@link RequestAnswers}.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class UcxConnector extends Connector
{
    static final long RETRY_NS = 20_000_000L;
    /**
     * The most connection requests a listener holds unanswered; a request beyond them is turned away at once, and
     * its requester fails saying so.
     */
    static final int MAX_PENDING_REQUESTS = 64;
    /** Most rounds of progress a wait makes at once while each finds work. */
    static final int DRAIN_ROUNDS = 16;
    /** Longest a thread makes progress for its last setup message over an endpoint to leave. */
    static final long FLUSH_NS = 1_000_000_000L;

    private final UcxTransport transport;
    private final Queue<Handshake> received = new ConcurrentLinkedQueue<>();
    private final IncomingRequests incoming;
    private final ListenerEndpoints accepted;
    private final OutgoingRequests outgoing;
    private final SetupMessages messages;
    private final RequestAnswers answers;
    /** Mirrors of requests withdrawn after they were sent; closed with the NIC. */
    private final List<RegistrationMirror> withdrawnMirrors = new ArrayList<>();
    private volatile boolean busy;

    UcxConnector(final UcxTransport transport)
    {
        super(transport.nic());
        this.transport = transport;
        this.outgoing = new OutgoingRequests(transport);
        this.accepted = new ListenerEndpoints(transport);
        this.incoming = new IncomingRequests(transport);
        this.messages = new SetupMessages(transport);
        this.answers = new RequestAnswers(this, transport, incoming);
    }

    UcxTransport transport()
    {
        return transport;
    }

    RequestAnswers answers()
    {
        return answers;
    }

    /**
     * A connection request reached the listener; from UCX's callback.
     */
    void onConnectionRequest(final UcpConnectionRequest request)
    {
        accepted.offer(request);
    }

    /**
     * A setup message arrived; from a UCX callback.
     *
     * @param message the message.
     */
    void onHandshake(final Handshake message)
    {
        received.add(message);
    }

    /**
     * Handles what arrived and retries what is due; cheap when nothing is going on.
     *
     * @return work done.
     */
    int progress()
    {
        if (!busy && accepted.isEmpty() && received.isEmpty())
        {
            return 0;
        }
        synchronized (this)
        {
            int work = accepted.accept();
            Handshake message;
            while (null != (message = received.poll()))
            {
                handle(message);
                work++;
            }
            work += maintain();
            busy = messages.isBusy() || outgoing.isPending() || incoming.isAccepting();
            return work;
        }
    }

    /**
     * Drops the listener's endpoints whose peers went away; from the NIC's periodic failure check, since nothing
     * waits for them.
     */
    synchronized void housekeeping()
    {
        // answers' endpoints linger without keeping the connector busy, so that they cost the data path nothing
        if (messages.closeLingering(System.nanoTime()))
        {
            // closed by the next progress, where it is safe (housekeeping may run in a callback)
            busy = true;
        }
        accepted.dropFailed();
    }

    /**
     * Registers a request of a VI of this NIC and sends it, unless it meets a matching peer request that this
     * side accepts.
     */
    synchronized void start(final OutgoingRequest request)
    {
        outgoing.put(request);
        busy = true;
        if (request.isPeer())
        {
            for (final IncomingRequest candidate : incoming.all())
            {
                if (request.pairsWith(candidate, transport.nicId()) && decide(request, candidate))
                {
                    return;
                }
            }
        }
        sendRequest(request);
    }

    /**
     * A request's VI is done with it.
     */
    synchronized void forget(final OutgoingRequest request)
    {
        outgoing.remove(request);
        answers.dropGivenUp(request.acceptedFrom);
        if (!request.linked)
        {
            release(request);
        }
    }

    @Override
    protected ConnectAttempt newAttempt(
        final ViConnection vi, final String address, final long discriminator, final boolean peer,
        final long timeoutNs)
    {
        return new OutgoingRequest(this, vi, address, UcxAddress.parse(address), discriminator, peer, timeoutNs);
    }

    @Override
    protected synchronized ConnectRequest takeClientRequest(final long discriminator)
    {
        final IncomingRequest request = incoming.takeClient(discriminator);
        return null == request ? null : new UcxConnectRequest(this, request, transport);
    }

    @Override
    protected synchronized ConnectAttempt peerAttempt(final ViConnection vi)
    {
        final OutgoingRequest request = outgoing.get(vi.id());
        return null == request || !request.isPeer() ? null : request;
    }

    /**
     * Setup messages arrive only while a thread makes progress on the worker.
     */
    @Override
    protected void poll()
    {
        transport.progress(false);
    }

    /**
     * Makes progress until nothing more is pending, within a bound: a withdrawal that follows its request in the
     * same stream is then handled before a connection wait looks for requests.
     */
    @Override
    protected void onWaiting()
    {
        for (int round = 0; round < DRAIN_ROUNDS && transport.progress(false) > 0; round++)
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public int abandon(final ViConnection vi)
    {
        final OutgoingRequest request;
        synchronized (this)
        {
            request = outgoing.get(vi.id());
        }
        final int state = vi.abandonConnect();
        if (null != request)
        {
            request.forget();
        }
        return state;
    }

    /**
     * Makes progress until the last setup message over an endpoint (an answer, a withdrawal) has left, for at most
     * {@link #FLUSH_NS}: the sending thread may not call into this NIC again, and over shared memory no other thread
     * makes progress, so the peer would learn the outcome only at its own timeout.
     *
     * @param endpoint the endpoint, or null for none.
     */
    void flush(final UcpEndpoint endpoint)
    {
        if (null == endpoint || transport.nic().isClosed())
        {
            return;
        }
        final long deadlineNs = System.nanoTime() + FLUSH_NS;
        while (isSending(endpoint) && System.nanoTime() - deadlineNs < 0)
        {
            if (0 == transport.progress(false))
            {
                Thread.onSpinWait();
            }
        }
        transport.progress(false);
    }

    private synchronized boolean isSending(final UcpEndpoint endpoint)
    {
        return messages.isSending(endpoint);
    }

    /**
     * Closes every endpoint still in setup; the NIC is closing.
     */
    synchronized void close()
    {
        messages.close();
        incoming.close();
        accepted.close();
        outgoing.close();
        for (final RegistrationMirror mirror : withdrawnMirrors)
        {
            mirror.close();
        }
        withdrawnMirrors.clear();
    }

    /**
     * Opens the request's control endpoint and sends the request; retried while no listener answers.
     */
    void sendRequest(final OutgoingRequest request)
    {
        request.sink = new UcxEndpoints.Sink();
        request.retryAtNs = 0;
        try
        {
            request.endpoint = UcxEndpoints.connect(transport, request.target.socketAddress(), request.sink);
        }
        catch (final RuntimeException ex)
        {
            request.endpoint = null;
            request.lastFailure = "cannot open a control endpoint: " + ex.getMessage();
            request.retryAtNs = System.nanoTime() + RETRY_NS;
            return;
        }
        final ViConnection vi = request.vi();
        transmit(request.endpoint, LinkSetup.describe(transport, request.isPeer() ? Handshake.PEER_REQUEST :
            Handshake.CLIENT_REQUEST, vi, 0, request.sequence(), request.discriminator(), request.token,
            request.mirror, request.address()), request);
    }

    private void handle(final Handshake message)
    {
        if (Handshake.ACCEPT != message.type && Handshake.CONFIRM != message.type && !message.isRequest())
        {
            // the endpoint carried only this message, and its sender keeps it open until this end closes
            accepted.close(message.arrivedOn);
        }
        if (message.isRequest())
        {
            final IncomingRequest from = incoming.add(message);
            if (null == from || IncomingRequest.FAILED == from.state)
            {
                if (null != from)
                {
                    answers.answer(from, Handshake.BUSY, 0);
                }
                return;
            }
            if (Handshake.PEER_REQUEST == message.type)
            {
                final OutgoingRequest candidate = outgoing.matching(from);
                if (null != candidate)
                {
                    decide(candidate, from);
                }
            }
            return;
        }
        if (Handshake.WITHDRAW == message.type)
        {
            final IncomingRequest from = incoming.find(message);
            if (null != from && (IncomingRequest.ACCEPTING == from.state ||
                IncomingRequest.FAILED == from.state && null != from.acceptor))
            {
                // the requester gave up before the accept reached it and will never confirm: the accepting thread (a
                // client's accept, a peer's wait) sees the failure, drops the request (releasing its link, also once
                // its endpoint failed) and fails now, not at its timeout; a peer's wait does not accept it again
                from.state = IncomingRequest.FAILED;
                from.withdrawn = true;
            }
            else if (null != from && IncomingRequest.ACCEPTING != from.state)
            {
                // one the connection wait returned fails its accept as the client's giving up, not as answered
                from.withdrawn = IncomingRequest.TAKEN == from.state;
                from.state = IncomingRequest.FAILED;
                incoming.remove(from);
                if (null != from.endpoint)
                {
                    messages.closeLater(from.endpoint);
                }
            }
            return;
        }
        if (Handshake.CONFIRM == message.type)
        {
            final IncomingRequest from = incoming.find(message);
            if (null != from && IncomingRequest.ACCEPTING == from.state && message.peerViId == from.acceptor.id())
            {
                answers.onConfirmed(from);
            }
            return;
        }
        final OutgoingRequest request = outgoing.get(message.peerViId);
        if (Handshake.ACCEPT == message.type && (null == request || request.sequence() != message.sequence))
        {
            busy |= messages.withdrawFrom(message);
            return;
        }
        if (null == request || request.isCompleted() || request.linked || request.sequence() != message.sequence)
        {
            return;
        }
        if (Handshake.ACCEPT == message.type)
        {
            request.onReached();
            onAccepted(request, message);
        }
        else
        {
            request.onAnswer(message);
        }
    }

    /**
     * A peer request matches a request of this NIC: the smaller (NIC id, VI id) accepts.
     *
     * @return true if this side accepted.
     */
    private boolean decide(final OutgoingRequest request, final IncomingRequest candidate)
    {
        final Handshake message = candidate.request;
        final int order = transport.nicId() != message.nicId ?
            Long.compareUnsigned(transport.nicId(), message.nicId) : Integer.compare(request.vi().id(), message.viId);
        if (order < 0)
        {
            request.accepting = true;
            request.acceptedFrom = candidate;
            candidate.state = IncomingRequest.TAKEN;
            if (!answers.accept(candidate, request.vi(), request.sequence()) &&
                IncomingRequest.FAILED != candidate.state)
            {
                request.vi().settle(request.sequence(), 0, ViConnection.CONNECT_NO_MATCH);
            }
            return true;
        }
        candidate.state = IncomingRequest.TAKEN;
        // this side's request goes (or went) from start, once: sending it here too opened a second endpoint
        answers.answer(candidate, Handshake.DEFER, request.vi().id());
        return false;
    }

    private void onAccepted(final OutgoingRequest request, final Handshake peer)
    {
        final ViConnection vi = request.vi();
        if (!vi.settle(request.sequence(), peer.viId, ViConnection.CONNECT_ACCEPTED))
        {
            return;
        }
        request.linked = true;
        UcxLink link = null;
        try
        {
            link = LinkSetup.open(transport, vi, request.token, peer, request.endpoint, request.sink,
                request.mirror);
            if (!link.publishTo(peer, transport.publisher()))
            {
                link.onEndpointError("cannot fill the registration mirror of " + peer.address);
            }
            if (!LinkSetup.establish(transport, vi, link, peer))
            {
                return;
            }
            transmit(request.endpoint, Handshake.bare(Handshake.CONFIRM, vi.id(), peer.viId, request.sequence(),
                transport.nicId()), null);
        }
        catch (final RuntimeException ex)
        {
            // named like the acceptor's failure on a malformed request; the wait for the connection reports it
            request.establishFailure = "VI " + vi.id() + " cannot connect to the " +
                (request.isPeer() ? "peer" : "server") + " at " + request.address() + ": " + ex.getMessage();
            if (null == link)
            {
                // no link took the control endpoint and the mirror: the request releases them when it is forgotten
                request.linked = false;
            }
            vi.backToIdle();
        }
    }

    private int maintain()
    {
        return outgoing.maintain(System.nanoTime(), this) + incoming.dropFailed() + messages.progress();
    }

    /**
     * Sends a setup message over an endpoint that stays open; its owner learns whether it left (a request counts as
     * having reached its peer once it did).
     */
    void transmit(final UcpEndpoint endpoint, final Handshake message, final SetupMessages.Sender owner)
    {
        busy |= messages.transmit(endpoint, message, owner);
    }

    /**
     * Sends an answer over an endpoint of its own, which stays open until the requester closes its end or goes
     * away, within a bound ({@link SetupMessages#answer}).
     */
    void answer(final UcpEndpoint endpoint, final Handshake answer, final UcxEndpoints.Sink sink)
    {
        busy |= messages.answer(endpoint, answer, sink);
    }

    /** How many answers' and withdrawals' endpoints linger, and how many endpoints the listener accepted. */
    synchronized int[] setupEndpoints()
    {
        return new int[] {messages.lingering(), accepted.size()};
    }

    void release(final OutgoingRequest request)
    {
        if (!request.linked && !request.released)
        {
            request.released = true;
            if (null != request.endpoint && !request.isCompleted())
            {
                busy |= messages.withdraw(request.endpoint, Handshake.bare(Handshake.WITHDRAW, request.vi().id(), 0,
                    request.sequence(), transport.nicId()), request.sink);
                // the server may take the request and unpack its mirror's key before the withdrawal reaches it, and
                // UCX 1.13 crashes unpacking a key whose memory is gone: the mirror lives until this NIC closes
                withdrawnMirrors.add(request.mirror);
            }
            else
            {
                UcxEndpoints.close(transport, request.endpoint);
                request.mirror.close();
            }
            request.endpoint = null;
        }
    }
}
