package org.viadsm.via.engine;

import java.util.ArrayList;
import java.util.Iterator;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.viadsm.via.engine.ViRecordLayout.RESULT_ACCEPTED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_NO_MATCH;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_REJECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * The engine's connector, for NICs that reach their peers' shared areas.
 * <p>
 * A requester ({@link AreaConnectAttempt}) marks its VI connect-pending with a fresh sequence number in its connect
 * word and writes a request into the target NIC's request ring. The answering side settles the requester's connect
 * word with one compare-and-set (accepted with its VI id, rejected, no match); a requester that gives up settles it
 * as abandoned, so exactly one of them wins. After an accept, the answering side writes the peer fields of both
 * records and makes both connected, its own first; each side gives its VI the connection only once both records are
 * connected to each other, so that failure detection, which takes a peer record no longer connected back as a lost
 * connection, never sees a connection half made. Peer-to-peer requests are matched by the side with the smaller NIC
 * id (on one NIC, by the VI with the smaller id), which settles both connect words.
 * <p>
 * <b>Note:</b> thread-safe; the ring is drained and requests are matched under this object's lock, and waits park
 * outside it.
 */
final class ConnectionManager extends Connector
{
    private final ArrayList<EngineConnectRequest> clientRequests = new ArrayList<>();
    private final ArrayList<EngineConnectRequest> peerRequests = new ArrayList<>();
    private final RequestRing.Consumer consumer = this::onRequest;
    private final long stallTimeoutNs;

    ConnectionManager(final EngineNic nic)
    {
        super(nic);
        this.stallTimeoutNs = nic.context().waits().producerStallTimeoutNs();
    }

    @Override
    protected ConnectAttempt newAttempt(
        final ViConnection vi, final String address, final long discriminator, final boolean peer,
        final long timeoutNs)
    {
        return new AreaConnectAttempt(this, vi, nic.peer(address), address, discriminator, peer, timeoutNs);
    }

    @Override
    protected synchronized ConnectAttempt peerAttempt(final ViConnection vi)
    {
        return vi.areaAttempt;
    }

    /**
     * Cancels the pending request of a VI being disconnected: forgotten first, so that no match takes it meanwhile.
     */
    @Override
    public int abandon(final ViConnection vi)
    {
        forget(vi);
        return vi.abandonConnect();
    }

    synchronized void register(final AreaConnectAttempt attempt)
    {
        attempt.vi().areaAttempt = attempt;
    }

    synchronized void forget(final ViConnection vi)
    {
        vi.areaAttempt = null;
    }

    void accept(final EngineConnectRequest request, final Vi vi)
    {
        request.checkNotAnswered();
        final ViConnection server = nic.connectionOf(vi);
        final ViRecord record = server.record();
        server.beginConnect();
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
            final int maxTransfer = Math.min(record.maxTransfer(), request.maxTransfer);
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

    /**
     * Gives the VI its link to the peer VI; a peer record that is no live VI fails with a ViaException, and the
     * caller undoes the state.
     */
    static void connect(final ViConnection vi, final PeerNic peer, final int peerViId, final String address)
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

    @Override
    protected synchronized ConnectRequest takeClientRequest(final long discriminator)
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

    @Override
    protected synchronized void poll()
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
            final ViConnection local = matchingVi(request);
            if (null != local)
            {
                it.remove();
                try
                {
                    match(local, request);
                }
                catch (final IllegalArgumentException ex)
                {
                    // the request names a VI its NIC cannot have: not from a producer of this engine; dropped
                }
            }
            else if (isStale(request))
            {
                it.remove();
            }
        }
    }

    /**
     * The link a VI's record names when the VI never got one: the peer side established the VI's record for a
     * peer-to-peer request the VI had not yet seen complete. Used to break that peer on disconnect.
     *
     * @return the peer VI, or null if the record names no peer the VI asked for.
     */
    synchronized PeerVi connectionNamedByRecord(final ViConnection vi)
    {
        final AreaConnectAttempt attempt = vi.areaAttempt;
        final ViRecord record = vi.record();
        final int peerViId = record.peerViId();
        if (null == attempt || record.peerNicId() != attempt.target.nicId() || peerViId < 0 ||
            peerViId >= attempt.target.area().geometry().maxVis())
        {
            return null;
        }
        return new PeerVi(attempt.target, peerViId);
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

    private ViConnection matchingVi(final EngineConnectRequest remote)
    {
        for (int i = 0, n = nic.attributes().maxVis(); i < n; i++)
        {
            final EngineVi vi = nic.queues().viAt(i);
            final AreaConnectAttempt attempt = null == vi ? null : vi.connection().areaAttempt;
            if (null != attempt && !attempt.isCompleted() && attempt.discriminator() == remote.discriminator &&
                attempt.address().equals(remote.address) && attempt.target.nicId() == remote.nicId &&
                (nic.nicId() != remote.nicId || vi.id() < remote.viId) &&
                RESULT_PENDING == ViRecordLayout.connectResult(vi.record().connectWord()))
            {
                return vi.connection();
            }
        }
        return null;
    }

    private void match(final ViConnection local, final EngineConnectRequest remote)
    {
        final AreaConnectAttempt attempt = local.areaAttempt;
        final ViRecord remoteRecord = attempt.target.viRecord(remote.viId);
        final ViRecord record = local.record();
        if (remote.reliability != local.reliability().vipValue())
        {
            remoteRecord.settle(remote.sequence, 0, RESULT_NO_MATCH);
            record.settle(attempt.sequence(), 0, RESULT_NO_MATCH);
            return;
        }
        if (!remoteRecord.settle(remote.sequence, local.id(), RESULT_ACCEPTED))
        {
            return;
        }
        if (!record.settle(attempt.sequence(), remote.viId, RESULT_ACCEPTED))
        {
            remoteRecord.compareAndSetState(STATE_CONNECT_PENDING, STATE_ERROR);
            return;
        }
        final int maxTransfer = Math.min(record.maxTransfer(), remote.maxTransfer);
        record.establish(STATE_CONNECT_PENDING, attempt.target.nicId(), remote.viId, maxTransfer);
        boolean connected = false;
        try
        {
            if (remoteRecord.establish(STATE_CONNECT_PENDING, nic.nicId(), local.id(), maxTransfer))
            {
                connect(local, attempt.target, remote.viId, attempt.address());
                attempt.complete();
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
}
