package org.viadsm.via.provider.tcp;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.LocalAccess;
import org.viadsm.via.engine.SegmentList;
import org.viadsm.via.engine.TargetAccess;

import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * A connected VI's send queue as the NIC works it: descriptors in posting order, from post until they complete.
 * <p>
 * Each descriptor is checked against local memory ({@link LocalAccess}) and encoded into a request frame when
 * the NIC gets to it: at once if the connection's staged output is under
 * {@link org.viadsm.via.TcpSettings#sendStagingLimit()} and no queue fence holds it back (a fenced descriptor
 * waits until every earlier RDMA Read and atomic has completed), later otherwise. It then completes, in posting
 * order, when its reliability level allows:
 * <ul>
 * <li>a Send or RDMA Write at the unreliable and reliable-delivery levels when its frame has been written to the
 * socket (TCP then delivers it or breaks the connection);</li>
 * <li>at the reliable-reception level when the target acknowledges that the data is in its memory;</li>
 * <li>an RDMA Read or atomic when its response arrives with the data or the old value.</li>
 * </ul>
 * Responses come back in request order, so each answers the oldest descriptor awaiting one, and its sequence
 * number must say so.
 * <p>
 * <b>Note:</b> not thread-safe; used under the connection's channel lock.
 */
final class TcpSendQueue
{
    private static final int POSTED = 0;
    private static final int AWAIT_WRITE = 1;
    private static final int AWAIT_RESPONSE = 2;
    private static final int READY = 3;

    private final TcpConnection connection;
    private final TcpChannel channel;
    private final ViConnection vi;
    private final LocalAccess localAccess;
    private final ReliabilityLevel reliability;
    private final SegmentList frame = new SegmentList(1);
    private final int stagingLimit;
    private final Descriptor[] descriptors;
    private final int[] states;
    private final int[] statuses;
    private final int[] lengths;
    private final int[] sequences;
    private final long[] ends;
    private final int mask;
    private long head;
    private long encoded;
    private long tail;
    private long responded;
    private long lastReadLike = -1;
    private long breakAt = -1;
    private String breakDetail;
    private int nextSequence;
    private boolean broken;

    TcpSendQueue(final TcpConnection connection, final EngineNic nic, final ViConnection vi)
    {
        this.connection = connection;
        this.stagingLimit = nic.context().tcp().sendStagingLimit();
        this.channel = connection.channel();
        this.vi = vi;
        this.localAccess = new LocalAccess(nic, vi);
        this.reliability = vi.reliability();
        final int depth = nic.attributes().maxDescriptorsPerQueue();
        this.descriptors = new Descriptor[depth];
        this.states = new int[depth];
        this.statuses = new int[depth];
        this.lengths = new int[depth];
        this.sequences = new int[depth];
        this.ends = new long[depth];
        this.mask = depth - 1;
    }

    /**
     * Takes a posted descriptor and encodes what it can; once broken, completes it flushed.
     */
    void post(final Descriptor descriptor)
    {
        if (broken)
        {
            vi.completeSend(descriptor,
                DONE | DescriptorStatus.DESC_FLUSHED_ERROR | LocalAccess.opStatus(descriptor.operation()), 0);
            return;
        }
        final int i = (int)tail & mask;
        descriptors[i] = descriptor;
        states[i] = POSTED;
        tail++;
        encode();
    }

    /**
     * Encodes posted descriptors into request frames while the staging limit and the queue fence allow.
     *
     * @return the number encoded.
     */
    int encode()
    {
        int count = 0;
        while (encoded < tail && breakAt < 0)
        {
            final int i = (int)encoded & mask;
            final Descriptor descriptor = descriptors[i];
            final int op = descriptor.operation();
            if ((descriptor.control() & DescriptorLayout.CONTROL_QUEUE_FENCE) != 0 && lastReadLike >= head)
            {
                break;
            }
            final int opStatus = LocalAccess.opStatus(op);
            final int error = localAccess.check(descriptor, op);
            if (0 != error)
            {
                ready(i, DONE | error | opStatus, 0);
                if (reliability.isReliable())
                {
                    breakAt = encoded;
                    breakDetail = "VI " + vi.id() + " broke the connection after " + DescriptorStatus.toString(error) +
                        ": " + localAccess.detail();
                }
                encoded++;
                count++;
                continue;
            }
            final int length = descriptor.length();
            final boolean carriesData = DescriptorLayout.OP_SEND == op || DescriptorLayout.OP_RDMA_WRITE == op;
            final int frameLength = HEADER_LENGTH + (carriesData ? length : 0);
            final int pending = channel.pendingOutput();
            if (pending > 0 && pending + frameLength > stagingLimit)
            {
                localAccess.reset();
                break;
            }
            writeFrame(descriptor, op, length, carriesData);
            final boolean readLike = !carriesData;
            states[i] = readLike || ReliabilityLevel.RELIABLE_RECEPTION == reliability ? AWAIT_RESPONSE : AWAIT_WRITE;
            statuses[i] = DONE | opStatus;
            lengths[i] = DescriptorLayout.OP_ATOMIC == op ? 8 : length;
            sequences[i] = nextSequence++;
            ends[i] = channel.commitFrame();
            if (readLike)
            {
                lastReadLike = encoded;
            }
            encoded++;
            count++;
        }
        return count;
    }

    /**
     * Completes, in posting order, the descriptors whose condition is met; a local error on a reliable VI breaks
     * the connection before it completes.
     *
     * @return the number completed.
     */
    int completeReady()
    {
        final long written = channel.writtenPosition();
        int count = 0;
        while (head < encoded)
        {
            final int i = (int)head & mask;
            final int state = states[i];
            if (AWAIT_RESPONSE == state || AWAIT_WRITE == state && ends[i] > written)
            {
                break;
            }
            if (head == breakAt)
            {
                connection.onLocalError(breakDetail);
                return count + 1;
            }
            final Descriptor descriptor = descriptors[i];
            descriptors[i] = null;
            head++;
            vi.completeSend(descriptor, statuses[i], lengths[i]);
            count++;
        }
        return count;
    }

    /**
     * A response arrived.
     *
     * @return null, or what is wrong with it (the connection then fails).
     */
    String onResponse(
        final FrameFlyweight header, final UnsafeBuffer buffer, final int payloadOffset, final int payloadLength)
    {
        final int i = awaitingResponse();
        if (i < 0 || header.sequence() != sequences[i])
        {
            return "response " + header + " answers no request awaiting one";
        }
        final Descriptor descriptor = descriptors[i];
        final int op = descriptor.operation();
        final int type = header.type();
        final boolean readResponse = FrameLayout.TYPE_READ_RESPONSE == type;
        if (FrameLayout.TYPE_ACK == type ? DescriptorLayout.OP_SEND != op && DescriptorLayout.OP_RDMA_WRITE != op :
            readResponse ? DescriptorLayout.OP_RDMA_READ != op : DescriptorLayout.OP_ATOMIC != op)
        {
            return "response " + header + " does not fit operation " + op + " of its request";
        }
        if (payloadLength != (readResponse ? descriptor.length() : 0) || readResponse &&
            header.dataLength() != payloadLength)
        {
            return "response " + header + " carries " + payloadLength + " bytes for a request of " +
                descriptor.length();
        }
        if (FrameLayout.TYPE_ACK != type)
        {
            final int error = localAccess.check(descriptor, op);
            if (0 != error)
            {
                statuses[i] = DONE | error | LocalAccess.opStatus(op);
                lengths[i] = 0;
            }
            else if (readResponse)
            {
                frame.reset().add(buffer, payloadOffset, payloadLength);
                SegmentList.copy(frame, localAccess.local(), payloadLength);
                frame.reset();
            }
            else
            {
                final SegmentList local = localAccess.local();
                local.buffer(0).putLong(local.offset(0), header.operand());
            }
            localAccess.reset();
        }
        states[i] = READY;
        responded++;
        return null;
    }

    /**
     * The target refused the request {@code sequence}: if a descriptor awaits its response, it completes with
     * the error its level calls for; a Send or RDMA Write that completed already learns nothing more.
     */
    void onNak(final int sequence, final int outcome)
    {
        final int i = awaitingResponse();
        if (i >= 0 && sequences[i] == sequence)
        {
            final int op = descriptors[i].operation();
            ready(i, DONE | TargetAccess.initiatorError(reliability, op, outcome) | LocalAccess.opStatus(op), 0);
            responded++;
        }
    }

    /**
     * The connection is over: what can complete does, then every other descriptor completes with
     * {@code TRANSPORT_ERROR} if its frame went out and the transport failed, else {@code DESC_FLUSHED_ERROR};
     * later posts complete flushed at once.
     *
     * @param transportFailed whether the transport failed (rather than a side ending the connection).
     */
    void failAll(final boolean transportFailed)
    {
        if (broken)
        {
            return;
        }
        broken = true;
        breakAt = -1;
        completeReady();
        while (head < tail)
        {
            final int i = (int)head & mask;
            final Descriptor descriptor = descriptors[i];
            descriptors[i] = null;
            final int opStatus = LocalAccess.opStatus(descriptor.operation());
            if (READY == states[i])
            {
                vi.completeSend(descriptor, statuses[i], lengths[i]);
            }
            else
            {
                final int error = transportFailed && head < encoded ?
                    DescriptorStatus.TRANSPORT_ERROR : DescriptorStatus.DESC_FLUSHED_ERROR;
                vi.completeSend(descriptor, DONE | error | opStatus, 0);
            }
            head++;
        }
        encoded = tail;
        responded = tail;
    }

    private void writeFrame(final Descriptor descriptor, final int op, final int length, final boolean carriesData)
    {
        final int type = DescriptorLayout.OP_SEND == op ? FrameLayout.TYPE_SEND :
            DescriptorLayout.OP_RDMA_WRITE == op ? FrameLayout.TYPE_RDMA_WRITE :
            DescriptorLayout.OP_RDMA_READ == op ? FrameLayout.TYPE_RDMA_READ : FrameLayout.TYPE_ATOMIC;
        int flags = descriptor.hasImmediateData() ? FrameLayout.FLAG_IMMEDIATE : 0;
        if (DescriptorLayout.OP_ATOMIC == op && (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) != 0)
        {
            flags |= FrameLayout.FLAG_ATOMIC_ADD;
        }
        final FrameFlyweight header = channel.beginFrame(type, carriesData ? length : 0, vi.id(),
            connection.peerViId());
        header.flags(flags)
            .sequence(nextSequence)
            .dataLength(length)
            .immediate(descriptor.immediateData());
        if (DescriptorLayout.OP_SEND != op)
        {
            header.handle(descriptor.remoteHandle())
                .address(descriptor.remoteAddress())
                .operand(descriptor.compareOrAdd())
                .swap(descriptor.swapValue());
        }
        if (carriesData)
        {
            frame.reset().add(channel.frameBuffer(), channel.payloadOffset(), length);
            SegmentList.copy(localAccess.local(), frame, length);
            frame.reset();
        }
        localAccess.reset();
    }

    private int awaitingResponse()
    {
        if (responded < head)
        {
            responded = head;
        }
        while (responded < encoded && AWAIT_RESPONSE != states[(int)responded & mask])
        {
            responded++;
        }
        return responded < encoded ? (int)responded & mask : -1;
    }

    private void ready(final int i, final int status, final int length)
    {
        states[i] = READY;
        statuses[i] = status;
        lengths[i] = length;
    }
}
