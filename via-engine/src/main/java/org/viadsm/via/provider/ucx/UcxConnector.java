package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.ConnectAttempt;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ListenerConnectAttempt;
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
    /** How long an answer's endpoint stays open after the answer left. */
    static final long LINGER_NS = 1_000_000_000L;

    /**
     * A request that reached this NIC, known by its requester's NIC id, VI id and sequence (UCX does not say over
     * which of the listener's connections a message came). This side answers over a control endpoint of its own
     * to the requester's listener, which an accepted connection keeps as its failure detector.
     */
    static final class Incoming
    {
        static final int REQUESTED = 1;
        static final int TAKEN = 2;
        static final int ACCEPTING = 3;
        static final int DONE = 4;
        static final int FAILED = 5;

        final Handshake request;
        final String key;
        UcpEndpoint endpoint;
        UcxEndpoints.Sink sink;
        int state = REQUESTED;
        ViConnection acceptor;
        int sequence;
        UcxLink link;

        Incoming(final Handshake request, final String key)
        {
            this.request = request;
            this.key = key;
        }
    }

    /**
     * A request of one of this NIC's VIs: over a control endpoint to the listener at the other side's address, which
     * is opened again while nobody listens there.
     */
    private final class Outgoing extends ListenerConnectAttempt
    {
        final UcxAddress target;
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        RegistrationMirror mirror;
        UcpEndpoint endpoint;
        UcxEndpoints.Sink sink;
        long retryAtNs;
        boolean refused;
        boolean deferred;
        boolean accepting;
        boolean linked;
        boolean released;

        Outgoing(final ViConnection vi, final String address, final UcxAddress target, final long discriminator,
            final boolean peer, final long timeoutNs)
        {
            super(transport.nic(), vi, address, discriminator, peer, timeoutNs);
            this.target = target;
        }

        @Override
        protected void send(final Idler idler)
        {
            try
            {
                mirror = new RegistrationMirror(transport, transport.area().table().capacity());
            }
            catch (final RuntimeException ex)
            {
                vi().backToIdle();
                throw ex;
            }
            synchronized (UcxConnector.this)
            {
                outgoing[vi().id()] = this;
                busy = true;
                if (isPeer())
                {
                    for (final Incoming candidate : new ArrayList<>(incoming.values()))
                    {
                        if (matches(this, candidate) && decide(this, candidate))
                        {
                            return;
                        }
                    }
                }
                sendRequest(this);
            }
        }

        @Override
        protected String lostReason(final int polls)
        {
            return null;
        }

        /**
         * A request that got no answer timed out, unless every attempt to reach the peer's listener failed.
         */
        @Override
        protected ViaError unansweredError()
        {
            return isReached() || !refused ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
        }

        @Override
        protected String unreachedHow()
        {
            return "connections failed";
        }

        @Override
        protected void onPeerConnected()
        {
            synchronized (UcxConnector.this)
            {
                complete();
                release(this);
            }
        }

        @Override
        protected void forget()
        {
            synchronized (UcxConnector.this)
            {
                if (outgoing[vi().id()] == this)
                {
                    outgoing[vi().id()] = null;
                }
                if (!linked)
                {
                    release(this);
                }
            }
        }
    }

    /** A setup message in flight, whose buffers UCX reads until it completes. */
    private static final class Sending
    {
        final MemorySegment header;
        final MemorySegment data;
        final long request;
        final Outgoing owner;
        final UcpEndpoint closeAfter;

        Sending(final MemorySegment header, final MemorySegment data, final long request, final Outgoing owner,
            final UcpEndpoint closeAfter)
        {
            this.header = header;
            this.data = data;
            this.request = request;
            this.owner = owner;
            this.closeAfter = closeAfter;
        }
    }

    private final UcxTransport transport;
    private final Queue<Handshake> received = new ConcurrentLinkedQueue<>();
    private final Map<String, Incoming> incoming = new HashMap<>();
    private final List<UcxEndpoints.Sink> accepted = new ArrayList<>();
    private final List<UcpEndpoint> acceptedEndpoints = new ArrayList<>();
    private final Outgoing[] outgoing;
    private final List<Sending> sending = new ArrayList<>();
    private final ArrayDeque<Lingering> lingering = new ArrayDeque<>();
    private final List<UcpEndpoint> closing = new ArrayList<>();
    private final MemorySegment sendParam = Arena.global().allocate(Ucp.PARAM_LENGTH, 8);
    private volatile boolean busy;

    UcxConnector(final UcxTransport transport)
    {
        super(transport.nic());
        this.transport = transport;
        this.outgoing = new Outgoing[transport.attributes().maxVis()];
        sendParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET, Ucp.OP_ATTR_FIELD_FLAGS);
        sendParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_FLAGS_OFFSET, Ucp.AM_SEND_FLAG_EAGER);
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
    int progress(final Queue<UcpConnectionRequest> requests)
    {
        if (!busy && requests.isEmpty() && received.isEmpty())
        {
            return 0;
        }
        synchronized (this)
        {
            int work = 0;
            UcpConnectionRequest request;
            while (null != (request = requests.poll()))
            {
                final UcxEndpoints.Sink sink = new UcxEndpoints.Sink();
                try
                {
                    final UcpEndpoint endpoint = UcxEndpoints.accept(transport, request, sink);
                    accepted.add(sink);
                    acceptedEndpoints.add(endpoint);
                }
                catch (final RuntimeException ex)
                {
                    // the client saw its connection fail and retries
                }
                work++;
            }
            Handshake message;
            while (null != (message = received.poll()))
            {
                handle(message);
                work++;
            }
            work += maintain();
            busy = !sending.isEmpty() || !closing.isEmpty() || hasOutgoing() || isAccepting();
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
        closeLingering(System.nanoTime());
        for (int i = accepted.size() - 1; i >= 0; i--)
        {
            if (null != accepted.get(i).failure())
            {
                accepted.remove(i);
                UcxEndpoints.close(transport, acceptedEndpoints.remove(i));
            }
        }
    }

    private boolean isAccepting()
    {
        for (final Incoming candidate : incoming.values())
        {
            if (Incoming.ACCEPTING == candidate.state)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    protected ConnectAttempt newAttempt(
        final ViConnection vi, final String address, final long discriminator, final boolean peer,
        final long timeoutNs)
    {
        return new Outgoing(vi, address, UcxAddress.parse(address), discriminator, peer, timeoutNs);
    }

    @Override
    protected synchronized ConnectRequest takeClientRequest(final long discriminator)
    {
        for (final Incoming candidate : incoming.values())
        {
            if (Incoming.REQUESTED == candidate.state && Handshake.CLIENT_REQUEST == candidate.request.type &&
                candidate.request.discriminator == discriminator)
            {
                candidate.state = Incoming.TAKEN;
                return new UcxConnectRequest(this, candidate, transport);
            }
        }
        return null;
    }

    @Override
    protected synchronized ConnectAttempt peerAttempt(final ViConnection vi)
    {
        final Outgoing request = outgoing[vi.id()];
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
        final Outgoing request;
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
    void accept(final Incoming request, final ViConnection server)
    {
        final int sequence = server.beginConnect();
        final boolean refused;
        synchronized (this)
        {
            if (Incoming.TAKEN != request.state)
            {
                server.backToIdle();
                throw new IllegalStateException("the connection request was already answered");
            }
            refused = !acceptOn(request, server, sequence);
        }
        if (refused)
        {
            server.backToIdle();
            if (Incoming.FAILED == request.state)
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
                failed = Incoming.FAILED == request.state;
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

    void reject(final Incoming request)
    {
        synchronized (this)
        {
            if (Incoming.TAKEN != request.state)
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
    private void flushAnswer(final Incoming request)
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
        for (final Sending message : sending)
        {
            if (message.closeAfter == endpoint)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Closes every endpoint still in setup; the NIC is closing.
     */
    synchronized void close()
    {
        // endpoints first, forced: UCX completes what is pending on them, which it refuses to drop at worker close
        for (final Sending message : sending)
        {
            UcxEndpoints.close(transport, message.closeAfter);
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        closing.clear();
        for (final Lingering answer : lingering)
        {
            UcxEndpoints.close(transport, answer.endpoint);
        }
        lingering.clear();
        for (final Incoming candidate : incoming.values())
        {
            if (null == candidate.link)
            {
                UcxEndpoints.close(transport, candidate.endpoint);
            }
        }
        incoming.clear();
        for (final UcpEndpoint endpoint : acceptedEndpoints)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        accepted.clear();
        acceptedEndpoints.clear();
        for (int i = 0; i < outgoing.length; i++)
        {
            final Outgoing request = outgoing[i];
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
        for (final Sending message : sending)
        {
            Ucp.free(message.request);
        }
        sending.clear();
    }

    /**
     * Opens the request's control endpoint and sends the request; retried while no listener answers.
     */
    private void sendRequest(final Outgoing request)
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
            final Incoming from = new Incoming(message, key);
            incoming.put(key, from);
            if (Handshake.PEER_REQUEST == message.type)
            {
                for (final Outgoing candidate : outgoing)
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
            final Incoming from = incoming.get(key(message.nicId, message.viId, message.sequence));
            if (null != from && Incoming.ACCEPTING != from.state)
            {
                from.state = Incoming.FAILED;
                incoming.remove(from.key);
                if (null != from.endpoint)
                {
                    closing.add(from.endpoint);
                }
            }
            return;
        }
        if (Handshake.CONFIRM == message.type)
        {
            final Incoming from = incoming.get(key(message.nicId, message.viId, message.sequence));
            if (null != from && Incoming.ACCEPTING == from.state && message.peerViId == from.acceptor.id())
            {
                establishAcceptor(from);
            }
            return;
        }
        final Outgoing request = message.peerViId >= 0 && message.peerViId < outgoing.length ?
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
            default:
                request.deferred = true;
                break;
        }
    }

    private boolean matches(final Outgoing request, final Incoming candidate)
    {
        final Handshake message = candidate.request;
        return request.isPeer() && !request.accepting && !request.linked && !request.isCompleted() &&
            Incoming.REQUESTED == candidate.state &&
            Handshake.PEER_REQUEST == message.type && message.discriminator == request.discriminator() &&
            message.address.equals(request.address()) &&
            !(message.nicId == transport.nicId() && message.viId == request.vi().id());
    }

    /**
     * A peer request matches a request of this NIC: the smaller (NIC id, VI id) accepts.
     *
     * @return true if this side accepted.
     */
    private boolean decide(final Outgoing request, final Incoming candidate)
    {
        final Handshake message = candidate.request;
        final int order = transport.nicId() != message.nicId ?
            Long.compareUnsigned(transport.nicId(), message.nicId) : Integer.compare(request.vi().id(), message.viId);
        if (order < 0)
        {
            request.accepting = true;
            candidate.state = Incoming.TAKEN;
            if (!acceptOn(candidate, request.vi(), request.sequence()) && Incoming.FAILED != candidate.state)
            {
                request.vi().settle(request.sequence(), 0, ViConnection.CONNECT_NO_MATCH);
            }
            return true;
        }
        candidate.state = Incoming.TAKEN;
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
    private boolean acceptOn(final Incoming request, final ViConnection vi, final int sequence)
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
        request.state = Incoming.ACCEPTING;
        transmit(request.endpoint, new Handshake(Handshake.ACCEPT, vi.id(), peer.viId, peer.sequence,
            transport.nicId(), peer.discriminator, token, mirror.address(), vi.reliability().vipValue(),
            vi.maxTransfer(), vi.flags(), vi.ptag(), mirror.entries(), transport.workerAddress(), mirror.packedKey(),
            transport.address()));
        return true;
    }

    private void establishAcceptor(final Incoming request)
    {
        final Handshake peer = request.request;
        final ViConnection vi = request.acceptor;
        request.state = Incoming.DONE;
        incoming.remove(request.key);
        vi.settle(request.sequence, peer.viId, ViConnection.CONNECT_ACCEPTED);
        vi.onConnected(request.link, peer.address, peer.attributes());
        transport.onLinkEstablished(request.link, peer.address);
        if (!vi.establish(peer.nicId, peer.viId, Math.min(vi.maxTransfer(), peer.maxTransfer)))
        {
            request.link.disconnect("VI " + vi.id() + " of " + transport.address() + " stopped connecting");
        }
    }

    private void onAccepted(final Outgoing request, final Handshake peer)
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
        for (final Outgoing request : outgoing)
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
        for (final Iterator<Incoming> it = incoming.values().iterator(); it.hasNext(); )
        {
            final Incoming candidate = it.next();
            if (null != candidate.sink && null != candidate.sink.failure())
            {
                final boolean accepting = Incoming.ACCEPTING == candidate.state;
                candidate.state = Incoming.FAILED;
                if (!accepting)
                {
                    it.remove();
                    UcxEndpoints.close(transport, candidate.endpoint);
                    work++;
                }
            }
        }
        for (final Iterator<Sending> it = sending.iterator(); it.hasNext(); )
        {
            final Sending message = it.next();
            final int status = Ucp.checkStatus(message.request);
            if (Ucp.IN_PROGRESS != status)
            {
                if (Ucp.OK == status && null != message.owner)
                {
                    message.owner.onReached();
                }
                Ucp.free(message.request);
                it.remove();
                if (null != message.closeAfter)
                {
                    linger(message.closeAfter);
                }
                work++;
            }
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        work += closing.size();
        closing.clear();
        return work;
    }

    /**
     * Keeps an answer's endpoint open for at least {@link #LINGER_NS} after the answer left (closed by the next
     * {@link #housekeeping()} after that): a forced close right away may drop the answer before the requester took
     * it.
     */
    private void linger(final UcpEndpoint endpoint)
    {
        lingering.addLast(new Lingering(endpoint, System.nanoTime() + LINGER_NS));
    }

    private void closeLingering(final long nowNs)
    {
        // handed to the next progress, which closes endpoints where it is safe (housekeeping may run in a callback)
        while (!lingering.isEmpty() && nowNs - lingering.peekFirst().closeAtNs >= 0)
        {
            closing.add(lingering.pollFirst().endpoint);
            busy = true;
        }
    }

    private record Lingering(UcpEndpoint endpoint, long closeAtNs)
    {
    }

    /**
     * Refuses or defers a request over an endpoint of its own, closed a while after the answer left.
     */
    private void answer(final Incoming request, final int type, final int viId)
    {
        request.state = Incoming.DONE;
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

    private void openAnswerEndpoint(final Incoming request)
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

    private void drop(final Incoming request)
    {
        request.state = Incoming.FAILED;
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
    private void transmit(final UcpEndpoint endpoint, final Handshake message, final Outgoing owner,
        final UcpEndpoint closeAfter)
    {
        final Arena arena = Arena.ofAuto();
        final MemorySegment header = arena.allocate(Handshake.HEADER_LENGTH, 8);
        final MemorySegment data = arena.allocate(Math.max(1, message.dataLength()), 8);
        message.encodeHeader(new UnsafeBuffer(header.address(), Handshake.HEADER_LENGTH));
        message.encodeData(new UnsafeBuffer(data.address(), (int)data.byteSize()));
        final long request = Ucp.amSend(endpoint.getNativeId(), Handshake.AM_ID, header.address(),
            Handshake.HEADER_LENGTH, data.address(), message.dataLength(), sendParam.address());
        if (Ucp.isRequest(request))
        {
            sending.add(new Sending(header, data, request, owner, closeAfter));
            busy = true;
            return;
        }
        if (Ucp.OK == request && null != owner)
        {
            owner.onReached();
        }
        if (null != closeAfter)
        {
            linger(closeAfter);
        }
    }

    private void release(final Outgoing request)
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
        for (final Outgoing request : outgoing)
        {
            if (null != request && !request.isCompleted())
            {
                return true;
            }
        }
        return false;
    }

    private static ViaException clientGone(final Incoming request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.request.address + " gave up");
    }

}
