package org.viadsm.via.provider.tcp;

import org.viadsm.via.engine.EngineVi;
import org.viadsm.via.engine.ViRecordLayout;

/**
 * A connection request this NIC makes for one of its VIs, client or peer to peer, from its start until the VI is
 * connected, the request fails, or (peer to peer) the VI starts another request.
 * <p>
 * <b>Note:</b> the mutable fields are guarded by the {@link RequestTable}'s monitor, except the volatile ones.
 */
final class PendingRequest
{
    final EngineVi vi;
    final int sequence;
    final boolean peer;
    final String address;
    final TcpAddress target;
    final long discriminator;
    final long deadlineNs;

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
    /** Peer to peer: connected, as {@code connectPeerDone} reported. */
    volatile boolean completed;

    PendingRequest(
        final EngineVi vi,
        final int sequence,
        final boolean peer,
        final String address,
        final TcpAddress target,
        final long discriminator,
        final long timeoutNs)
    {
        this.vi = vi;
        this.sequence = sequence;
        this.peer = peer;
        this.address = address;
        this.target = target;
        this.discriminator = discriminator;
        this.deadlineNs = timeoutNs >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
    }

    boolean isPastDeadline(final long nowNs)
    {
        return Long.MAX_VALUE != deadlineNs && nowNs - deadlineNs >= 0;
    }

    /**
     * Whether the VI's connect word still shows this request unanswered.
     */
    boolean isPending()
    {
        final long word = vi.record().connectWord();
        return ViRecordLayout.RESULT_PENDING == ViRecordLayout.connectResult(word) &&
            ViRecordLayout.connectSequence(word) == sequence;
    }

    @Override
    public String toString()
    {
        return "PendingRequest{vi=" + vi.id() + ", to=" + address + ", discriminator=" + discriminator +
            (peer ? ", peer}" : ", client}");
    }
}
