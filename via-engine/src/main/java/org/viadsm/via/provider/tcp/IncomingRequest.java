package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.engine.ViConnection;

import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;
import static org.viadsm.via.provider.tcp.FrameLayout.MAX_CONTROL_PAYLOAD;

/**
 * The answering side of a connection's handshake: a connection another NIC opened to this one, first waiting for
 * its request, then (once this NIC accepted) for the requester's confirmation.
 * <p>
 * <b>Note:</b> frames arrive on the engine thread under the channel's lock; {@link #state} is read by the
 * thread answering the request; the other mutable fields are guarded by the channel's lock or, where noted, the
 * connector's.
 */
final class IncomingRequest implements TcpChannel.Handler
{
    static final int AWAITING_REQUEST = 0;
    static final int REQUESTED = 1;
    static final int ACCEPTING = 2;
    static final int ESTABLISHED = 3;
    static final int FAILED = 4;

    private final ConnectionSetup setup;
    TcpChannel channel;
    int type;
    ViDescription requester;
    volatile int state = AWAITING_REQUEST;
    /** The VI the accept went out for. */
    ViConnection answeringVi;
    /** Peer to peer: this NIC's matching request; guarded by the request table's monitor. */
    PendingRequest localRequest;
    /** Guarded by the request table's monitor. */
    boolean answered;

    IncomingRequest(final ConnectionSetup setup)
    {
        this.setup = setup;
    }

    /**
     * Whether the requester is still there: reads what it sent, which shows a close.
     */
    boolean isAlive()
    {
        channel.poll();
        return !channel.isClosed();
    }

    @Override
    public int maxFrameLength()
    {
        return HEADER_LENGTH + MAX_CONTROL_PAYLOAD;
    }

    @Override
    public void onFrame(
        final TcpChannel channel,
        final FrameFlyweight header,
        final UnsafeBuffer buffer,
        final int payloadOffset,
        final int payloadLength)
    {
        final int frameType = header.type();
        if (AWAITING_REQUEST == state &&
            (FrameLayout.TYPE_CLIENT_REQUEST == frameType || FrameLayout.TYPE_PEER_REQUEST == frameType))
        {
            final ViDescription description = ViDescription.read(buffer, payloadOffset, payloadLength);
            if (null == description || description.viId != header.sourceVi() ||
                description.sequence != header.sequence())
            {
                channel.fail("malformed connection request from " + channel.description(), true);
                return;
            }
            this.channel = channel;
            this.type = frameType;
            this.requester = description;
            state = REQUESTED;
            setup.onRequest(this);
        }
        else if (ACCEPTING == state && FrameLayout.TYPE_CONFIRM == frameType &&
            header.sourceVi() == requester.viId && header.destinationVi() == answeringVi.id() &&
            header.sequence() == requester.sequence)
        {
            setup.onConfirmed(this);
        }
        else if (ACCEPTING == state && FrameLayout.TYPE_DECLINE == frameType)
        {
            setup.onIncomingLost(this);
            channel.close();
        }
        else
        {
            channel.fail("unexpected frame " + header + " in the handshake with " + channel.description(), true);
        }
    }

    @Override
    public void onEndOfStream(final TcpChannel channel)
    {
        setup.onIncomingLost(this);
    }

    @Override
    public void onFailure(final TcpChannel channel, final String detail, final boolean protocolError)
    {
        setup.onIncomingLost(this);
    }

    @Override
    public String toString()
    {
        return "IncomingRequest{" + (null == requester ? "awaiting" : requester.toString()) + ", state=" + state +
            '}';
    }
}
