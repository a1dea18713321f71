package org.viadsm.via.provider.tcp;

import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.ConnectAttempt;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViConnection;

/**
 * A connection request this NIC makes for one of its VIs, client or peer to peer, from its start until the VI is
 * connected, the request fails, or (peer to peer) the VI starts another request: it travels as a TCP connect and a
 * request frame on the connection that becomes the VI's, retried while nobody listens.
 * <p>
 * <b>Note:</b> the mutable fields are guarded by the {@link RequestTable}'s monitor, except the volatile ones.
 */
final class PendingRequest extends ConnectAttempt
{
    private final TcpConnector connector;
    final TcpAddress target;

    /** The request's own connection while it has one. */
    TcpChannel outgoing;
    /** Peer to peer, matching side: the incoming request an accept went out to, awaiting its confirmation. */
    IncomingRequest matching;
    /** When to connect again after a refused or lost connection; 0 if not scheduled. */
    long retryAtNs;
    /** A connection to the target succeeded at least once. */
    volatile boolean reached;
    /** Client: the server closed the connection before answering. */
    volatile boolean wentAway;

    PendingRequest(
        final TcpConnector connector,
        final ViConnection vi,
        final String address,
        final TcpAddress target,
        final long discriminator,
        final boolean peer,
        final long timeoutNs)
    {
        super(vi, address, discriminator, peer, timeoutNs);
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

    @Override
    protected ViaError unansweredError()
    {
        return reached ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
    }

    @Override
    protected String unansweredMessage(final long timeoutNs)
    {
        if (isPeer())
        {
            return reached ? "no peer matched the request of VI " + vi().id() + " to " + address() +
                " with discriminator " + discriminator() :
                "no NIC listened at " + address() + " before the request of VI " + vi().id() + " timed out";
        }
        return reached ? address() + " did not answer the connection request of VI " + vi().id() :
            "no NIC listens at " + address() + ": connections were refused for " + timeoutNs + " ns";
    }

    @Override
    protected void awaitEstablished(final int peerViId)
    {
        final Idler idler = new Idler(connector.nic());
        idler.start(Connector.ESTABLISH_TIMEOUT_NS);
        while (vi().isConnectPending())
        {
            if (!idler.idle())
            {
                vi().backToIdle();
                throw new ViaException(ViaError.NOT_REACHABLE, address() + " accepted but the connection of " +
                    "VI " + vi().id() + " did not complete");
            }
        }
        idler.finish();
    }

    @Override
    protected boolean onPeerAccepted(final int peerViId)
    {
        final ViState state = vi().state();
        if (ViState.CONNECTED == state || ViState.ERROR == state)
        {
            complete();
            return true;
        }
        if (ViState.CONNECT_PENDING == state)
        {
            return false;
        }
        forget();
        throw new ViaException(ViaError.NOT_REACHABLE, "the peer at " + address() +
            " could not complete the connection of VI " + vi().id());
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
