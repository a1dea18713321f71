package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.AsyncError;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.TargetAccess;
import org.viadsm.via.engine.ViTransport;

import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;
import static org.viadsm.via.provider.tcp.FrameLayout.MAX_CONTROL_PAYLOAD;

/**
 * A connected VI's TCP connection: its {@link ViTransport} (the send queue's descriptors go out as request frames
 * from the posting thread, without blocking) and the handler of every frame that arrives on it (the peer's requests,
 * served by the {@link TargetSide}; the responses to this VI's, taken by the {@link TcpSendQueue}).
 * <p>
 * The connection ends, and the VI enters the error state, in these ways:
 * <ul>
 * <li>this VI disconnects: a DISCONNECT frame tells the peer; outstanding descriptors are flushed;</li>
 * <li>the peer disconnects, or an error at either end breaks a reliable connection (DISCONNECT or NAK frame): the
 * error is reported here as the peer reported it, outstanding descriptors are flushed;</li>
 * <li>the socket fails or closes without a word, nothing arrives for the peer timeout (a link that is down, a peer
 * that stopped: peers send heartbeats on quiet connections), or the peer sends a malformed, unknown or oversized
 * frame: the
 * transport failed, so descriptors whose frames went out complete with {@code TRANSPORT_ERROR}, the others with
 * {@code DESC_FLUSHED_ERROR}, and {@link AsyncError#CONNECTION_LOST} (socket) or {@link AsyncError#RDMA_TRANSPORT}
 * (protocol) is reported. Nothing of a rejected frame reaches memory.</li>
 * </ul>
 * <b>Note:</b> everything runs under the channel's lock, from the posting thread, the engine thread or an
 * application thread making progress.
 */
final class TcpConnection implements ViTransport, TcpChannel.Handler
{
    private final ViConnection vi;
    private final TcpChannel channel;
    private final int peerViId;
    private final int maxFrameLength;
    private final TcpSendQueue sendQueue;
    private final TargetSide target;
    private boolean ended;

    TcpConnection(
        final EngineNic nic, final ViConnection vi, final TcpChannel channel, final int peerViId, final int maxTransfer)
    {
        this.vi = vi;
        this.channel = channel;
        this.peerViId = peerViId;
        this.maxFrameLength = HEADER_LENGTH + Math.max(maxTransfer, MAX_CONTROL_PAYLOAD);
        this.sendQueue = new TcpSendQueue(this, nic, vi);
        this.target = new TargetSide(this, nic, vi, maxTransfer);
    }

    TcpChannel channel()
    {
        return channel;
    }

    int peerViId()
    {
        return peerViId;
    }

    @Override
    public void post(final Descriptor descriptor)
    {
        channel.lock();
        try
        {
                sendQueue.post(descriptor);
                if (!ended)
                {
                    channel.flush();
                }
                sendQueue.completeReady();
        }
        finally
        {
            channel.unlock();
        }
    }

    @Override
    public void disconnect(final String detail)
    {
        channel.lock();
        try
        {
                if (!ended)
                {
                    end(FrameLayout.TYPE_DISCONNECT, 0, 0, null);
                }
        }
        finally
        {
            channel.unlock();
        }
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
        if (header.sourceVi() != peerViId || header.destinationVi() != vi.id())
        {
            channel.fail("frame " + header + " is not for VI " + vi.id() + " from VI " + peerViId, true);
            return;
        }
        final String error;
        switch (header.type())
        {
            case FrameLayout.TYPE_SEND:
            case FrameLayout.TYPE_RDMA_WRITE:
            case FrameLayout.TYPE_RDMA_READ:
            case FrameLayout.TYPE_ATOMIC:
                error = target.onRequest(header, buffer, payloadOffset, payloadLength);
                break;
            case FrameLayout.TYPE_ACK:
            case FrameLayout.TYPE_READ_RESPONSE:
            case FrameLayout.TYPE_ATOMIC_RESPONSE:
                error = sendQueue.onResponse(header, buffer, payloadOffset, payloadLength);
                if (null == error)
                {
                    sendQueue.completeReady();
                }
                break;
            case FrameLayout.TYPE_NAK:
                error = onNak(header, buffer, payloadOffset, payloadLength);
                break;
            case FrameLayout.TYPE_HEARTBEAT:
                error = 0 == payloadLength ? null : "HEARTBEAT frame with a payload";
                break;
            case FrameLayout.TYPE_DISCONNECT:
                error = 0 == payloadLength ? null : "DISCONNECT frame with a payload";
                if (null == error)
                {
                    onPeerEnded(AsyncError.CONNECTION_LOST, "VI " + peerViId + " of " + vi.remoteAddress() +
                        " disconnected");
                }
                break;
            default:
                error = "unknown frame type " + header.type();
                break;
        }
        if (null != error)
        {
            channel.fail(error + " from " + channel.description(), true);
        }
    }

    @Override
    public int afterPoll(final TcpChannel channel)
    {
        if (ended)
        {
            return 0;
        }
        int work = sendQueue.completeReady();
        if (sendQueue.encode() > 0)
        {
            channel.flush();
            work += 1 + sendQueue.completeReady();
        }
        return work;
    }

    /**
     * Stages a heartbeat for the peer, which fails the connection when it hears nothing for its peer timeout; under
     * the channel's lock.
     */
    void heartbeat()
    {
        if (!ended && !channel.isClosed())
        {
            channel.beginFrame(FrameLayout.TYPE_HEARTBEAT, 0, vi.id(), peerViId);
            channel.commitFrame();
            channel.flush();
        }
    }

    @Override
    public void onEndOfStream(final TcpChannel channel)
    {
        onTransportFailed(AsyncError.CONNECTION_LOST, "the connection to " + channel.description() +
            " closed without a word");
    }

    @Override
    public void onFailure(final TcpChannel channel, final String detail, final boolean protocolError)
    {
        onTransportFailed(protocolError ? AsyncError.RDMA_TRANSPORT : AsyncError.CONNECTION_LOST, detail);
    }

    /**
     * A request of the peer failed the checks on a reliable connection: report here, answer with a NAK, end.
     */
    void onTargetFailure(final int sequence, final int outcome, final String detail)
    {
        vi.onTransportBroken(this, TargetAccess.asyncError(outcome), detail);
        end(FrameLayout.TYPE_NAK, sequence, outcome, detail);
    }

    /**
     * A descriptor of this VI failed its local checks on a reliable connection: the peer learns the connection is
     * lost, as it would from the other providers.
     */
    void onLocalError(final String detail)
    {
        vi.onTransportBroken(this, null, detail);
        end(FrameLayout.TYPE_DISCONNECT, 0, 0, null);
    }

    private String onNak(
        final FrameFlyweight header, final UnsafeBuffer buffer, final int payloadOffset, final int payloadLength)
    {
        final int outcome = header.immediate();
        if (outcome < TargetAccess.RECV_QUEUE_EMPTY || outcome > TargetAccess.RDMA_READ_PROTECTION ||
            payloadLength > MAX_CONTROL_PAYLOAD)
        {
            return "malformed NAK " + header;
        }
        sendQueue.onNak(header.sequence(), outcome);
        onPeerEnded(TargetAccess.asyncError(outcome), buffer.getStringWithoutLengthAscii(payloadOffset, payloadLength));
        return null;
    }

    private void onPeerEnded(final AsyncError error, final String detail)
    {
        ended = true;
        vi.onTransportBroken(this, error, detail);
        sendQueue.failAll(false);
        channel.shutdownAfterFlush(new DrainingHandler(maxFrameLength));
    }

    private void onTransportFailed(final AsyncError error, final String detail)
    {
        if (!ended)
        {
            ended = true;
            vi.onTransportBroken(this, error, detail);
            sendQueue.failAll(true);
        }
        channel.close();
    }

    /**
     * Ends the connection from this side with a last frame: DISCONNECT, or a NAK naming the failed request.
     */
    private void end(final int type, final int sequence, final int outcome, final String detail)
    {
        ended = true;
        sendQueue.failAll(false);
        if (!channel.isClosed())
        {
            final int detailLength = null == detail ? 0 : Math.min(detail.length(), EngineNic.MAX_ERROR_DETAIL_LENGTH);
            channel.beginFrame(type, detailLength, vi.id(), peerViId).sequence(sequence).immediate(outcome);
            if (detailLength > 0)
            {
                channel.frameBuffer().putStringWithoutLengthAscii(channel.payloadOffset(), detail, 0, detailLength);
            }
            channel.commitFrame();
            channel.shutdownAfterFlush(new DrainingHandler(maxFrameLength));
        }
    }
}
