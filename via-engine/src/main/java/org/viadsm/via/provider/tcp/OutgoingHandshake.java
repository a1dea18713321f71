package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.engine.ViConnection;

import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;
import static org.viadsm.via.provider.tcp.FrameLayout.MAX_CONTROL_PAYLOAD;

/**
 * The requesting side of a connection's handshake: once connected it sends the request, then takes the answer.
 * An accept settles the VI's connect word and, if the request was still pending, turns the channel into the VI's
 * connection; otherwise the requester declines.
 * <p>
 * <b>Note:</b> called by the engine thread, under the channel's lock.
 */
final class OutgoingHandshake implements TcpChannel.Handler
{
    private final ConnectionSetup setup;
    private final PendingRequest request;
    private boolean connected;

    OutgoingHandshake(final ConnectionSetup setup, final PendingRequest request)
    {
        this.setup = setup;
        this.request = request;
    }

    void onConnected(final TcpChannel channel)
    {
        channel.lock();
        try
        {
                connected = true;
                setup.onOutgoingConnected(request, channel);
        }
        finally
        {
            channel.unlock();
        }
    }

    void onConnectFailed(final Exception cause)
    {
        request.refused = true;
        setup.onOutgoingLost(request, null, false);
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
        if (header.sequence() != request.sequence() || header.destinationVi() != request.vi().id())
        {
            channel.fail("answer " + header + " does not match " + request, true);
            return;
        }
        switch (header.type())
        {
            case FrameLayout.TYPE_ACCEPT:
                final ViDescription answer = ViDescription.read(buffer, payloadOffset, payloadLength);
                if (null == answer || answer.viId != header.sourceVi())
                {
                    channel.fail("malformed accept from " + channel.description(), true);
                    return;
                }
                setup.onAccepted(request, channel, answer);
                break;
            case FrameLayout.TYPE_REJECT:
                setup.onAnswered(request, channel, ViConnection.CONNECT_REJECTED);
                break;
            case FrameLayout.TYPE_NO_MATCH:
                setup.onAnswered(request, channel, ViConnection.CONNECT_NO_MATCH);
                break;
            case FrameLayout.TYPE_DEFER:
                if (!request.isPeer())
                {
                    channel.fail("a server deferred a client request", true);
                    return;
                }
                setup.onDeferred(request, channel);
                break;
            default:
                channel.fail("unexpected frame " + header + " in the handshake with " + channel.description(), true);
        }
    }

    @Override
    public void onEndOfStream(final TcpChannel channel)
    {
        request.refused |= !connected;
        setup.onOutgoingLost(request, channel, connected);
    }

    @Override
    public void onFailure(final TcpChannel channel, final String detail, final boolean protocolError)
    {
        request.refused |= !connected;
        setup.onOutgoingLost(request, channel, connected);
    }
}
