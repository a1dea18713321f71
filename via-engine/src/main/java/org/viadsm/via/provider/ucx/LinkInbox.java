package org.viadsm.via.provider.ucx;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.engine.SegmentList;
import org.viadsm.via.engine.TargetAccess;
import org.viadsm.via.engine.ViConnection;

/**
 * What the peer of a {@link UcxLink} sends it, taken from UCX callbacks: its Sends and RDMA Writes with immediate
 * data are performed here by the engine's target code ({@link TargetAccess}) and acknowledged or refused as the
 * reliability level asks; its acknowledgements, refusals and breaks, and any failure of the connection, are left
 * in volatile fields, which the link's send queue reads under its own lock.
 * <p>
 * <b>Note:</b> the callbacks run inside UCX's worker lock, one at a time.
 */
final class LinkInbox
{
    volatile int acked = -1;
    volatile int nakSequence = Integer.MIN_VALUE;
    volatile int nakOutcome;
    volatile String failure;
    volatile AsyncError failureError;

    private final UcxLink link;
    private final ViConnection vi;
    private final ReliabilityLevel reliability;
    private final int peerViId;
    private final int maxTransfer;
    private final LinkReplies replies;
    private final TargetAccess access;
    private final SegmentList range = new SegmentList(1);
    private final UnsafeBuffer payload = new UnsafeBuffer(0, 0);

    LinkInbox(final UcxLink link, final ViConnection vi, final int peerViId, final int maxTransfer,
        final LinkReplies replies)
    {
        this.link = link;
        this.vi = vi;
        this.reliability = vi.reliability();
        this.peerViId = peerViId;
        this.maxTransfer = maxTransfer;
        this.replies = replies;
        this.access = vi.newTargetAccess();
    }

    /**
     * Sends an acknowledgement, refusal or break to the peer; if it cannot leave, the connection fails.
     */
    void reply(final int type, final int sequence, final int outcome)
    {
        final String failed = replies.send(type, sequence, outcome);
        if (null != failed)
        {
            failure = failed;
        }
    }

    /**
     * Takes a data message of the peer; from the UCX callback that received it.
     */
    void onData(final DataHeader message, final long dataAddress, final long dataLength)
    {
        final String wrong = message.check(DataHeader.LENGTH, dataLength, maxTransfer);
        if (null != wrong)
        {
            failure = "peer VI " + peerViId + " sent a malformed message: " + wrong;
            return;
        }
        switch (message.type())
        {
            case DataHeader.TYPE_SEND:
            case DataHeader.TYPE_WRITE_IMMEDIATE:
                perform(message, dataAddress);
                break;
            case DataHeader.TYPE_ACK:
                acked = message.sequence();
                break;
            case DataHeader.TYPE_HEARTBEAT:
                link.onHeartbeat();
                break;
            case DataHeader.TYPE_NAK:
                nakOutcome = message.outcome();
                nakSequence = message.sequence();
                failureError = TargetAccess.asyncError(message.outcome());
                failure = "peer VI " + peerViId + " of " + vi.remoteAddress() + " refused an operation: outcome " +
                    message.outcome();
                break;
            default:
                final int outcome = message.outcome();
                if ((message.flags() & DataHeader.FLAG_ACK_REQUESTED) != 0)
                {
                    reply(DataHeader.TYPE_ACK, message.sequence(), 0);
                }
                failure = 0 == outcome ? "peer VI " + peerViId + " of " + vi.remoteAddress() + " disconnected" :
                    "peer VI " + peerViId + " of " + vi.remoteAddress() + " broke the connection: outcome " + outcome;
                vi.onTransportBroken(link, 0 != outcome ? TargetAccess.asyncError(outcome) : AsyncError.CONNECTION_LOST,
                    failure);
                break;
        }
    }

    private void perform(final DataHeader message, final long dataAddress)
    {
        final int length = message.length();
        payload.wrap(dataAddress, length);
        range.reset().add(payload, 0, length);
        final boolean immediate = (message.flags() & DataHeader.FLAG_IMMEDIATE) != 0;
        final int outcome = DataHeader.TYPE_SEND == message.type() ?
            access.send(range, length, immediate, message.immediate()) :
            access.rdmaWrite(message.handle(), message.address(), range, length, immediate, message.immediate());
        range.reset();
        if (TargetAccess.OK == outcome)
        {
            if ((message.flags() & DataHeader.FLAG_ACK_REQUESTED) != 0)
            {
                reply(DataHeader.TYPE_ACK, message.sequence(), 0);
            }
        }
        else if (reliability.isReliable() && TargetAccess.NOT_CONNECTED != outcome)
        {
            reply(DataHeader.TYPE_NAK, message.sequence(), outcome);
            final AsyncError error = TargetAccess.TARGET_FAULT == outcome ? AsyncError.RDMA_TRANSPORT :
                TargetAccess.asyncError(outcome);
            failure = access.detail();
            vi.onTransportBroken(link, error, access.detail());
        }
    }
}
