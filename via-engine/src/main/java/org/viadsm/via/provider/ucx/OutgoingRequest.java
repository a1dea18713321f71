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
final class OutgoingRequest extends ListenerConnectAttempt implements SetupMessages.Sender
{
    /** The most times this side accepts the peer's request, once and again after acceptances that never left. */
    static final int MAX_ACCEPTS = 8;

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
    /** The peer's request this side accepted, once it did (then {@link #accepting}). */
    IncomingRequest acceptedFrom;
    /** How many more times this side accepts the peer's request again after its acceptance failed to leave. */
    int acceptsLeft = MAX_ACCEPTS;

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

    @Override
    public void onSent(final boolean left)
    {
        if (left)
        {
            onReached();
        }
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

    /**
     * The listener turned the request away, or this side accepted the peer's request and the acceptance failed:
     * nothing else would answer the VI (the peer's request was taken, and this side's own is deferred or never
     * sent), so the wait fails now with the cause rather than at its timeout as unmatched.
     */
    @Override
    protected String lostReason(final int polls)
    {
        synchronized (connector)
        {
            if (null != turnedAway || null == acceptedFrom || IncomingRequest.FAILED != acceptedFrom.state ||
                mayAcceptAgain() || null == acceptedFrom.failure && 0 == acceptedFrom.acceptSent)
            {
                // an acceptance whose message is still in flight may yet turn out never to have left
                return turnedAway;
            }
            final String failure = acceptedFrom.failure;
            if (null != failure)
            {
                return "VI " + vi().id() + " cannot connect to the peer at " + address() + ": " + failure;
            }
            final String gone = null == acceptedFrom.sink ? null : acceptedFrom.sink.failure();
            return "the peer at " + address() + " went away while VI " + vi().id() + " accepted its request" +
                (null != gone ? ": " + gone : "");
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
     * Whether this side accepted the peer's request and the acceptance failed before it left, the peer neither
     * withdrawing its request nor this side failing to make the link: the peer still waits for an acceptance, which
     * the next progress sends again ({@link OutgoingRequests#maintain}), at most {@link #MAX_ACCEPTS} times in all.
     */
    boolean mayAcceptAgain()
    {
        return null != acceptedFrom && IncomingRequest.FAILED == acceptedFrom.state && null == acceptedFrom.failure &&
            !acceptedFrom.withdrawn && acceptedFrom.acceptSent < 0 && acceptsLeft > 1 && isPending() &&
            !isPastDeadline(System.nanoTime());
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
