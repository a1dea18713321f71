package org.viadsm.via.provider.tcp;

import org.viadsm.via.ViaError;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ListenerConnectAttempt;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.internal.HostPortAddress;

/**
 * A connection request this NIC makes for one of its VIs, client or peer to peer, from its start until the VI is
 * connected, the request fails, or (peer to peer) the VI starts another request: it travels as a TCP connect and a
 * request frame on the connection that becomes the VI's, retried while nobody listens.
 * <p>
 * <b>Note:</b> the mutable fields are guarded by the {@link RequestTable}'s monitor, except the volatile ones.
 */
final class PendingRequest extends ListenerConnectAttempt
{
    private final TcpConnector connector;
    final HostPortAddress target;

    /** The request's own connection while it has one. */
    TcpChannel outgoing;
    /** Peer to peer, matching side: the incoming request an accept went out to, awaiting its confirmation. */
    IncomingRequest matching;
    /** When to connect again after a refused or lost connection; 0 if not scheduled. */
    long retryAtNs;
    /** Client: the server closed the connection before answering. */
    volatile boolean wentAway;
    /** A connection to the listener failed before it was established (nobody listened, or the host refused). */
    volatile boolean refused;

    PendingRequest(
        final TcpConnector connector,
        final EngineNic nic,
        final ViConnection vi,
        final String address,
        final HostPortAddress target,
        final long discriminator,
        final boolean peer,
        final long timeoutNs)
    {
        super(nic, vi, address, discriminator, peer, timeoutNs);
        this.connector = connector;
        this.target = target;
    }

    @Override
    protected void send(final Idler idler)
    {
        connector.send(this);
    }

    @Override
    protected String lostReason(final int polls)
    {
        return wentAway ?
            address() + " closed the connection without answering the request of VI " + vi().id() : null;
    }

    /**
     * A request that got no answer timed out, unless every connection to the listener failed: one whose connection
     * was merely not up yet (a busy machine) was not refused, and times out.
     */
    @Override
    protected ViaError unansweredError()
    {
        return isReached() || !refused ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
    }

    @Override
    protected String unreachedHow()
    {
        return "connections were refused";
    }

    @Override
    protected void onPeerConnected()
    {
        complete();
    }

    @Override
    protected void forget()
    {
        connector.forget(this);
    }

    @Override
    public String toString()
    {
        return "PendingRequest{vi=" + vi().id() + ", to=" + address() + ", discriminator=" + discriminator() +
            (isPeer() ? ", peer}" : ", client}");
    }
}
