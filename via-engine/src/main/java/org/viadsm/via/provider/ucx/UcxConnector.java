package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineVi;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViRecord;
import org.viadsm.via.engine.ViRecordLayout;

import static org.viadsm.via.engine.ViRecordLayout.RESULT_ACCEPTED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_ABANDONED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_NO_MATCH;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_REJECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

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
final class UcxConnector implements Connector
{
    static final long RETRY_NS = 20_000_000L;

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
        EngineVi acceptor;
        int sequence;
        UcxLink link;

        Incoming(final Handshake request, final String key)
        {
            this.request = request;
            this.key = key;
        }
    }

    /** A request of one of this NIC's VIs. */
    private static final class Outgoing
    {
        final EngineVi vi;
        final int sequence;
        final String address;
        final UcxAddress target;
        final long discriminator;
        final boolean peer;
        final long deadlineNs;
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        final RegistrationMirror mirror;
        UcpEndpoint endpoint;
        UcxEndpoints.Sink sink;
        long retryAtNs;
        boolean reached;
        boolean refused;
        boolean deferred;
        boolean accepting;
        boolean linked;
        boolean completed;
        boolean released;

        Outgoing(final EngineVi vi, final int sequence, final String address, final UcxAddress target,
            final long discriminator, final boolean peer, final long deadlineNs, final RegistrationMirror mirror)
        {
            this.vi = vi;
            this.sequence = sequence;
            this.address = address;
            this.target = target;
            this.discriminator = discriminator;
            this.peer = peer;
            this.deadlineNs = deadlineNs;
            this.mirror = mirror;
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

    private final UcxTransport nic;
    private final Queue<Handshake> received = new ConcurrentLinkedQueue<>();
    private final Map<String, Incoming> incoming = new HashMap<>();
    private final List<UcxEndpoints.Sink> accepted = new ArrayList<>();
    private final List<UcpEndpoint> acceptedEndpoints = new ArrayList<>();
    private final Outgoing[] outgoing;
    private final List<Sending> sending = new ArrayList<>();
    private final List<UcpEndpoint> closing = new ArrayList<>();
    private final MemorySegment sendParam = Arena.global().allocate(Ucp.PARAM_LENGTH, 8);
    private volatile boolean busy;

    UcxConnector(final UcxTransport nic)
    {
        this.nic = nic;
        this.outgoing = new Outgoing[nic.attributes().maxVis()];
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
                    final UcpEndpoint endpoint = UcxEndpoints.accept(nic, request, sink);
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
        for (int i = accepted.size() - 1; i >= 0; i--)
        {
            if (null != accepted.get(i).failure())
            {
                accepted.remove(i);
                UcxEndpoints.close(nic, acceptedEndpoints.remove(i));
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
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic.nic());
        idler.start(timeoutNs);
        do
        {
            synchronized (this)
            {
                for (final Incoming candidate : incoming.values())
                {
                    if (Incoming.REQUESTED == candidate.state &&
                        Handshake.CLIENT_REQUEST == candidate.request.type &&
                        candidate.request.discriminator == discriminator)
                    {
                        candidate.state = Incoming.TAKEN;
                        idler.finish();
                        return new UcxConnectRequest(this, candidate, nic);
                    }
                }
            }
            nic.progress(false);
        }
        while (idler.idle(null));
        checkNicOpen();
        throw new ViaException(ViaError.TIMEOUT, "no connection request with discriminator " + discriminator +
            " reached " + nic.address() + " within " + timeoutNs + " ns");
    }

    @Override
    public void connectRequest(final EngineVi vi, final String address, final long discriminator,
        final long timeoutNs)
    {
        final Outgoing request = begin(vi, address, discriminator, timeoutNs, false);
        synchronized (this)
        {
            send(request);
        }
        final ViRecord record = vi.record();
        final Idler idler = new Idler(nic.nic());
        idler.start(timeoutNs);
        long word;
        while (RESULT_PENDING == ViRecordLayout.connectResult(word = record.connectWord()))
        {
            nic.progress(false);
            if (!idler.idle(null))
            {
                checkNicOpen();
                giveUp(request, unanswered(request), request.reached ?
                    address + " did not answer the connection request of VI " + vi.id() :
                    "no NIC listens at " + address + ": connections failed for " + timeoutNs + " ns");
            }
        }
        idler.finish();
        final int result = ViRecordLayout.connectResult(word);
        if (RESULT_ACCEPTED == result)
        {
            awaitEstablished(vi, address);
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

    /**
     * Accepts a client's request on an idle VI of this NIC, waiting until the client confirmed.
     */
    void accept(final Incoming request, final EngineVi server)
    {
        final ViRecord record = server.record();
        final int sequence = server.nextConnectSequence();
        if (!record.beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + server.id() + " is not idle: " +
                ViRecordLayout.viState(record.state()));
        }
        synchronized (this)
        {
            if (Incoming.TAKEN != request.state)
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new IllegalStateException("the connection request was already answered");
            }
            if (!acceptOn(request, server, sequence))
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                if (Incoming.FAILED == request.state)
                {
                    throw clientGone(request);
                }
                throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                    ", the request from " + request.request.address + " is " +
                    request.request.attributes().reliabilityLevel());
            }
        }
        final Idler idler = new Idler(nic.nic());
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (STATE_CONNECT_PENDING == record.state())
        {
            nic.progress(false);
            final boolean failed;
            synchronized (this)
            {
                failed = Incoming.FAILED == request.state;
            }
            if (failed || !idler.idle(null))
            {
                idler.finish();
                synchronized (this)
                {
                    drop(request);
                }
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw clientGone(request);
            }
        }
        idler.finish();
    }

    synchronized void reject(final Incoming request)
    {
        if (Incoming.TAKEN != request.state)
        {
            throw new IllegalStateException("the connection request was already answered");
        }
        answer(request, Handshake.REJECT, 0);
    }

    @Override
    public void connectPeerRequest(final EngineVi vi, final String address, final long discriminator,
        final long timeoutNs)
    {
        final Outgoing request = begin(vi, address, discriminator, timeoutNs, true);
        synchronized (this)
        {
            for (final Incoming candidate : new ArrayList<>(incoming.values()))
            {
                if (matches(request, candidate) && decide(request, candidate))
                {
                    return;
                }
            }
            send(request);
        }
    }

    @Override
    public boolean connectPeerDone(final EngineVi vi)
    {
        final Outgoing request;
        synchronized (this)
        {
            request = outgoing[vi.id()];
        }
        if (null == request || !request.peer)
        {
            throw new IllegalStateException("VI " + vi.id() + " has no peer connection request");
        }
        if (request.completed)
        {
            return true;
        }
        nic.progress(false);
        final ViRecord record = vi.record();
        switch (ViRecordLayout.connectResult(record.connectWord()))
        {
            case RESULT_PENDING:
                if (System.nanoTime() - request.deadlineNs >= 0)
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
                    complete(request);
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
    public int abandon(final EngineVi vi)
    {
        final Outgoing request;
        synchronized (this)
        {
            request = outgoing[vi.id()];
        }
        final int state = vi.abandonConnect();
        if (null != request)
        {
            forget(request);
        }
        return state;
    }

    /**
     * Closes every endpoint still in setup; the NIC is closing.
     */
    synchronized void close()
    {
        // endpoints first, forced: UCX completes what is pending on them, which it refuses to drop at worker close
        for (final Sending message : sending)
        {
            UcxEndpoints.close(nic, message.closeAfter);
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(nic, endpoint);
        }
        closing.clear();
        for (final Incoming candidate : incoming.values())
        {
            if (null == candidate.link)
            {
                UcxEndpoints.close(nic, candidate.endpoint);
            }
        }
        incoming.clear();
        for (final UcpEndpoint endpoint : acceptedEndpoints)
        {
            UcxEndpoints.close(nic, endpoint);
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
                    UcxEndpoints.close(nic, request.endpoint);
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

    private Outgoing begin(final EngineVi vi, final String address, final long discriminator, final long timeoutNs,
        final boolean peer)
    {
        final UcxAddress target = UcxAddress.parse(address);
        final int sequence = vi.nextConnectSequence();
        if (!vi.record().beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + vi.id() + " is not idle: " +
                ViRecordLayout.viState(vi.record().state()));
        }
        final long nowNs = System.nanoTime();
        final long deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : nowNs + Math.max(0, timeoutNs);
        final RegistrationMirror mirror;
        try
        {
            mirror = new RegistrationMirror(nic, nic.area().table().capacity());
        }
        catch (final RuntimeException ex)
        {
            vi.record().compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            throw ex;
        }
        final Outgoing request = new Outgoing(vi, sequence, address, target, discriminator, peer,
            deadlineNs - nowNs < 0 && timeoutNs > 0 ? Long.MAX_VALUE : deadlineNs, mirror);
        synchronized (this)
        {
            outgoing[vi.id()] = request;
            busy = true;
        }
        return request;
    }

    /**
     * Opens the request's control endpoint and sends the request; retried while no listener answers.
     */
    private void send(final Outgoing request)
    {
        request.sink = new UcxEndpoints.Sink();
        request.retryAtNs = 0;
        try
        {
            request.endpoint = UcxEndpoints.connect(nic, request.target.socketAddress(), request.sink);
        }
        catch (final RuntimeException ex)
        {
            request.endpoint = null;
            request.retryAtNs = System.nanoTime() + RETRY_NS;
            return;
        }
        final EngineVi vi = request.vi;
        final ViRecord record = vi.record();
        transmit(request.endpoint, new Handshake(request.peer ? Handshake.PEER_REQUEST : Handshake.CLIENT_REQUEST,
            vi.id(), 0, request.sequence, nic.nicId(), request.discriminator, request.token,
            request.mirror.address(), vi.reliability().vipValue(), record.maxTransfer(), record.flags(),
            record.ptag(), request.mirror.entries(), nic.workerAddress(), request.mirror.packedKey(),
            nic.address()), request, null);
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
        if (null == request || request.completed || request.linked || request.sequence != message.sequence)
        {
            return;
        }
        request.reached = true;
        switch (message.type)
        {
            case Handshake.ACCEPT:
                onAccepted(request, message);
                break;
            case Handshake.REJECT:
                request.vi.record().settle(request.sequence, 0, RESULT_REJECTED);
                break;
            case Handshake.NO_MATCH:
                request.vi.record().settle(request.sequence, 0, RESULT_NO_MATCH);
                break;
            default:
                request.deferred = true;
                break;
        }
    }

    private boolean matches(final Outgoing request, final Incoming candidate)
    {
        final Handshake message = candidate.request;
        return request.peer && !request.accepting && !request.linked && !request.completed &&
            Incoming.REQUESTED == candidate.state &&
            Handshake.PEER_REQUEST == message.type && message.discriminator == request.discriminator &&
            message.address.equals(request.address) &&
            !(message.nicId == nic.nicId() && message.viId == request.vi.id());
    }

    /**
     * A peer request matches a request of this NIC: the smaller (NIC id, VI id) accepts.
     *
     * @return true if this side accepted.
     */
    private boolean decide(final Outgoing request, final Incoming candidate)
    {
        final Handshake message = candidate.request;
        final int order = nic.nicId() != message.nicId ? Long.compareUnsigned(nic.nicId(), message.nicId) :
            Integer.compare(request.vi.id(), message.viId);
        if (order < 0)
        {
            request.accepting = true;
            candidate.state = Incoming.TAKEN;
            if (!acceptOn(candidate, request.vi, request.sequence) && Incoming.FAILED != candidate.state)
            {
                request.vi.record().settle(request.sequence, 0, RESULT_NO_MATCH);
            }
            return true;
        }
        candidate.state = Incoming.TAKEN;
        answer(candidate, Handshake.DEFER, request.vi.id());
        if (null == request.endpoint && 0 == request.retryAtNs)
        {
            send(request);
        }
        return false;
    }

    /**
     * Accepts a request on an incoming control endpoint with a VI whose connection began: makes the link, fills
     * the requester's mirror, answers, and waits for the confirmation in {@link #progress}.
     *
     * @return false if the reliability levels differ (answered) or the requester is gone (state failed).
     */
    private boolean acceptOn(final Incoming request, final EngineVi vi, final int sequence)
    {
        final Handshake peer = request.request;
        if (peer.reliability != vi.reliability().vipValue())
        {
            answer(request, Handshake.NO_MATCH, vi.id());
            return false;
        }
        final ViRecord record = vi.record();
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        RegistrationMirror mirror = null;
        UcpEndpoint data = null;
        try
        {
            openAnswerEndpoint(request);
            mirror = new RegistrationMirror(nic, nic.area().table().capacity());
            final UcxEndpoints.Sink dataSink = new UcxEndpoints.Sink();
            data = UcxEndpoints.data(nic, peer.workerAddress, dataSink);
            final UcxLink link = new UcxLink(nic, vi, token, peer, request.endpoint, data, mirror);
            request.sink.link(link);
            dataSink.link(link);
            nic.attach(link);
            request.link = link;
            if (!link.publishTo(peer, nic.publisher()))
            {
                throw new IllegalStateException("cannot fill the registration mirror of " + peer.address);
            }
        }
        catch (final RuntimeException ex)
        {
            if (null != request.link)
            {
                nic.release(request.link);
                request.link = null;
            }
            else
            {
                if (null != mirror)
                {
                    mirror.close();
                }
                UcxEndpoints.close(nic, data);
            }
            drop(request);
            return false;
        }
        request.acceptor = vi;
        request.sequence = sequence;
        request.state = Incoming.ACCEPTING;
        transmit(request.endpoint, new Handshake(Handshake.ACCEPT, vi.id(), peer.viId, peer.sequence, nic.nicId(),
            peer.discriminator, token, mirror.address(), vi.reliability().vipValue(), record.maxTransfer(),
            record.flags(), record.ptag(), mirror.entries(), nic.workerAddress(), mirror.packedKey(),
            nic.address()));
        return true;
    }

    private void establishAcceptor(final Incoming request)
    {
        final Handshake peer = request.request;
        final EngineVi vi = request.acceptor;
        final ViRecord record = vi.record();
        request.state = Incoming.DONE;
        incoming.remove(request.key);
        record.settle(request.sequence, peer.viId, RESULT_ACCEPTED);
        vi.onConnected(request.link, peer.address, peer.attributes());
        nic.onLinkEstablished(request.link, peer.address);
        if (!record.establish(STATE_CONNECT_PENDING, peer.nicId, peer.viId,
            Math.min(record.maxTransfer(), peer.maxTransfer)))
        {
            request.link.disconnect("VI " + vi.id() + " of " + nic.address() + " stopped connecting");
        }
    }

    private void onAccepted(final Outgoing request, final Handshake peer)
    {
        final EngineVi vi = request.vi;
        final ViRecord record = vi.record();
        if (!record.settle(request.sequence, peer.viId, RESULT_ACCEPTED))
        {
            return;
        }
        request.linked = true;
        UcpEndpoint data = null;
        try
        {
            final UcxEndpoints.Sink dataSink = new UcxEndpoints.Sink();
            data = UcxEndpoints.data(nic, peer.workerAddress, dataSink);
            final UcxLink link = new UcxLink(nic, vi, request.token, peer, request.endpoint, data, request.mirror);
            request.sink.link(link);
            dataSink.link(link);
            nic.attach(link);
            if (!link.publishTo(peer, nic.publisher()))
            {
                link.onEndpointError("cannot fill the registration mirror of " + peer.address);
            }
            vi.onConnected(link, peer.address, peer.attributes());
            nic.onLinkEstablished(link, peer.address);
            if (!record.establish(STATE_CONNECT_PENDING, peer.nicId, peer.viId,
                Math.min(record.maxTransfer(), peer.maxTransfer)))
            {
                link.disconnect("VI " + vi.id() + " of " + nic.address() + " stopped connecting");
                return;
            }
            transmit(request.endpoint, Handshake.bare(Handshake.CONFIRM, vi.id(), peer.viId, request.sequence,
                nic.nicId()));
        }
        catch (final RuntimeException ex)
        {
            UcxEndpoints.close(nic, data);
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        }
    }

    private int maintain()
    {
        int work = 0;
        final long nowNs = System.nanoTime();
        for (final Outgoing request : outgoing)
        {
            if (null == request || request.linked || request.completed)
            {
                continue;
            }
            if (null != request.endpoint && (request.deferred || null != request.sink.failure()))
            {
                request.refused |= !request.reached && !request.deferred;
                UcxEndpoints.close(nic, request.endpoint);
                request.endpoint = null;
                request.retryAtNs = request.deferred || request.accepting ? Long.MAX_VALUE : nowNs + RETRY_NS;
                work++;
            }
            if (null == request.endpoint && 0 != request.retryAtNs && nowNs - request.retryAtNs >= 0 &&
                nowNs - request.deadlineNs < 0 && !request.accepting && !request.deferred &&
                RESULT_PENDING == ViRecordLayout.connectResult(request.vi.record().connectWord()))
            {
                send(request);
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
                    UcxEndpoints.close(nic, candidate.endpoint);
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
                    message.owner.reached = true;
                }
                Ucp.free(message.request);
                it.remove();
                if (null != message.closeAfter)
                {
                    closing.add(message.closeAfter);
                }
                work++;
            }
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(nic, endpoint);
        }
        work += closing.size();
        closing.clear();
        return work;
    }

    /**
     * Refuses or defers a request over an endpoint of its own, closed once the answer left.
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
            nic.nicId()), null, request.endpoint);
    }

    private void openAnswerEndpoint(final Incoming request)
    {
        if (null == request.endpoint)
        {
            request.sink = new UcxEndpoints.Sink();
            request.endpoint = UcxEndpoints.connect(nic, UcxAddress.parse(request.request.address).socketAddress(),
                request.sink);
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
                nic.release(request.link);
            }
            else
            {
                UcxEndpoints.close(nic, request.endpoint);
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
            owner.reached = true;
        }
        if (null != closeAfter)
        {
            closing.add(closeAfter);
            busy = true;
        }
    }

    private void giveUp(final Outgoing request, final ViaError error, final String message)
    {
        final ViRecord record = request.vi.record();
        if (record.settle(request.sequence, 0, RESULT_ABANDONED))
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            forget(request);
            throw new ViaException(error, message);
        }
    }

    private void awaitEstablished(final EngineVi vi, final String address)
    {
        final ViRecord record = vi.record();
        final Idler idler = new Idler(nic.nic());
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (STATE_CONNECT_PENDING == record.state())
        {
            nic.progress(false);
            if (!idler.idle(null))
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, address + " accepted but the connection of " +
                    "VI " + vi.id() + " did not complete");
            }
        }
        idler.finish();
    }

    /**
     * A peer request connected: its resources go, its record stays so that later done calls still say so.
     */
    private void complete(final Outgoing request)
    {
        synchronized (this)
        {
            request.completed = true;
            release(request);
        }
    }

    private void forget(final Outgoing request)
    {
        synchronized (this)
        {
            if (outgoing[request.vi.id()] == request)
            {
                outgoing[request.vi.id()] = null;
            }
            if (!request.linked)
            {
                release(request);
            }
        }
    }

    private void release(final Outgoing request)
    {
        if (!request.linked && !request.released)
        {
            request.released = true;
            if (null != request.endpoint && !request.completed)
            {
                transmit(request.endpoint, Handshake.bare(Handshake.WITHDRAW, request.vi.id(), 0, request.sequence,
                    nic.nicId()), null, request.endpoint);
            }
            else
            {
                UcxEndpoints.close(nic, request.endpoint);
            }
            request.endpoint = null;
            request.mirror.close();
        }
    }

    private boolean hasOutgoing()
    {
        for (final Outgoing request : outgoing)
        {
            if (null != request && !request.completed)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A request that got no answer timed out, unless every attempt to reach the peer's listener failed.
     */
    private static ViaError unanswered(final Outgoing request)
    {
        return request.reached || !request.refused ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
    }

    private static ViaException clientGone(final Incoming request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.request.address + " gave up");
    }

    private void checkNicOpen()
    {
        if (nic.isClosed())
        {
            throw new IllegalStateException("NIC " + nic.address() + " is closed");
        }
    }
}
