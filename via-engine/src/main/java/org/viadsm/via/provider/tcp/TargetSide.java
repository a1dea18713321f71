package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.SegmentList;
import org.viadsm.via.engine.TargetAccess;

/**
 * The target side of a connected VI: performs the peer's requests on this NIC with the engine's
 * {@link TargetAccess} (the same checks as for the other providers, done before anything is written), and stages
 * the responses: the data of an RDMA Read goes straight from registered memory into the response frame.
 * <p>
 * On a failed check the unreliable level drops the request silently; the reliable levels report the error here,
 * answer with a NAK and end the connection ({@link TcpConnection#onTargetFailure}).
 * <p>
 * <b>Note:</b> not thread-safe; used under the connection's channel lock.
 */
final class TargetSide
{
    private final TcpConnection connection;
    private final TcpChannel channel;
    private final ViConnection vi;
    private final ReliabilityLevel reliability;
    private final TargetAccess access;
    private final SegmentList range = new SegmentList(1);
    private final int maxTransfer;
    private int expectedSequence;

    TargetSide(final TcpConnection connection, final EngineNic nic, final ViConnection vi, final int maxTransfer)
    {
        this.connection = connection;
        this.channel = connection.channel();
        this.vi = vi;
        this.reliability = vi.reliability();
        this.access = vi.newTargetAccess();
        this.maxTransfer = maxTransfer;
    }

    /**
     * Performs a request.
     *
     * @return null, or what is wrong with the frame (the connection then fails).
     */
    String onRequest(
        final FrameFlyweight header, final UnsafeBuffer buffer, final int payloadOffset, final int payloadLength)
    {
        final int sequence = header.sequence();
        if (sequence != expectedSequence)
        {
            return "request " + header + " out of order: expected sequence " + expectedSequence;
        }
        expectedSequence++;
        final int type = header.type();
        final int length = header.dataLength();
        final boolean readLike = FrameLayout.TYPE_RDMA_READ == type || FrameLayout.TYPE_ATOMIC == type;
        if (readLike ? 0 != payloadLength || !reliability.allowsRdmaRead() : length != payloadLength)
        {
            return "malformed request " + header + " with " + payloadLength + " bytes on a " + reliability +
                " connection";
        }
        if (length < 0 || length > maxTransfer)
        {
            return "request " + header + " exceeds the maximum transfer size " + maxTransfer;
        }
        if (!vi.isConnected())
        {
            return null;
        }
        final boolean immediate = (header.flags() & FrameLayout.FLAG_IMMEDIATE) != 0;
        final int outcome;
        switch (type)
        {
            case FrameLayout.TYPE_SEND:
                range.reset().add(buffer, payloadOffset, length);
                outcome = access.send(range, length, immediate, header.immediate());
                range.reset();
                acknowledge(outcome, sequence);
                break;
            case FrameLayout.TYPE_RDMA_WRITE:
                range.reset().add(buffer, payloadOffset, length);
                outcome = access.rdmaWrite(header.handle(), header.address(), range, length, immediate,
                    header.immediate());
                range.reset();
                acknowledge(outcome, sequence);
                break;
            case FrameLayout.TYPE_RDMA_READ:
                outcome = read(header, sequence, length);
                break;
            default:
                outcome = access.atomic(header.handle(), header.address(),
                    (header.flags() & FrameLayout.FLAG_ATOMIC_ADD) != 0, header.operand(), header.swap());
                if (TargetAccess.OK == outcome)
                {
                    channel.beginFrame(FrameLayout.TYPE_ATOMIC_RESPONSE, 0, vi.id(), connection.peerViId())
                        .sequence(sequence)
                        .operand(access.atomicResult());
                    channel.commitFrame();
                }
                break;
        }
        if (TargetAccess.OK != outcome && reliability.isReliable())
        {
            connection.onTargetFailure(sequence, outcome, access.detail());
        }
        return null;
    }

    private int read(final FrameFlyweight header, final int sequence, final int length)
    {
        final int handle = header.handle();
        final long address = header.address();
        channel.beginFrame(FrameLayout.TYPE_READ_RESPONSE, length, vi.id(), connection.peerViId())
            .sequence(sequence)
            .dataLength(length);
        range.reset().add(channel.frameBuffer(), channel.payloadOffset(), length);
        final int outcome = access.rdmaRead(handle, address, range, length);
        range.reset();
        if (TargetAccess.OK == outcome)
        {
            channel.commitFrame();
        }
        return outcome;
    }

    private void acknowledge(final int outcome, final int sequence)
    {
        if (TargetAccess.OK == outcome && ReliabilityLevel.RELIABLE_RECEPTION == reliability)
        {
            channel.beginFrame(FrameLayout.TYPE_ACK, 0, vi.id(), connection.peerViId()).sequence(sequence);
            channel.commitAcknowledgement();
        }
    }
}
