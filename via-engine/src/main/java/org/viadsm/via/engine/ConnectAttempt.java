package org.viadsm.via.engine;

import org.viadsm.via.ViaError;

/**
 * One connection request of a VI, client or peer to peer, from its start until the VI is connected or the request
 * fails: the steps the {@link Connector} takes are shared, and a provider's subclass says how its request travels
 * to the other side and how the outcome shows.
 * <p>
 * <b>Note:</b> the hooks are called by the thread making the request, except where a provider's own threads
 * (answering frames) touch its state, which the provider synchronizes.
 */
public abstract class ConnectAttempt
{
    private final ViConnection vi;
    private final String address;
    private final long discriminator;
    private final boolean peer;
    private final long deadlineNs;
    private int sequence;
    private volatile boolean completed;

    /**
     * Creates the request; the {@link Connector} begins it.
     *
     * @param vi            the requesting VI.
     * @param address       the other side's NIC address.
     * @param discriminator the discriminator.
     * @param peer          true for peer to peer.
     * @param timeoutNs     how long the request may stay unanswered.
     */
    protected ConnectAttempt(
        final ViConnection vi, final String address, final long discriminator, final boolean peer,
        final long timeoutNs)
    {
        this.vi = vi;
        this.address = address;
        this.discriminator = discriminator;
        this.peer = peer;
        this.deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
    }

    /**
     * The requesting VI.
     *
     * @return its connection.
     */
    public final ViConnection vi()
    {
        return vi;
    }

    /**
     * The other side's NIC address.
     *
     * @return the address asked for.
     */
    public final String address()
    {
        return address;
    }

    /**
     * The discriminator asked for.
     *
     * @return the discriminator.
     */
    public final long discriminator()
    {
        return discriminator;
    }

    /**
     * Whether this is a peer-to-peer request.
     *
     * @return true peer to peer, false for a client's.
     */
    public final boolean isPeer()
    {
        return peer;
    }

    /**
     * The request's sequence number in the VI's connect word.
     *
     * @return the sequence number, once begun.
     */
    public final int sequence()
    {
        return sequence;
    }

    /**
     * Whether the VI's connect word still shows this request unanswered.
     *
     * @return true while pending.
     */
    public final boolean isPending()
    {
        return vi.isPending(sequence);
    }

    /**
     * Whether the request's timeout has passed.
     *
     * @param nowNs the time now.
     * @return true once past it.
     */
    public final boolean isPastDeadline(final long nowNs)
    {
        return Long.MAX_VALUE != deadlineNs && nowNs - deadlineNs >= 0;
    }

    /**
     * Peer to peer: whether {@code connectPeerDone} reported the VI connected.
     *
     * @return true once completed.
     */
    public final boolean isCompleted()
    {
        return completed;
    }

    /**
     * Marks a peer-to-peer request connected, as {@code connectPeerDone} reports it.
     */
    protected final void complete()
    {
        completed = true;
    }

    final void begin()
    {
        sequence = vi.beginConnect();
    }

    /**
     * Sends the request to the other side, the VI connect-pending with the request's sequence number.
     *
     * @param idler the client's wait, to wait with while the request cannot go out yet; null peer to peer.
     * @throws org.viadsm.via.ViaException through {@link Connector#giveUp} if it cannot be sent.
     */
    protected abstract void send(Idler idler);

    /**
     * Whether the other side is known to be gone, so the request can no longer be answered.
     *
     * @param polls how many times the requester has looked, to ration costly checks.
     * @return why, or null if it may still answer.
     */
    protected abstract String lostReason(int polls);

    /**
     * The error of a request whose timeout passed unanswered.
     *
     * @return {@link ViaError#TIMEOUT}, or {@link ViaError#NOT_REACHABLE} if the other side was never reached.
     */
    protected abstract ViaError unansweredError();

    /**
     * The message of a request whose timeout passed unanswered.
     *
     * @param timeoutNs the request's timeout.
     * @return a sentence naming the VI and the other side.
     */
    protected abstract String unansweredMessage(long timeoutNs);

    /**
     * Client: the answering side accepted; waits (bounded) until the connection is established on this side.
     *
     * @param peerViId the answering VI.
     * @throws org.viadsm.via.ViaException with {@link ViaError#NOT_REACHABLE} if it was not, the VI left idle.
     */
    protected abstract void awaitEstablished(int peerViId);

    /**
     * Peer to peer: the match was accepted; whether the connection is established on this side yet.
     *
     * @param peerViId the matched peer VI.
     * @return true once connected (then {@link #complete()} was called), false to ask again later.
     * @throws org.viadsm.via.ViaException with {@link ViaError#NOT_REACHABLE} if it cannot be, the VI left idle.
     */
    protected abstract boolean onPeerAccepted(int peerViId);

    /**
     * The request is over: the provider lets go of its state (a connection it opened, a match it was part of).
     */
    protected abstract void forget();
}
