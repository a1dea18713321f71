package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The handler of a channel that is ending: its last frames are staged or sent and its output shut down; what the
 * peer still sends is read and dropped until it closes its side, and then the channel closes.
 */
final class DrainingHandler implements TcpChannel.Handler
{
    private final int maxFrameLength;

    DrainingHandler(final int maxFrameLength)
    {
        this.maxFrameLength = Math.max(maxFrameLength, FrameLayout.HEADER_LENGTH + FrameLayout.MAX_CONTROL_PAYLOAD);
    }

    @Override
    public int maxFrameLength()
    {
        return maxFrameLength;
    }

    @Override
    public void onFrame(
        final TcpChannel channel,
        final FrameFlyweight header,
        final UnsafeBuffer buffer,
        final int payloadOffset,
        final int payloadLength)
    {
        // the connection is over: nothing arriving now is acted on
    }

    @Override
    public void onEndOfStream(final TcpChannel channel)
    {
        channel.close();
    }

    @Override
    public void onFailure(final TcpChannel channel, final String detail, final boolean protocolError)
    {
        // already ended
    }
}
