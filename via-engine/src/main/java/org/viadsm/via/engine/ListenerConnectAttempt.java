package org.viadsm.via.engine;

import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * A connection request that travels as messages to a listener at the other side's address, opened again while
 * nobody listens there (the tcp and ucx providers): how such a request reports its outcome, whatever carries the
 * messages. The connection is established by the provider's own messages; the requester waits for it, making
 * progress on the transport.
 * <p>
 * <b>Note:</b> as for {@link ConnectAttempt}; {@link #onReached()} may be called by any thread.
 */
public abstract class ListenerConnectAttempt extends ConnectAttempt
{
    private final EngineNic nic;
    private volatile boolean reached;

    /**
     * Creates the request; the {@link Connector} begins it.
     *
     * @param nic           the requesting VI's NIC, whose transport it makes progress on while waiting.
     * @param vi            the requesting VI.
     * @param address       the other side's NIC address.
     * @param discriminator the discriminator.
     * @param peer          true for peer to peer.
     * @param timeoutNs     how long the request may stay unanswered.
     */
    protected ListenerConnectAttempt(
        final EngineNic nic, final ViConnection vi, final String address, final long discriminator,
        final boolean peer, final long timeoutNs)
    {
        super(vi, address, discriminator, peer, timeoutNs);
        this.nic = nic;
    }

    /**
     * The request reached the listener at the other side's address (a connection to it succeeded, or a message
     * left for it).
     */
    public final void onReached()
    {
        reached = true;
    }

    /**
     * Whether the request ever reached the listener at the other side's address.
     *
     * @return true once {@link #onReached()} was called.
     */
    public final boolean isReached()
    {
        return reached;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A request that never reached the listener says whether nobody listened (its connections failed) or it was
     * merely not there yet when its time ran out.
     */
    @Override
    protected final String unansweredMessage(final long timeoutNs)
    {
        if (!reached && ViaError.TIMEOUT == unansweredError())
        {
            return "the connection request of VI " + vi().id() + " timed out before it reached " + address() +
                " (no connection to it was refused)";
        }
        if (isPeer())
        {
            return reached ? "no peer matched the request of VI " + vi().id() + " to " + address() +
                " with discriminator " + discriminator() :
                "no NIC listened at " + address() + " before the request of VI " + vi().id() + " timed out: " +
                unreachedHow();
        }
        return reached ? address() + " did not answer the connection request of VI " + vi().id() :
            "no NIC listens at " + address() + ": " + unreachedHow() + " for " + timeoutNs + " ns";
    }

    /**
     * How the attempts to reach the listener went, for the message of a request that never reached it.
     *
     * @return e.g. "connections were refused".
     */
    protected abstract String unreachedHow();

    /**
     * Why the provider could not make the connection it was answered with on this side, if it could not.
     *
     * @return a sentence naming the peer and the cause, or null.
     */
    protected String establishFailure()
    {
        return null;
    }

    /**
     * An accepted request whose VI went back to idle instead of connecting: forgets the request and throws.
     *
     * @throws ViaException with {@link ViaError#NOT_REACHABLE}, naming the provider's cause if it gave one.
     */
    private void failAccepted()
    {
        final String failure = establishFailure();
        forget();
        throw new ViaException(ViaError.NOT_REACHABLE, null != failure ? failure : "the peer at " + address() +
            " could not complete the connection of VI " + vi().id());
    }

    @Override
    protected final void awaitEstablished(final int peerViId)
    {
        final Idler idler = new Idler(nic);
        idler.start(Connector.ESTABLISH_TIMEOUT_NS);
        while (vi().isConnectPending())
        {
            nic.transport().progress(false);
            if (!idler.idle())
            {
                vi().backToIdle();
                throw new ViaException(ViaError.NOT_REACHABLE, address() + " accepted but the connection of " +
                    "VI " + vi().id() + " did not complete");
            }
        }
        idler.finish();
        if (ViState.IDLE == vi().state())
        {
            failAccepted();
        }
    }

    @Override
    protected final boolean onPeerAccepted(final int peerViId)
    {
        final ViState state = vi().state();
        if (ViState.CONNECTED == state || ViState.ERROR == state)
        {
            onPeerConnected();
            return true;
        }
        if (ViState.CONNECT_PENDING == state)
        {
            return false;
        }
        failAccepted();
        return false;
    }

    /**
     * Peer to peer: the connection is established on this side; marks the request {@link #complete() completed}
     * and lets the provider release what it held for it.
     */
    protected abstract void onPeerConnected();
}
