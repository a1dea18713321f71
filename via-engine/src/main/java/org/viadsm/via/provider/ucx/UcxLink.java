package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.LocalAccess;
import org.viadsm.via.engine.RegistrationLayout;
import org.viadsm.via.engine.RegistrationTable;
import org.viadsm.via.engine.SegmentList;
import org.viadsm.via.engine.TargetAccess;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.ViTransport;

import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * A connected VI's link to its peer VI over UCX.
 * <p>
 * Initiator side: the send queue in posting order. RDMA Write is a put (and a flush at the reliable-reception
 * level), RDMA Read a get, atomics {@code ucp_atomic_op_nbx}, all one-sided and checked here against the peer's
 * {@link RegistrationMirror}; a Send and an RDMA Write with immediate data are active messages, which the peer's
 * engine code performs ({@link TargetAccess}) when it makes progress, and acknowledges at the reliable-reception
 * level. An active message leaves only after a flush of the puts before it, so the target sees the data of earlier
 * writes first. Descriptors complete in posting order; a fenced one is issued once earlier reads and atomics are done.
 * <p>
 * Target side: {@link #onData} performs the peer's messages, from a UCX callback.
 * <p>
 * <b>Note:</b> the send queue is guarded by this object's lock; UCX callbacks never take it (they run under the
 * worker's lock, which the send queue takes inside its own), they only set the volatile fields the queue reads.
 */
final class UcxLink implements ViTransport
{
    private static final int ISSUED = 1;
    private static final int AWAIT_FLUSH = 2;
    private static final int AWAIT_ACK = 3;
    private static final int FINISHED = 4;

    private static final long SLOT_PARAM = Ucp.PARAM_LENGTH;
    private static final int REPLY_SLOTS = 64;

    final long token;
    private final UcxTransport nic;
    private final ViConnection vi;
    private final ReliabilityLevel reliability;
    private final int peerViId;
    private final long peerToken;
    private final int peerPtag;
    private final int peerFlags;
    private final int maxTransfer;
    private final UcpEndpoint control;
    private final UcpEndpoint data;
    private final long dataEndpoint;
    private final RegistrationMirror mirror;
    private final LocalAccess localAccess;
    private final SegmentList local;
    private final TargetAccess access;
    private final SegmentList range = new SegmentList(1);
    private final UnsafeBuffer payload = new UnsafeBuffer(0, 0);
    private final DataHeader header = new DataHeader();
    private final DataHeader replyHeader = new DataHeader();
    private final UnsafeBuffer headerBuffer = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer replyBuffer = new UnsafeBuffer(0, 0);
    private final Arena arena = Arena.ofShared();

    private final Descriptor[] descriptors;
    private final int[] states;
    private final int[] statuses;
    private final int[] lengths;
    private final int[] sequences;
    private final long[] requests;
    private final AtomicBuffer[] results;
    private final int[] resultOffsets;
    private final MemorySegment slots;
    private final MemorySegment iovs;
    private final MemorySegment iovParams;
    private final MemorySegment params;
    private final MemorySegment headers;
    private final MemorySegment bytesParam;
    private final MemorySegment amParam;
    private final MemorySegment replies;
    private final long[] replyRequests = new long[REPLY_SLOTS];
    private final int mask;
    private long head;
    private long issued;
    private long tail;
    private long lastReadLike = -1;
    private boolean unflushedWrites;
    private int nextSequence;
    private int replyNext;
    private boolean broken;
    private String refusal;
    private AsyncError refusalError;
    private MirrorPublisher.Subscriber subscriber;
    private UcpRemoteKey peerMirrorKey;

    private volatile int acked = -1;
    private volatile int nakSequence = Integer.MIN_VALUE;
    private volatile int nakOutcome;
    private volatile String failure;
    private volatile AsyncError failureError;

    UcxLink(
        final UcxTransport nic,
        final ViConnection vi,
        final long token,
        final Handshake peer,
        final UcpEndpoint control,
        final UcpEndpoint data,
        final RegistrationMirror mirror)
    {
        this.nic = nic;
        this.vi = vi;
        this.token = token;
        this.reliability = vi.reliability();
        this.peerViId = peer.viId;
        this.peerToken = peer.token;
        this.peerPtag = peer.ptag;
        this.peerFlags = peer.flags;
        this.maxTransfer = Math.min(vi.maxTransfer(), peer.maxTransfer);
        this.control = control;
        this.data = data;
        this.dataEndpoint = data.getNativeId();
        this.mirror = mirror;
        this.localAccess = new LocalAccess(nic.nic(), vi);
        this.local = localAccess.local();
        this.access = vi.newTargetAccess();
        final int depth = nic.attributes().maxDescriptorsPerQueue();
        this.descriptors = new Descriptor[depth];
        this.states = new int[depth];
        this.statuses = new int[depth];
        this.lengths = new int[depth];
        this.sequences = new int[depth];
        this.requests = new long[depth];
        this.results = new AtomicBuffer[depth];
        this.resultOffsets = new int[depth];
        final int maxSegments = nic.attributes().maxSegmentsPerDescriptor();
        this.iovs = arena.allocate(16L * maxSegments * depth, 64);
        this.iovParams = arena.allocate(SLOT_PARAM * depth, 64);
        this.mask = depth - 1;
        this.slots = arena.allocate(16L * depth, 64);
        this.params = arena.allocate(SLOT_PARAM * depth, 64);
        this.headers = arena.allocate((long)DataHeader.LENGTH * depth, 64);
        this.replies = arena.allocate((long)DataHeader.LENGTH * REPLY_SLOTS, 64);
        this.bytesParam = bytesParam(arena);
        this.amParam = arena.allocate(Ucp.PARAM_LENGTH, 8);
        amParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET, Ucp.OP_ATTR_FIELD_FLAGS);
        amParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_FLAGS_OFFSET, Ucp.AM_SEND_FLAG_EAGER);
        for (int i = 0; i < depth; i++)
        {
            final MemorySegment param = params.asSlice(SLOT_PARAM * i, SLOT_PARAM);
            param.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET,
                Ucp.OP_ATTR_FIELD_DATATYPE | Ucp.OP_ATTR_FIELD_REPLY_BUFFER);
            param.set(ValueLayout.JAVA_LONG, Ucp.PARAM_DATATYPE_OFFSET, Ucp.DATATYPE_LONGS);
            param.set(ValueLayout.ADDRESS, Ucp.PARAM_REPLY_BUFFER_OFFSET, slots.asSlice(16L * i + 8, 8));
            final MemorySegment iovParam = iovParams.asSlice(SLOT_PARAM * i, SLOT_PARAM);
            iovParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET, Ucp.OP_ATTR_FIELD_DATATYPE |
                Ucp.OP_ATTR_FIELD_FLAGS);
            iovParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_FLAGS_OFFSET, Ucp.AM_SEND_FLAG_EAGER);
            iovParam.set(ValueLayout.JAVA_LONG, Ucp.PARAM_DATATYPE_OFFSET, Ucp.DATATYPE_IOV);
        }
    }

    /**
     * A request parameter for byte transfers: contiguous bytes, no callback (requests are polled).
     */
    static MemorySegment bytesParam(final Arena arena)
    {
        final MemorySegment param = arena.allocate(Ucp.PARAM_LENGTH, 8);
        param.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET, Ucp.OP_ATTR_FIELD_DATATYPE);
        param.set(ValueLayout.JAVA_LONG, Ucp.PARAM_DATATYPE_OFFSET, Ucp.DATATYPE_BYTES);
        return param;
    }

    ViConnection vi()
    {
        return vi;
    }

    UcpEndpoint control()
    {
        return control;
    }

    UcpEndpoint data()
    {
        return data;
    }

    /**
     * Makes this NIC's registrations visible to the peer: subscribes the peer's mirror, whose key arrived in its
     * handshake, and fills it.
     *
     * @return false if the mirror could not be written.
     */
    boolean publishTo(final Handshake peer, final MirrorPublisher publisher)
    {
        final java.nio.ByteBuffer key = java.nio.ByteBuffer.allocateDirect(peer.mirrorKey.length);
        key.put(peer.mirrorKey).flip();
        peerMirrorKey = data.unpackRemoteKey(key);
        subscriber = new MirrorPublisher.Subscriber(this, dataEndpoint, peer.mirrorAddress,
            peerMirrorKey.getNativeId(), peer.mirrorEntries);
        return publisher.subscribe(subscriber);
    }

    @Override
    public synchronized void post(final Descriptor descriptor)
    {
        if (broken)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR |
                LocalAccess.opStatus(descriptor.operation()), 0);
            return;
        }
        final int i = (int)tail & mask;
        descriptors[i] = descriptor;
        states[i] = 0;
        requests[i] = 0;
        tail++;
        issue();
        complete();
    }

    /**
     * Advances the send queue: completes what UCX finished, issues what waited, breaks the connection if the peer
     * said so or went away.
     *
     * @return work done.
     */
    synchronized int poll()
    {
        final String failed = failure;
        if (null != failed && !broken)
        {
            // a refused operation awaiting its acknowledgement completes with its error first
            for (long n = head; n < issued; n++)
            {
                advance((int)n & mask);
            }
            complete();
            final AsyncError error = failureError;
            breakLink(null == error ? AsyncError.CONNECTION_LOST : error, failed, false);
        }
        if (head == tail)
        {
            return 0;
        }
        int work = 0;
        for (long n = head; n < issued; n++)
        {
            work += advance((int)n & mask);
        }
        issue();
        work += complete();
        if (null != refusal && head == issued)
        {
            final String detail = refusal;
            refusal = null;
            breakLink(refusalError, detail, true);
        }
        return work;
    }

    boolean isIdle()
    {
        return head == tail;
    }

    @Override
    public void disconnect(final String detail)
    {
        synchronized (this)
        {
            if (!broken)
            {
                sendControl(DataHeader.TYPE_BREAK, 0, 0);
                breakLink(null, detail, true);
            }
        }
        nic.release(this);
    }

    /**
     * The peer's mirror of this NIC's table could not be written: the peer is gone.
     */
    void onMirrorLost()
    {
        failure = "the registration mirror of peer VI " + peerViId + " cannot be written";
    }

    /**
     * An endpoint of the connection failed (the peer's process died or its link went down); from a UCX callback.
     */
    void onEndpointError(final String detail)
    {
        if (null == failure)
        {
            failure = detail;
        }
    }

    /**
     * Performs a data message of the peer; from the UCX callback that received it.
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
                    sendControl(DataHeader.TYPE_ACK, message.sequence(), 0);
                }
                failure = 0 == outcome ? "peer VI " + peerViId + " of " + vi.remoteAddress() + " disconnected" :
                    "peer VI " + peerViId + " of " + vi.remoteAddress() + " broke the connection: outcome " + outcome;
                if (0 != outcome)
                {
                    vi.onTransportBroken(this, TargetAccess.asyncError(outcome), failure);
                }
                else
                {
                    vi.onTransportBroken(this, AsyncError.CONNECTION_LOST, failure);
                }
                break;
        }
    }

    /**
     * Releases the UCX resources of the link once it is out of use.
     */
    void close()
    {
        synchronized (this)
        {
            for (long n = head; n < tail; n++)
            {
                final int i = (int)n & mask;
                if (Ucp.isRequest(requests[i]))
                {
                    Ucp.free(requests[i]);
                    requests[i] = 0;
                }
            }
            for (int i = 0; i < REPLY_SLOTS; i++)
            {
                if (Ucp.isRequest(replyRequests[i]))
                {
                    Ucp.free(replyRequests[i]);
                    replyRequests[i] = 0;
                }
            }
            if (null != peerMirrorKey)
            {
                peerMirrorKey.close();
                peerMirrorKey = null;
            }
            mirror.close();
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
                sendControl(DataHeader.TYPE_ACK, message.sequence(), 0);
            }
        }
        else if (reliability.isReliable() && TargetAccess.NOT_CONNECTED != outcome)
        {
            sendControl(DataHeader.TYPE_NAK, message.sequence(), outcome);
            final AsyncError error = TargetAccess.TARGET_FAULT == outcome ? AsyncError.RDMA_TRANSPORT :
                TargetAccess.asyncError(outcome);
            failure = access.detail();
            vi.onTransportBroken(this, error, access.detail());
        }
    }

    /**
     * Sends an acknowledgement, refusal or break to the peer from a header slot of its own, which stays valid
     * until UCX is done with it.
     */
    private void sendControl(final int type, final int sequence, final int outcome)
    {
        final int slot = replyNext;
        replyNext = (replyNext + 1) % REPLY_SLOTS;
        if (Ucp.isRequest(replyRequests[slot]))
        {
            if (Ucp.IN_PROGRESS == Ucp.checkStatus(replyRequests[slot]))
            {
                failure = "more than " + REPLY_SLOTS + " answers to peer VI " + peerViId + " are in flight";
                return;
            }
            Ucp.free(replyRequests[slot]);
        }
        final long replyAddress = replies.address() + (long)DataHeader.LENGTH * slot;
        replyBuffer.wrap(replyAddress, DataHeader.LENGTH);
        replyHeader.wrap(replyBuffer).set(type, peerViId, peerToken, sequence).outcome(outcome);
        final long request = Ucp.amSend(dataEndpoint, DataHeader.AM_ID, replyAddress, DataHeader.LENGTH, 0, 0,
            amParam.address());
        replyRequests[slot] = Ucp.isRequest(request) ? request : 0;
        if (Ucp.isError(request))
        {
            failure = "cannot answer peer VI " + peerViId + ": UCX status " + request;
        }
    }

    private void issue()
    {
        while (issued < tail && !broken && null == refusal)
        {
            final int i = (int)issued & mask;
            final Descriptor descriptor = descriptors[i];
            final int op = descriptor.operation();
            if ((descriptor.control() & DescriptorLayout.CONTROL_QUEUE_FENCE) != 0 && lastReadLike >= head)
            {
                return;
            }
            final boolean message = DescriptorLayout.OP_SEND == op ||
                DescriptorLayout.OP_RDMA_WRITE == op && descriptor.hasImmediateData();
            if (message && unflushedWrites)
            {
                if (AWAIT_FLUSH != states[i])
                {
                    requests[i] = Ucp.flush(dataEndpoint, bytesParam.address());
                    states[i] = AWAIT_FLUSH;
                }
                if (!flushed(i))
                {
                    return;
                }
                unflushedWrites = false;
            }
            issued++;
            final int error = localAccess.check(descriptor, op);
            if (0 != error)
            {
                finish(i, DONE | error | LocalAccess.opStatus(op), 0);
                if (reliability.isReliable())
                {
                    sendControl(DataHeader.TYPE_BREAK, 0, 0);
                    breakLink(null, "VI " + vi.id() + " of " + nic.address() + " broke the connection after " +
                        DescriptorStatus.toString(error) + ": " + localAccess.detail(), true);
                }
                localAccess.reset();
                continue;
            }
            if (message)
            {
                send(i, descriptor, op);
            }
            else
            {
                oneSided(i, descriptor, op);
            }
            localAccess.reset();
        }
    }

    private boolean flushed(final int i)
    {
        final long request = requests[i];
        if (Ucp.isError(request))
        {
            failure = "flush to peer VI " + peerViId + " failed: UCX status " + request;
            return false;
        }
        if (Ucp.isRequest(request))
        {
            final int status = Ucp.checkStatus(request);
            if (Ucp.IN_PROGRESS == status)
            {
                return false;
            }
            Ucp.free(request);
            requests[i] = 0;
            if (Ucp.OK != status)
            {
                failure = "flush to peer VI " + peerViId + " failed: UCX status " + status;
                return false;
            }
        }
        requests[i] = 0;
        return true;
    }

    private void send(final int i, final Descriptor descriptor, final int op)
    {
        final int length = descriptor.length();
        long source = 0;
        long count = length;
        long param = amParam.address();
        final int maxSegments = nic.attributes().maxSegmentsPerDescriptor();
        if (length > 0 && local.length(0) >= length)
        {
            source = local.buffer(0).addressOffset() + local.offset(0);
        }
        else if (length > 0)
        {
            // several segments go out as one message, gathered by UCX from an I/O vector
            final long iov = iovs.address() + 16L * maxSegments * i;
            int left = length;
            int entries = 0;
            for (int s = 0; s < local.count() && left > 0; s++)
            {
                final int chunk = Math.min(left, local.length(s));
                iovs.set(ValueLayout.JAVA_LONG, iov - iovs.address() + 16L * entries,
                    local.buffer(s).addressOffset() + local.offset(s));
                iovs.set(ValueLayout.JAVA_LONG, iov - iovs.address() + 16L * entries + 8, chunk);
                entries++;
                left -= chunk;
            }
            source = iov;
            count = entries;
            param = iovParams.address() + SLOT_PARAM * i;
        }
        final boolean ack = ReliabilityLevel.RELIABLE_RECEPTION == reliability;
        final int sequence = nextSequence++;
        final long headerAddress = headers.address() + (long)DataHeader.LENGTH * i;
        headerBuffer.wrap(headerAddress, DataHeader.LENGTH);
        header.wrap(headerBuffer)
            .set(DescriptorLayout.OP_SEND == op ? DataHeader.TYPE_SEND : DataHeader.TYPE_WRITE_IMMEDIATE, peerViId,
                peerToken, sequence)
            .length(length)
            .immediate(descriptor.hasImmediateData() ? descriptor.immediateData() : 0)
            .flags((descriptor.hasImmediateData() ? DataHeader.FLAG_IMMEDIATE : 0) |
                (ack ? DataHeader.FLAG_ACK_REQUESTED : 0))
            .handle(descriptor.remoteHandle())
            .address(DescriptorLayout.OP_SEND == op ? 0 : descriptor.remoteAddress());
        sequences[i] = sequence;
        lengths[i] = length;
        requests[i] = Ucp.amSend(dataEndpoint, DataHeader.AM_ID, headerAddress, DataHeader.LENGTH, source, count,
            param);
        states[i] = ack ? AWAIT_ACK : ISSUED;
        statuses[i] = DONE | LocalAccess.opStatus(op);
        if (Ucp.isError(requests[i]))
        {
            failure = "send to peer VI " + peerViId + " failed: UCX status " + requests[i];
            requests[i] = 0;
        }
    }

    private void oneSided(final int i, final Descriptor descriptor, final int op)
    {
        final int length = descriptor.length();
        final int required = DescriptorLayout.OP_RDMA_WRITE == op ? RegistrationLayout.FLAG_RDMA_WRITE :
            DescriptorLayout.OP_RDMA_READ == op ? RegistrationLayout.FLAG_RDMA_READ :
            RegistrationLayout.FLAG_RDMA_READ | RegistrationLayout.FLAG_RDMA_WRITE;
        final int span = DescriptorLayout.OP_ATOMIC == op ? 8 : length;
        final int opStatus = LocalAccess.opStatus(op);
        final int check = (peerFlags & required) != required ? RegistrationTable.CHECK_INVALID_HANDLE :
            mirror.resolve(data, descriptor.remoteHandle(), peerPtag, required, descriptor.remoteAddress(), span);
        if (RegistrationTable.CHECK_OK != check)
        {
            final int outcome = DescriptorLayout.OP_RDMA_WRITE == op ? TargetAccess.RDMA_WRITE_PROTECTION :
                TargetAccess.RDMA_READ_PROTECTION;
            final String detail = ((peerFlags & required) != required ? "RDMA not enabled on VI " + peerViId :
                RegistrationTable.describe(check)) + ": handle 0x" + Integer.toHexString(descriptor.remoteHandle()) +
                " address " + descriptor.remoteAddress() + " length " + span + " on " + vi.remoteAddress();
            refuse(i, op, outcome, detail, length);
            return;
        }
        statuses[i] = DONE | opStatus;
        lengths[i] = DescriptorLayout.OP_ATOMIC == op ? 8 : length;
        states[i] = ISSUED;
        if (DescriptorLayout.OP_ATOMIC == op)
        {
            final boolean add = (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) != 0;
            // compare-and-swap takes the compare value as operand and the swap value in the reply buffer
            slots.set(ValueLayout.JAVA_LONG, 16L * i, descriptor.compareOrAdd());
            slots.set(ValueLayout.JAVA_LONG, 16L * i + 8, add ? 0 : descriptor.swapValue());
            results[i] = local.buffer(0);
            resultOffsets[i] = local.offset(0);
            requests[i] = Ucp.atomic(dataEndpoint, add ? Ucp.ATOMIC_ADD : Ucp.ATOMIC_CSWAP, slots.address() + 16L * i,
                mirror.remoteAddress(), mirror.remoteKey(), params.address() + SLOT_PARAM * i);
            lastReadLike = issued - 1;
            checkIssued(i);
            return;
        }
        final boolean read = DescriptorLayout.OP_RDMA_READ == op;
        long remote = mirror.remoteAddress();
        final long key = mirror.remoteKey();
        int left = length;
        long request = 0;
        for (int s = 0; s < local.count() && left > 0; s++)
        {
            final int chunk = Math.min(left, local.length(s));
            final long address = local.buffer(s).addressOffset() + local.offset(s);
            if (Ucp.isRequest(request))
            {
                Ucp.free(request);
            }
            request = read ? Ucp.get(dataEndpoint, address, chunk, remote, key, bytesParam.address()) :
                Ucp.put(dataEndpoint, address, chunk, remote, key, bytesParam.address());
            if (Ucp.isError(request))
            {
                break;
            }
            remote += chunk;
            left -= chunk;
        }
        if (read)
        {
            lastReadLike = issued - 1;
        }
        else
        {
            unflushedWrites = true;
        }
        final boolean many = local.count() > 1 && length > local.length(0);
        if (!Ucp.isError(request) && (many || !read && ReliabilityLevel.RELIABLE_RECEPTION == reliability))
        {
            if (Ucp.isRequest(request))
            {
                Ucp.free(request);
            }
            request = Ucp.flush(dataEndpoint, bytesParam.address());
            if (!read)
            {
                unflushedWrites = false;
            }
        }
        requests[i] = request;
        checkIssued(i);
    }

    /**
     * An RDMA operation failed the check against the peer's mirror: completes it as the level says; on a reliable
     * connection the target breaks its side first and acknowledges, so both sides are in error when it completes.
     */
    private void refuse(final int i, final int op, final int outcome, final String detail, final int length)
    {
        final int opStatus = LocalAccess.opStatus(op);
        final int errorBit = TargetAccess.initiatorError(reliability, op, outcome);
        if (!reliability.isReliable())
        {
            finish(i, DONE | errorBit | opStatus, 0 == errorBit ? length : 0);
            return;
        }
        if (0 == errorBit)
        {
            // reliable delivery: the write completes, the error is reported asynchronously at both ends
            finish(i, DONE | opStatus, length);
            sendControl(DataHeader.TYPE_BREAK, 0, outcome);
            breakLink(TargetAccess.asyncError(outcome), detail, true);
            return;
        }
        statuses[i] = DONE | errorBit | opStatus;
        lengths[i] = 0 == errorBit ? length : 0;
        sequences[i] = nextSequence++;
        final long headerAddress = headers.address() + (long)DataHeader.LENGTH * i;
        headerBuffer.wrap(headerAddress, DataHeader.LENGTH);
        header.wrap(headerBuffer)
            .set(DataHeader.TYPE_BREAK, peerViId, peerToken, sequences[i])
            .flags(DataHeader.FLAG_ACK_REQUESTED)
            .outcome(outcome);
        requests[i] = Ucp.amSend(dataEndpoint, DataHeader.AM_ID, headerAddress, DataHeader.LENGTH, 0, 0,
            amParam.address());
        checkIssued(i);
        states[i] = AWAIT_ACK;
        refusal = detail;
        refusalError = TargetAccess.asyncError(outcome);
    }

    private void checkIssued(final int i)
    {
        if (Ucp.isError(requests[i]))
        {
            failure = "RDMA to peer VI " + peerViId + " failed: UCX status " + requests[i];
            requests[i] = 0;
        }
    }

    /**
     * Polls one issued descriptor's request and acknowledgement.
     */
    private int advance(final int i)
    {
        final int state = states[i];
        if (ISSUED != state && AWAIT_ACK != state)
        {
            return 0;
        }
        final long request = requests[i];
        if (Ucp.isRequest(request))
        {
            final int status = Ucp.checkStatus(request);
            if (Ucp.IN_PROGRESS == status)
            {
                return 0;
            }
            Ucp.free(request);
            requests[i] = 0;
            if (Ucp.OK != status)
            {
                failure = "operation to peer VI " + peerViId + " failed: UCX status " + status;
                return 1;
            }
        }
        if (AWAIT_ACK == state)
        {
            final int sequence = sequences[i];
            if (nakSequence == sequence)
            {
                final int op = descriptors[i].operation();
                final int errorBit = TargetAccess.initiatorError(reliability, op, nakOutcome);
                statuses[i] = DONE | errorBit | LocalAccess.opStatus(op);
                lengths[i] = 0;
                failure = "peer VI " + peerViId + " refused the operation: outcome " + nakOutcome;
            }
            else if (acked - sequence < 0)
            {
                return 0;
            }
        }
        else if (null != results[i])
        {
            results[i].putLong(resultOffsets[i], slots.get(ValueLayout.JAVA_LONG, 16L * i + 8));
            results[i] = null;
        }
        states[i] = FINISHED;
        return 1;
    }

    private void finish(final int i, final int status, final int length)
    {
        statuses[i] = status;
        lengths[i] = length;
        states[i] = FINISHED;
    }

    private int complete()
    {
        int count = 0;
        while (head < issued && FINISHED == states[(int)head & mask])
        {
            final int i = (int)head & mask;
            final Descriptor descriptor = descriptors[i];
            descriptors[i] = null;
            head++;
            count++;
            vi.completeSend(descriptor, statuses[i], lengths[i]);
        }
        return count;
    }

    /**
     * Ends the connection: the VI enters the error state (reporting {@code error}, if not null), and every
     * descriptor not yet completed completes, flushed.
     */
    private void breakLink(final AsyncError error, final String detail, final boolean local)
    {
        broken = true;
        vi.onTransportBroken(this, error, detail);
        for (long n = head; n < tail; n++)
        {
            final int i = (int)n & mask;
            if (FINISHED != states[i])
            {
                final int status = n < issued && ISSUED <= states[i] && !local ? DescriptorStatus.TRANSPORT_ERROR :
                    DescriptorStatus.DESC_FLUSHED_ERROR;
                finish(i, DONE | status | LocalAccess.opStatus(descriptors[i].operation()), 0);
            }
        }
        issued = tail;
        complete();
        nic.publisher().unsubscribe(this);
    }
}
