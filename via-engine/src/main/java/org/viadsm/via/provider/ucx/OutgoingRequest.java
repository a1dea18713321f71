package org.viadsm.via.provider.ucx;

import java.util.concurrent.ThreadLocalRandom;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.ViaError;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ListenerConnectAttempt;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.internal.HostPortAddress;

/**
 * A request of one of a ucx NIC's VIs: over a control endpoint to the listener at the other side's address, which
 * is opened again while nobody listens there.
 * <p>
 * <b>Note:</b> its fields are guarded by the lock of its {@link UcxConnector}.
 */
final class OutgoingRequest extends ListenerConnectAttempt
{
    final HostPortAddress target;
    final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final UcxConnector connector;
    RegistrationMirror mirror;
    UcpEndpoint endpoint;
    UcxEndpoints.Sink sink;
    long retryAtNs;
    boolean refused;
    boolean deferred;
    boolean accepting;
    /** Why the accepted connection could not be made on this side, once that happened. */
    volatile String establishFailure;
    boolean linked;
    boolean released;
    /** Why the peer's listener turned the request away for good (it holds too many), or null. */
    String turnedAway;
    /** How the last attempt to reach the peer's listener failed, as UCX said, or null. */
    String lastFailure;

    OutgoingRequest(final UcxConnector connector, final ViConnection vi, final String address,
        final HostPortAddress target, final long discriminator, final boolean peer, final long timeoutNs)
    {
        super(connector.transport().nic(), vi, address, discriminator, peer, timeoutNs);
        this.connector = connector;
        this.target = target;
    }

    @Override
    protected void send(final Idler idler)
    {
        try
        {
            mirror = new RegistrationMirror(connector.transport(), connector.transport().area().table().capacity());
        }
        catch (final RuntimeException ex)
        {
            vi().backToIdle();
            throw ex;
        }
        connector.start(this);
    }

    /**
     * Whether a peer request that reached this NIC pairs with this one: both peer requests with the same
     * discriminator, each to the other's address, not yet decided.
     */
    boolean pairsWith(final IncomingRequest candidate, final long nicId)
    {
        final Handshake message = candidate.request;
        return isPeer() && !accepting && !linked && !isCompleted() && IncomingRequest.REQUESTED == candidate.state &&
            Handshake.PEER_REQUEST == message.type && message.discriminator == discriminator() &&
            message.address.equals(address()) && !(message.nicId == nicId && message.viId == vi().id());
    }

    /**
     * The other side answered but for an acceptance: a refusal settles the request, a deferral leaves it to the
     * other side's request, a full listener turns it away.
     */
    void onAnswer(final Handshake message)
    {
        onReached();
        switch (message.type)
        {
            case Handshake.REJECT:
                vi().settle(sequence(), 0, ViConnection.CONNECT_REJECTED);
                break;
            case Handshake.NO_MATCH:
                vi().settle(sequence(), 0, ViConnection.CONNECT_NO_MATCH);
                break;
            case Handshake.BUSY:
                turnedAway = "the listener at " + address() + " holds " + UcxConnector.MAX_PENDING_REQUESTS +
                    " connection requests not yet answered, the most it holds: retry later";
                break;
            default:
                deferred = true;
                break;
        }
    }

    @Override
    protected String lostReason(final int polls)
    {
        synchronized (connector)
        {
            return turnedAway;
        }
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
    protected String establishFailure()
    {
        return establishFailure;
    }

    /**
     * Names UCX's cause of the last failed attempt, so that a request that never reached its peer says why.
     */
    @Override
    protected String unreachedHow()
    {
        synchronized (connector)
        {
            return null == lastFailure ? "connections failed" : "connections failed, the last: " + lastFailure;
        }
    }

    @Override
    protected void onPeerConnected()
    {
        synchronized (connector)
        {
            complete();
            connector.release(this);
        }
    }

    /**
     * Done with the request; one that was not answered is withdrawn, and the withdrawal leaves before the caller
     * learns the request is over, so the server's next wait for requests finds it withdrawn rather than taking it.
     */
    @Override
    protected void forget()
    {
        final UcpEndpoint control;
        synchronized (connector)
        {
            control = endpoint;
        }
        connector.forget(this);
        connector.flush(control);
    }
}
