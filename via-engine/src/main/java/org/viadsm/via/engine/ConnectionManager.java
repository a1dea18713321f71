package org.viadsm.via.engine;

import java.util.ArrayList;
import java.util.Iterator;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

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
 * Connection management of one NIC, client/server and peer to peer.
 * <p>
 * A requester marks its VI connect-pending with a fresh sequence number in its connect word and writes a request
 * into the target NIC's request ring. The answering side settles the requester's connect word with one
 * compare-and-set (accepted with its VI id, rejected, no match); a requester that gives up settles it as abandoned,
 * so exactly one of them wins. After an accept, the answering side writes the peer fields of both records and makes
 * both connected, its own first; each side gives its VI the connection only once both records are connected to each
 * other, so that failure detection, which takes a peer record no longer connected back as a lost connection, never
 * sees a connection half made. Peer-to-peer requests are matched by the side with the smaller NIC id (on one NIC, by
 * the VI with the smaller id), which settles both connect words.
 * <p>
 * <b>Note:</b> thread-safe; the ring is drained and requests are matched under this object's lock, and waits park
 * outside it.
 */
final class ConnectionManager implements Connector
{

    static final class PeerRequest
    {
        final PeerNic peer;
        final String address;
        final long discriminator;
        final int sequence;
        final long deadlineNs;
        boolean completed;

        PeerRequest(
            final PeerNic peer, final String address, final long discriminator, final int sequence,
            final long timeoutNs)
        {
            this.peer = peer;
            this.address = address;
            this.discriminator = discriminator;
            this.sequence = sequence;
            final long nowNs = System.nanoTime();
            this.deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : nowNs + timeoutNs;
        }

        boolean isPastDeadline()
        {
            return Long.MAX_VALUE != deadlineNs && System.nanoTime() - deadlineNs >= 0;
        }
    }

    private final EngineNic nic;
    private final ArrayList<EngineConnectRequest> clientRequests = new ArrayList<>();
    private final ArrayList<EngineConnectRequest> peerRequests = new ArrayList<>();
    private final RequestRing.Consumer consumer = this::onRequest;
    private final long stallTimeoutNs;

    ConnectionManager(final EngineNic nic)
    {
        this.nic = nic;
        this.stallTimeoutNs = nic.context().producerStallTimeoutNs();
    }

    @Override
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        do
        {
            final EngineConnectRequest request = takeClientRequest(discriminator);
            if (null != request)
            {
                idler.finish();
                return request;
            }
        }
        while (idler.idle(null));
        checkNicOpen();
        throw new ViaException(ViaError.TIMEOUT, "no connection request with discriminator " + discriminator +
            " reached " + nic.address() + " within " + timeoutNs + " ns");
    }

    @Override
    public void connectRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        final PeerNic peer = nic.peer(address);
        final ViRecord record = vi.record();
        final int sequence = vi.nextConnectSequence();
        if (!record.beginConnect(sequence))
        {
            throw new IllegalStateException(
                "VI " + vi.id() + " is not idle: " + ViRecordLayout.viState(record.state()));
        }
        while (!offer(ConnectMessageFlyweight.TYPE_CLIENT_REQUEST, vi, peer, sequence, discriminator))
        {
            if (!idler.idle(null))
            {
                giveUp(vi, sequence, ViaError.TIMEOUT, "request ring of " + address + " stayed full");
            }
        }
        final long word = awaitAnswer(vi, peer, sequence, idler, address);
        switch (ViRecordLayout.connectResult(word))
        {
            case RESULT_ACCEPTED:
                awaitEstablished(vi, peer, ViRecordLayout.connectPeerVi(word), address);
                return;
            case RESULT_REJECTED:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.REJECT, address + " rejected the connection request of VI " +
                    vi.id() + " with discriminator " + discriminator);
            case RESULT_NO_MATCH:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.NO_MATCH, address + " cannot connect VI " + vi.id() +
                    ": reliability levels differ");
            default:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, "connection request of VI " + vi.id() +
                    " was abandoned (the VI disconnected)");
        }
    }

    void accept(final EngineConnectRequest request, final Vi vi)
    {
        request.checkNotAnswered();
        final EngineVi server = nic.ownVi(vi);
        final ViRecord record = server.record();
        if (!record.beginConnect(server.nextConnectSequence()))
        {
            throw new IllegalStateException("VI " + server.id() + " is not idle: " +
                ViRecordLayout.viState(record.state()));
        }
        ViRecord accepted = null;
        try
        {
            request.markAnswered();
            final PeerNic peer = requesterOf(request);
            final ViRecord client = peer.viRecord(request.viId);
            if (request.reliability != server.reliability().vipValue())
            {
                client.settle(request.sequence, 0, RESULT_NO_MATCH);
                throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                    ", the request from " + request.address + " is " + request.reliability + " (VIPL value)");
            }
            if (!client.settle(request.sequence, server.id(), RESULT_ACCEPTED))
            {
                throw new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.address + " gave up");
            }
            accepted = client;
            final int maxTransfer = Math.min(server.attributes().maxTransferSize(), request.maxTransfer);
            record.establish(STATE_CONNECT_PENDING, peer.nicId(), request.viId, maxTransfer);
            if (!client.establish(STATE_CONNECT_PENDING, nic.nicId(), server.id(), maxTransfer))
            {
                throw new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.address +
                    " gave up before the connection was established");
            }
            connect(server, peer, request.viId, request.address);
        }
        catch (final RuntimeException ex)
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            record.compareAndSetState(STATE_CONNECTED, STATE_IDLE);
            if (null != accepted)
            {
                // the client was told accepted: make it fail now rather than at its establish timeout
                accepted.compareAndSetState(STATE_CONNECT_PENDING, STATE_ERROR);
                accepted.compareAndSetState(STATE_CONNECTED, STATE_ERROR);
            }
            throw ex;
        }
    }

    void reject(final EngineConnectRequest request)
    {
        request.markAnswered();
        try
        {
            requesterOf(request).viRecord(request.viId).settle(request.sequence, 0, RESULT_REJECTED);
        }
        catch (final ViaException ignore)
        {
            // the client went away: nobody is left to tell
        }
    }

    @Override
    public void connectPeerRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final PeerNic peer = nic.peer(address);
        final int sequence = vi.nextConnectSequence();
        if (!vi.record().beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + vi.id() + " is not idle: " +
                ViRecordLayout.viState(vi.record().state()));
        }
        synchronized (this)
        {
            vi.peerRequest = new PeerRequest(peer, address, discriminator, sequence, timeoutNs);
        }
        if (!offer(ConnectMessageFlyweight.TYPE_PEER_REQUEST, vi, peer, sequence, discriminator))
        {
            giveUp(vi, sequence, ViaError.ERROR_RESOURCE, "request ring of " + address + " is full");
        }
        poll();
    }

    @Override
    public boolean connectPeerDone(final EngineVi vi)
    {
        final PeerRequest request;
        synchronized (this)
        {
            request = vi.peerRequest;
            if (null == request)
            {
                throw new IllegalStateException("VI " + vi.id() + " has no peer connection request");
            }
            if (request.completed)
            {
                return true;
            }
        }
        poll();
        final ViRecord record = vi.record();
        final long word = record.connectWord();
        switch (ViRecordLayout.connectResult(word))
        {
            case RESULT_PENDING:
                if (request.isPastDeadline())
                {
                    giveUp(vi, request.sequence, ViaError.TIMEOUT, "no peer matched the request to " +
                        request.address + " with discriminator " + request.discriminator);
                }
                if (!request.peer.isOpen() || !request.peer.isAlive())
                {
                    giveUp(vi, request.sequence, ViaError.NOT_REACHABLE, request.address + " went away");
                }
                return false;
            case RESULT_ACCEPTED:
                return onPeerAccepted(vi, request, ViRecordLayout.connectPeerVi(word));
            case RESULT_NO_MATCH:
                forget(vi);
                throw new ViaException(ViaError.NO_MATCH, "the peer at " + request.address + " has another " +
                    "reliability level than VI " + vi.id() + " (" + vi.reliability() + ")");
            default:
                forget(vi);
                throw new ViaException(ViaError.NOT_REACHABLE, "peer connection request of VI " + vi.id() +
                    " was abandoned");
        }
    }

    /**
     * Cancels the pending request of a VI being disconnected.
     *
     * @return the state to tear down from: idle if the request was cancelled, else the state it got to.
     */
    @Override
    public int abandon(final EngineVi vi)
    {
        synchronized (this)
        {
            vi.peerRequest = null;
        }
        return vi.abandonConnect();
    }

    private boolean onPeerAccepted(final EngineVi vi, final PeerRequest request, final int peerViId)
    {
        final ViRecord record = vi.record();
        final int state = record.state();
        if (STATE_CONNECT_PENDING == state)
        {
            if (!request.peer.isOpen() || !request.peer.isAlive())
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                forget(vi);
                throw new ViaException(ViaError.NOT_REACHABLE, request.address + " went away while connecting");
            }
            return false;
        }
        if (isEstablished(vi, state, request.peer, peerViId))
        {
            synchronized (this)
            {
                if (!request.completed)
                {
                    try
                    {
                        connect(vi, request.peer, peerViId, request.address);
                    }
                    catch (final ViaException ex)
                    {
                        record.compareAndSetState(state, STATE_IDLE);
                        vi.peerRequest = null;
                        throw ex;
                    }
                    request.completed = true;
                }
            }
            return true;
        }
        record.compareAndSetState(STATE_ERROR, STATE_IDLE);
        forget(vi);
        throw new ViaException(ViaError.NOT_REACHABLE, "the peer at " + request.address + " could not complete " +
            "the connection of VI " + vi.id());
    }

    private long awaitAnswer(
        final EngineVi vi, final PeerNic peer, final int sequence, final Idler idler, final String address)
    {
        final ViRecord record = vi.record();
        int spins = 0;
        while (true)
        {
            final long word = record.connectWord();
            if (RESULT_PENDING != ViRecordLayout.connectResult(word))
            {
                idler.finish();
                return word;
            }
            if (!peer.isOpen() || (0 == (++spins & 63) && !peer.isAlive()))
            {
                giveUp(vi, sequence, ViaError.NOT_REACHABLE, address + " went away");
            }
            else if (!idler.idle(null))
            {
                checkNicOpen();
                giveUp(vi, sequence, ViaError.TIMEOUT, address + " did not answer the connection request of VI " +
                    vi.id());
            }
        }
    }

    private void awaitEstablished(final EngineVi vi, final PeerNic peer, final int peerViId, final String address)
    {
        final ViRecord record = vi.record();
        final Idler idler = new Idler(nic);
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (true)
        {
            final int state = record.state();
            if (isEstablished(vi, state, peer, peerViId))
            {
                idler.finish();
                try
                {
                    connect(vi, peer, peerViId, address);
                }
                catch (final ViaException ex)
                {
                    record.compareAndSetState(state, STATE_IDLE);
                    throw ex;
                }
                return;
            }
            if (STATE_CONNECT_PENDING != state || !peer.isOpen() || !peer.isAlive() || !idler.idle(null))
            {
                record.compareAndSetState(state, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, address + " accepted but did not complete the " +
                    "connection of VI " + vi.id());
            }
        }
    }

    /**
     * Whether the answering side established the connection: the VI's record names the peer VI that answered, on
     * the NIC asked, and is connected while the peer's record is connected back to it (the answering side connects
     * its own record first), or is already in error after that.
     */
    private boolean isEstablished(final EngineVi vi, final int state, final PeerNic peer, final int peerViId)
    {
        final ViRecord record = vi.record();
        if (record.peerNicId() != peer.nicId() || record.peerViId() != peerViId)
        {
            return false;
        }
        return STATE_ERROR == state || STATE_CONNECTED == state && peerViId >= 0 &&
            peerViId < peer.area().geometry().maxVis() && peer.viRecord(peerViId).isConnectedTo(nic.nicId(), vi.id());
    }

    /**
     * Gives the VI its connection to the peer VI; a peer record that is no live VI fails with a ViaException, and
     * the caller undoes the state.
     */
    private static void connect(final EngineVi vi, final PeerNic peer, final int peerViId, final String address)
    {
        try
        {
            vi.onConnected(peer, peerViId, address);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "VI " + peerViId + " of " + address +
                " is not a live VI: " + ex.getMessage(), ex);
        }
    }

    /**
     * Settles the VI's own request as abandoned, makes it idle and throws; if an answer won the race, returns and
     * lets the caller read it.
     */
    private void giveUp(final EngineVi vi, final int sequence, final ViaError error, final String message)
    {
        final ViRecord record = vi.record();
        if (record.settle(sequence, 0, RESULT_ABANDONED))
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            forget(vi);
            throw new ViaException(error, message);
        }
    }

    private synchronized void forget(final EngineVi vi)
    {
        vi.peerRequest = null;
    }

    private boolean offer(
        final int type, final EngineVi vi, final PeerNic peer, final int sequence, final long discriminator)
    {
        final ViRecord record = vi.record();
        return peer.area().requests().offer(type, nic.nicId(), nic.address(), vi.id(), sequence, discriminator,
            record.reliability(), record.maxTransfer(), record.flags());
    }

    private synchronized EngineConnectRequest takeClientRequest(final long discriminator)
    {
        poll();
        final Iterator<EngineConnectRequest> it = clientRequests.iterator();
        while (it.hasNext())
        {
            final EngineConnectRequest request = it.next();
            if (isStale(request))
            {
                it.remove();
            }
            else if (request.discriminator == discriminator)
            {
                it.remove();
                return request;
            }
        }
        return null;
    }

    private synchronized void poll()
    {
        if (nic.isClosed())
        {
            return;
        }
        final RequestRing requests = nic.area().requests();
        requests.unblockIfStalled(System.nanoTime(), stallTimeoutNs);
        requests.drain(consumer);
        final Iterator<EngineConnectRequest> it = peerRequests.iterator();
        while (it.hasNext())
        {
            final EngineConnectRequest request = it.next();
            final EngineVi local = matchingVi(request);
            if (null != local)
            {
                it.remove();
                match(local, request);
            }
            else if (isStale(request))
            {
                it.remove();
            }
        }
    }

    private void onRequest(final int type, final ConnectMessageFlyweight message)
    {
        if (ConnectMessageFlyweight.TYPE_CLIENT_REQUEST == type)
        {
            clientRequests.add(new EngineConnectRequest(this, message));
        }
        else if (ConnectMessageFlyweight.TYPE_PEER_REQUEST == type && message.nicId() >= nic.nicId())
        {
            peerRequests.add(new EngineConnectRequest(this, message));
        }
    }

    private EngineVi matchingVi(final EngineConnectRequest remote)
    {
        for (int i = 0, n = nic.attributes().maxVis(); i < n; i++)
        {
            final EngineVi vi = nic.viAt(i);
            final PeerRequest request = null == vi ? null : vi.peerRequest;
            if (null != request && !request.completed && request.discriminator == remote.discriminator &&
                request.address.equals(remote.address) && request.peer.nicId() == remote.nicId &&
                (nic.nicId() != remote.nicId || vi.id() < remote.viId) &&
                RESULT_PENDING == ViRecordLayout.connectResult(vi.record().connectWord()))
            {
                return vi;
            }
        }
        return null;
    }

    private void match(final EngineVi local, final EngineConnectRequest remote)
    {
        final PeerRequest request = local.peerRequest;
        final ViRecord remoteRecord = request.peer.viRecord(remote.viId);
        final ViRecord record = local.record();
        if (remote.reliability != local.reliability().vipValue())
        {
            remoteRecord.settle(remote.sequence, 0, RESULT_NO_MATCH);
            record.settle(request.sequence, 0, RESULT_NO_MATCH);
            return;
        }
        if (!remoteRecord.settle(remote.sequence, local.id(), RESULT_ACCEPTED))
        {
            return;
        }
        if (!record.settle(request.sequence, remote.viId, RESULT_ACCEPTED))
        {
            remoteRecord.compareAndSetState(STATE_CONNECT_PENDING, STATE_ERROR);
            return;
        }
        final int maxTransfer = Math.min(record.maxTransfer(), remote.maxTransfer);
        record.establish(STATE_CONNECT_PENDING, request.peer.nicId(), remote.viId, maxTransfer);
        boolean connected = false;
        try
        {
            if (remoteRecord.establish(STATE_CONNECT_PENDING, nic.nicId(), local.id(), maxTransfer))
            {
                connect(local, request.peer, remote.viId, request.address);
                request.completed = true;
                connected = true;
            }
        }
        catch (final ViaException ex)
        {
            remoteRecord.compareAndSetState(STATE_CONNECTED, STATE_ERROR);
        }
        if (!connected)
        {
            // the local VI fails in its next connectPeerDone, the remote one (told accepted) in its own
            record.compareAndSetState(STATE_CONNECTED, STATE_IDLE);
        }
    }

    /**
     * The connection a VI's record names when the VI never got one: the peer side established the VI's record
     * for a peer-to-peer request the VI had not yet seen complete. Used to break that peer on disconnect.
     *
     * @return the connection, or null if the record names no peer the VI asked for.
     */
    synchronized Connection connectionNamedByRecord(final EngineVi vi)
    {
        final PeerRequest request = vi.peerRequest;
        final ViRecord record = vi.record();
        final int peerViId = record.peerViId();
        if (null == request || record.peerNicId() != request.peer.nicId() || peerViId < 0 ||
            peerViId >= request.peer.area().geometry().maxVis())
        {
            return null;
        }
        return new Connection(request.peer, peerViId);
    }

    private boolean isStale(final EngineConnectRequest request)
    {
        try
        {
            final PeerNic peer = nic.peer(request.address);
            final long word = peer.viRecord(request.viId).connectWord();
            return peer.nicId() != request.nicId || ViRecordLayout.connectSequence(word) != request.sequence ||
                RESULT_PENDING != ViRecordLayout.connectResult(word);
        }
        catch (final ViaException ex)
        {
            return true;
        }
    }

    private PeerNic requesterOf(final EngineConnectRequest request)
    {
        final PeerNic peer = nic.peer(request.address);
        if (peer.nicId() != request.nicId)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "the NIC at " + request.address + " was reopened");
        }
        return peer;
    }

    private void checkNicOpen()
    {
        if (nic.isClosed())
        {
            throw new IllegalStateException("NIC " + nic.address() + " is closed");
        }
    }
}
