package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.ConnectAttempt;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.Idler;
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
 * connector's lock; no UCX callback takes it.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class UcxConnector extends Connector
{
    static final long RETRY_NS = 20_000_000L;
    /** Longest a refusing thread makes progress for its answer to leave. */
    static final long ANSWER_FLUSH_NS = 1_000_000_000L;
    /**
     * The most connection requests a listener holds unanswered (and UCX connection requests it holds unaccepted);
     * a request beyond them is turned away at once, and its requester fails saying so.
     */
    static final int MAX_PENDING_REQUESTS = 64;

    private final UcxTransport transport;
    private final Queue<Handshake> received = new ConcurrentLinkedQueue<>();
    private final Map<String, IncomingRequest> incoming = new HashMap<>();
    private final ListenerEndpoints accepted;
    private final OutgoingRequest[] outgoing;
    private final SetupMessages messages;
    private volatile boolean busy;

    UcxConnector(final UcxTransport transport)
    {
        super(transport.nic());
        this.transport = transport;
        this.outgoing = new OutgoingRequest[transport.attributes().maxVis()];
        this.accepted = new ListenerEndpoints(transport);
        this.messages = new SetupMessages(transport);
    }

    UcxTransport transport()
    {
        return transport;
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
            busy = messages.isBusy() || hasOutgoing() || isAccepting();
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

    private boolean isAccepting()
    {
        for (final IncomingRequest candidate : incoming.values())
        {
            if (IncomingRequest.ACCEPTING == candidate.state)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Registers a request of a VI of this NIC and sends it, unless it meets a matching peer request that this
     * side accepts.
     */
    synchronized void start(final OutgoingRequest request)
    {
        outgoing[request.vi().id()] = request;
        busy = true;
        if (request.isPeer())
        {
            for (final IncomingRequest candidate : new ArrayList<>(incoming.values()))
            {
                if (matches(request, candidate) && decide(request, candidate))
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
        final int viId = request.vi().id();
        if (outgoing[viId] == request)
        {
            outgoing[viId] = null;
        }
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
        for (final IncomingRequest candidate : incoming.values())
        {
            if (IncomingRequest.REQUESTED == candidate.state && Handshake.CLIENT_REQUEST == candidate.request.type &&
                candidate.request.discriminator == discriminator)
            {
                candidate.state = IncomingRequest.TAKEN;
                return new UcxConnectRequest(this, candidate, transport);
            }
        }
        return null;
    }

    @Override
    protected synchronized ConnectAttempt peerAttempt(final ViConnection vi)
    {
        final OutgoingRequest request = outgoing[vi.id()];
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

    @Override
    protected void onWaiting()
    {
        transport.progress(false);
    }

    @Override
    public int abandon(final ViConnection vi)
    {
        final OutgoingRequest request;
        synchronized (this)
        {
            request = outgoing[vi.id()];
        }
        final int state = vi.abandonConnect();
        if (null != request)
        {
            request.forget();
        }
        return state;
    }

    /**
     * Accepts a client's request on an idle VI of this NIC, waiting until the client confirmed.
     */
    void accept(final IncomingRequest request, final ViConnection server)
    {
        final int sequence = server.beginConnect();
        final boolean refused;
        synchronized (this)
        {
            if (IncomingRequest.TAKEN != request.state)
            {
                server.backToIdle();
                throw new IllegalStateException("the connection request was already answered");
            }
            refused = !acceptOn(request, server, sequence);
        }
        if (refused)
        {
            server.backToIdle();
            if (IncomingRequest.FAILED == request.state)
            {
                throw clientGone(request);
            }
            flushAnswer(request);
            throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                ", the request from " + request.request.address + " is " +
                request.request.attributes().reliabilityLevel());
        }
        final Idler idler = new Idler(transport.nic());
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (server.isConnectPending())
        {
            transport.progress(false);
            final boolean failed;
            synchronized (this)
            {
                failed = IncomingRequest.FAILED == request.state;
            }
            if (failed || !idler.idle())
            {
                idler.finish();
                synchronized (this)
                {
                    drop(request);
                }
                server.backToIdle();
                throw clientGone(request);
            }
        }
        idler.finish();
    }

    void reject(final IncomingRequest request)
    {
        synchronized (this)
        {
            if (IncomingRequest.TAKEN != request.state)
            {
                throw new IllegalStateException("the connection request was already answered");
            }
            answer(request, Handshake.REJECT, 0);
        }
        flushAnswer(request);
    }

    /**
     * Makes progress until a refusal has left, for at most {@link #ANSWER_FLUSH_NS}: the refusing thread may not
     * call into this NIC again, and over shared memory no other thread makes progress, so the requester would
     * wait for its timeout instead of learning the answer.
     */
    private void flushAnswer(final IncomingRequest request)
    {
        final long deadlineNs = System.nanoTime() + ANSWER_FLUSH_NS;
        while (isSending(request.endpoint) && System.nanoTime() - deadlineNs < 0)
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
        for (final IncomingRequest candidate : incoming.values())
        {
            if (null == candidate.link)
            {
                UcxEndpoints.close(transport, candidate.endpoint);
            }
        }
        incoming.clear();
        accepted.close();
        for (int i = 0; i < outgoing.length; i++)
        {
            final OutgoingRequest request = outgoing[i];
            if (null != request)
            {
                if (!request.linked && !request.released)
                {
                    request.released = true;
                    UcxEndpoints.close(transport, request.endpoint);
                    request.mirror.close();
                }
                outgoing[i] = null;
            }
        }
    }

    /**
     * Opens the request's control endpoint and sends the request; retried while no listener answers.
     */
    private void sendRequest(final OutgoingRequest request)
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
            request.retryAtNs = System.nanoTime() + RETRY_NS;
            return;
        }
        final ViConnection vi = request.vi();
        transmit(request.endpoint, new Handshake(request.isPeer() ? Handshake.PEER_REQUEST :
            Handshake.CLIENT_REQUEST, vi.id(), 0, request.sequence(), transport.nicId(), request.discriminator(),
            request.token, request.mirror.address(), vi.reliability().vipValue(), vi.maxTransfer(), vi.flags(),
            vi.ptag(), request.mirror.entries(), transport.workerAddress(), request.mirror.packedKey(),
            transport.address()), request, null);
    }

    private void handle(final Handshake message)
    {
        if (message.isRequest())
        {
            final String key = key(message.nicId, message.viId, message.sequence);
            if (incoming.containsKey(key))
            {
                return;
            }
            final IncomingRequest from = new IncomingRequest(message, key);
            if (incoming.size() >= MAX_PENDING_REQUESTS)
            {
                answer(from, Handshake.BUSY, 0);
                return;
            }
            incoming.put(key, from);
            if (Handshake.PEER_REQUEST == message.type)
            {
                for (final OutgoingRequest candidate : outgoing)
                {
                    if (null != candidate && matches(candidate, from))
                    {
                        decide(candidate, from);
                        return;
                    }
                }
            }
            return;
        }
        if (Handshake.WITHDRAW == message.type)
        {
            final IncomingRequest from = incoming.get(key(message.nicId, message.viId, message.sequence));
            if (null != from && IncomingRequest.ACCEPTING != from.state)
            {
                from.state = IncomingRequest.FAILED;
                incoming.remove(from.key);
                if (null != from.endpoint)
                {
                    messages.closeLater(from.endpoint);
                }
            }
            return;
        }
        if (Handshake.CONFIRM == message.type)
        {
            final IncomingRequest from = incoming.get(key(message.nicId, message.viId, message.sequence));
            if (null != from && IncomingRequest.ACCEPTING == from.state && message.peerViId == from.acceptor.id())
            {
                establishAcceptor(from);
            }
            return;
        }
        final OutgoingRequest request = message.peerViId >= 0 && message.peerViId < outgoing.length ?
            outgoing[message.peerViId] : null;
        if (null == request || request.isCompleted() || request.linked || request.sequence() != message.sequence)
        {
            return;
        }
        request.onReached();
        switch (message.type)
        {
            case Handshake.ACCEPT:
                onAccepted(request, message);
                break;
            case Handshake.REJECT:
                request.vi().settle(request.sequence(), 0, ViConnection.CONNECT_REJECTED);
                break;
            case Handshake.NO_MATCH:
                request.vi().settle(request.sequence(), 0, ViConnection.CONNECT_NO_MATCH);
                break;
            case Handshake.BUSY:
                request.turnedAway = "the listener at " + request.address() + " holds " + MAX_PENDING_REQUESTS +
                    " connection requests not yet answered, the most it holds: retry later";
                break;
            default:
                request.deferred = true;
                break;
        }
    }

    private boolean matches(final OutgoingRequest request, final IncomingRequest candidate)
    {
        final Handshake message = candidate.request;
        return request.isPeer() && !request.accepting && !request.linked && !request.isCompleted() &&
            IncomingRequest.REQUESTED == candidate.state &&
            Handshake.PEER_REQUEST == message.type && message.discriminator == request.discriminator() &&
            message.address.equals(request.address()) &&
            !(message.nicId == transport.nicId() && message.viId == request.vi().id());
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
            candidate.state = IncomingRequest.TAKEN;
            if (!acceptOn(candidate, request.vi(), request.sequence()) && IncomingRequest.FAILED != candidate.state)
            {
                request.vi().settle(request.sequence(), 0, ViConnection.CONNECT_NO_MATCH);
            }
            return true;
        }
        candidate.state = IncomingRequest.TAKEN;
        answer(candidate, Handshake.DEFER, request.vi().id());
        if (null == request.endpoint && 0 == request.retryAtNs)
        {
            sendRequest(request);
        }
        return false;
    }

    /**
     * Accepts a request on an incoming control endpoint with a VI whose connection began: makes the link, fills
     * the requester's mirror, answers, and waits for the confirmation in {@link #progress}.
     *
     * @return false if the reliability levels differ (answered) or the requester is gone (state failed).
     */
    private boolean acceptOn(final IncomingRequest request, final ViConnection vi, final int sequence)
    {
        final Handshake peer = request.request;
        if (peer.reliability != vi.reliability().vipValue())
        {
            answer(request, Handshake.NO_MATCH, vi.id());
            return false;
        }
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        RegistrationMirror mirror = null;
        UcpEndpoint data = null;
        try
        {
            openAnswerEndpoint(request);
            mirror = new RegistrationMirror(transport, transport.area().table().capacity());
            final UcxEndpoints.Sink dataSink = new UcxEndpoints.Sink();
            data = UcxEndpoints.data(transport, peer.workerAddress, dataSink);
            final UcxLink link = new UcxLink(transport, vi, token, peer, request.endpoint, data, mirror);
            request.sink.link(link);
            dataSink.link(link);
            transport.attach(link);
            request.link = link;
            if (!link.publishTo(peer, transport.publisher()))
            {
                throw new IllegalStateException("cannot fill the registration mirror of " + peer.address);
            }
        }
        catch (final RuntimeException ex)
        {
            if (null != request.link)
            {
                transport.release(request.link);
                request.link = null;
            }
            else
            {
                if (null != mirror)
                {
                    mirror.close();
                }
                UcxEndpoints.close(transport, data);
            }
            drop(request);
            return false;
        }
        request.acceptor = vi;
        request.sequence = sequence;
        request.state = IncomingRequest.ACCEPTING;
        transmit(request.endpoint, new Handshake(Handshake.ACCEPT, vi.id(), peer.viId, peer.sequence,
            transport.nicId(), peer.discriminator, token, mirror.address(), vi.reliability().vipValue(),
            vi.maxTransfer(), vi.flags(), vi.ptag(), mirror.entries(), transport.workerAddress(), mirror.packedKey(),
            transport.address()));
        return true;
    }

    private void establishAcceptor(final IncomingRequest request)
    {
        final Handshake peer = request.request;
        final ViConnection vi = request.acceptor;
        request.state = IncomingRequest.DONE;
        incoming.remove(request.key);
        vi.settle(request.sequence, peer.viId, ViConnection.CONNECT_ACCEPTED);
        vi.onConnected(request.link, peer.address, peer.attributes());
        transport.onLinkEstablished(request.link, peer.address);
        if (!vi.establish(peer.nicId, peer.viId, Math.min(vi.maxTransfer(), peer.maxTransfer)))
        {
            request.link.disconnect("VI " + vi.id() + " of " + transport.address() + " stopped connecting");
        }
    }

    private void onAccepted(final OutgoingRequest request, final Handshake peer)
    {
        final ViConnection vi = request.vi();
        if (!vi.settle(request.sequence(), peer.viId, ViConnection.CONNECT_ACCEPTED))
        {
            return;
        }
        request.linked = true;
        UcpEndpoint data = null;
        try
        {
            final UcxEndpoints.Sink dataSink = new UcxEndpoints.Sink();
            data = UcxEndpoints.data(transport, peer.workerAddress, dataSink);
            final UcxLink link =
                new UcxLink(transport, vi, request.token, peer, request.endpoint, data, request.mirror);
            request.sink.link(link);
            dataSink.link(link);
            transport.attach(link);
            if (!link.publishTo(peer, transport.publisher()))
            {
                link.onEndpointError("cannot fill the registration mirror of " + peer.address);
            }
            vi.onConnected(link, peer.address, peer.attributes());
            transport.onLinkEstablished(link, peer.address);
            if (!vi.establish(peer.nicId, peer.viId, Math.min(vi.maxTransfer(), peer.maxTransfer)))
            {
                link.disconnect("VI " + vi.id() + " of " + transport.address() + " stopped connecting");
                return;
            }
            transmit(request.endpoint, Handshake.bare(Handshake.CONFIRM, vi.id(), peer.viId, request.sequence(),
                transport.nicId()));
        }
        catch (final RuntimeException ex)
        {
            UcxEndpoints.close(transport, data);
            vi.backToIdle();
        }
    }

    private int maintain()
    {
        int work = 0;
        final long nowNs = System.nanoTime();
        for (final OutgoingRequest request : outgoing)
        {
            if (null == request || request.linked || request.isCompleted())
            {
                continue;
            }
            if (null != request.endpoint && (request.deferred || null != request.sink.failure()))
            {
                request.refused |= !request.isReached() && !request.deferred;
                UcxEndpoints.close(transport, request.endpoint);
                request.endpoint = null;
                request.retryAtNs = request.deferred || request.accepting ? Long.MAX_VALUE : nowNs + RETRY_NS;
                work++;
            }
            if (null == request.endpoint && 0 != request.retryAtNs && nowNs - request.retryAtNs >= 0 &&
                !request.isPastDeadline(nowNs) && !request.accepting && !request.deferred && request.isPending())
            {
                sendRequest(request);
                work++;
            }
        }
        for (final Iterator<IncomingRequest> it = incoming.values().iterator(); it.hasNext(); )
        {
            final IncomingRequest candidate = it.next();
            if (null != candidate.sink && null != candidate.sink.failure())
            {
                final boolean accepting = IncomingRequest.ACCEPTING == candidate.state;
                candidate.state = IncomingRequest.FAILED;
                if (!accepting)
                {
                    it.remove();
                    UcxEndpoints.close(transport, candidate.endpoint);
                    work++;
                }
            }
        }
        return work + messages.progress();
    }

    /**
     * Refuses or defers a request over an endpoint of its own, closed a while after the answer left.
     */
    private void answer(final IncomingRequest request, final int type, final int viId)
    {
        request.state = IncomingRequest.DONE;
        incoming.remove(request.key);
        try
        {
            openAnswerEndpoint(request);
        }
        catch (final RuntimeException ex)
        {
            return;
        }
        transmit(request.endpoint, Handshake.bare(type, viId, request.request.viId, request.request.sequence,
            transport.nicId()), null, request.endpoint);
    }

    private void openAnswerEndpoint(final IncomingRequest request)
    {
        if (null == request.endpoint)
        {
            request.sink = new UcxEndpoints.Sink();
            request.endpoint = UcxEndpoints.connect(transport,
                UcxAddress.parse(request.request.address).socketAddress(), request.sink);
        }
    }

    private static String key(final long nicId, final int viId, final int sequence)
    {
        return Long.toHexString(nicId) + ':' + viId + ':' + sequence;
    }

    private void drop(final IncomingRequest request)
    {
        request.state = IncomingRequest.FAILED;
        if (null != incoming.remove(request.key))
        {
            if (null != request.link)
            {
                transport.release(request.link);
            }
            else
            {
                UcxEndpoints.close(transport, request.endpoint);
            }
        }
    }

    private void transmit(final UcpEndpoint endpoint, final Handshake message)
    {
        transmit(endpoint, message, null, null);
    }

    /**
     * Sends a setup message; a request's owner counts as having reached its peer once the message left.
     */
    private void transmit(final UcpEndpoint endpoint, final Handshake message, final OutgoingRequest owner,
        final UcpEndpoint closeAfter)
    {
        if (messages.transmit(endpoint, message, owner, closeAfter))
        {
            busy = true;
        }
    }

    void release(final OutgoingRequest request)
    {
        if (!request.linked && !request.released)
        {
            request.released = true;
            if (null != request.endpoint && !request.isCompleted())
            {
                transmit(request.endpoint, Handshake.bare(Handshake.WITHDRAW, request.vi().id(), 0,
                    request.sequence(), transport.nicId()), null, request.endpoint);
            }
            else
            {
                UcxEndpoints.close(transport, request.endpoint);
            }
            request.endpoint = null;
            request.mirror.close();
        }
    }

    private boolean hasOutgoing()
    {
        for (final OutgoingRequest request : outgoing)
        {
            if (null != request && !request.isCompleted())
            {
                return true;
            }
        }
        return false;
    }

    private static ViaException clientGone(final IncomingRequest request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.request.address + " gave up");
    }

}
