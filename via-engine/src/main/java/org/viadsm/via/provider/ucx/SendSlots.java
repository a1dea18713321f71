package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.LocalAccess;
import org.viadsm.via.engine.TargetAccess;

import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The send queue of a {@link UcxLink}, one slot per descriptor in flight (posting index modulo the depth): the
 * descriptor, its state, the status and length it completes with, its message sequence, its UCX request, where an
 * atomic's result goes, and the native memory UCX reads or writes for it (atomic operand and reply, the I/O vector
 * of a gathered message, a message header, request parameters). Nothing is allocated per operation.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class SendSlots
{
    static final int ISSUED = 1;
    static final int AWAIT_FLUSH = 2;
    static final int AWAIT_ACK = 3;
    static final int FINISHED = 4;

    private static final long PARAM = Ucp.PARAM_LENGTH;

    final Descriptor[] descriptors;
    final int[] states;
    final int[] statuses;
    final int[] lengths;
    final int[] sequences;
    final long[] requests;
    final AtomicBuffer[] results;
    final int[] resultOffsets;
    final boolean[] resultPending;
    final int mask;
    private final int maxSegments;
    private final MemorySegment atomics;
    // the same words as plain memory: an atomic writes its operand and reads its reply on the issuing path, where a
    // segment access of a shared arena checks the arena's state each time; the arena outlives every use (it closes
    // after the worker, once no call or progress visit is inside the NIC)
    private final UnsafeBuffer atomicWords;
    private final MemorySegment atomicParams;
    private final MemorySegment iovs;
    private final MemorySegment iovParams;
    private final MemorySegment headers;

    SendSlots(final Arena arena, final int depth, final int maxSegments)
    {
        this.descriptors = new Descriptor[depth];
        this.states = new int[depth];
        this.statuses = new int[depth];
        this.lengths = new int[depth];
        this.sequences = new int[depth];
        this.requests = new long[depth];
        this.results = new AtomicBuffer[depth];
        this.resultOffsets = new int[depth];
        this.resultPending = new boolean[depth];
        this.mask = depth - 1;
        this.maxSegments = maxSegments;
        this.iovs = arena.allocate(16L * maxSegments * depth, 64);
        this.iovParams = arena.allocate(PARAM * depth, 64);
        this.atomics = arena.allocate(16L * depth, 64);
        this.atomicWords = new UnsafeBuffer(atomics.address(), 16 * depth);
        this.atomicParams = arena.allocate(PARAM * depth, 64);
        this.headers = arena.allocate((long)DataHeader.LENGTH * depth, 64);
        for (int i = 0; i < depth; i++)
        {
            final MemorySegment param = atomicParams.asSlice(PARAM * i, PARAM);
            param.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET,
                Ucp.OP_ATTR_FIELD_DATATYPE | Ucp.OP_ATTR_FIELD_REPLY_BUFFER);
            param.set(ValueLayout.JAVA_LONG, Ucp.PARAM_DATATYPE_OFFSET, Ucp.DATATYPE_LONGS);
            param.set(ValueLayout.ADDRESS, Ucp.PARAM_REPLY_BUFFER_OFFSET, atomics.asSlice(16L * i + 8, 8));
            final MemorySegment iovParam = iovParams.asSlice(PARAM * i, PARAM);
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

    /**
     * A request parameter for atomics on 64-bit words whose reply buffer each atomic sets
     * ({@link Ucp#PARAM_REPLY_BUFFER_OFFSET}).
     */
    static MemorySegment atomicParam(final Arena arena)
    {
        final MemorySegment param = arena.allocate(Ucp.PARAM_LENGTH, 8);
        param.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET,
            Ucp.OP_ATTR_FIELD_DATATYPE | Ucp.OP_ATTR_FIELD_REPLY_BUFFER);
        param.set(ValueLayout.JAVA_LONG, Ucp.PARAM_DATATYPE_OFFSET, Ucp.DATATYPE_LONGS);
        return param;
    }

    /**
     * A request parameter for eager active messages of contiguous bytes.
     */
    static MemorySegment messageParam(final Arena arena)
    {
        final MemorySegment param = arena.allocate(Ucp.PARAM_LENGTH, 8);
        param.set(ValueLayout.JAVA_INT, Ucp.PARAM_MASK_OFFSET, Ucp.OP_ATTR_FIELD_FLAGS);
        param.set(ValueLayout.JAVA_INT, Ucp.PARAM_FLAGS_OFFSET, Ucp.AM_SEND_FLAG_EAGER);
        return param;
    }

    /**
     * Takes slot {@code i} for a descriptor just posted. A slot keeps its last descriptor after completing it, and
     * taking the one it holds stores nothing: under G1 a store of a reference into this long-lived array costs a
     * card-marking fence, and a queue reposts its few descriptors over and over.
     */
    void take(final int i, final Descriptor descriptor)
    {
        if (descriptors[i] != descriptor)
        {
            descriptors[i] = descriptor;
        }
        states[i] = 0;
        requests[i] = 0;
    }

    /**
     * Slot {@code i}'s operation is being issued; it completes with this status and length unless it fails.
     */
    void issuing(final int i, final int status, final int length)
    {
        statuses[i] = status;
        lengths[i] = length;
        states[i] = ISSUED;
    }

    void finish(final int i, final int status, final int length)
    {
        statuses[i] = status;
        lengths[i] = length;
        states[i] = FINISHED;
        resultPending[i] = false;
    }

    /**
     * Frees the UCX requests of the slots from posting index {@code head} to {@code tail}; the link is closing.
     */
    void freeRequests(final long head, final long tail)
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
    }

    /**
     * UCX refused to start slot {@code i}'s operation: it completes with a transport error once its turn comes.
     */
    void failIssued(final int i)
    {
        requests[i] = 0;
        statuses[i] = DONE | DescriptorStatus.TRANSPORT_ERROR | LocalAccess.opStatus(descriptors[i].operation());
        lengths[i] = 0;
        resultPending[i] = false;
    }

    /**
     * Whether slot {@code i}'s flush completed (then freed); a failed one fails the connection.
     */
    boolean flushed(final int i, final LinkInbox inbox, final int peerViId)
    {
        final long request = requests[i];
        if (Ucp.isError(request))
        {
            inbox.failure = "flush to peer VI " + peerViId + " failed: UCX status " + request;
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
                inbox.failure = "flush to peer VI " + peerViId + " failed: UCX status " + status;
                return false;
            }
        }
        requests[i] = 0;
        return true;
    }

    /**
     * If UCX refused to start slot {@code i}'s operation (its status pointer is an error), it completes with a
     * transport error, and the link's failure says so: the connection breaks.
     */
    void checkIssued(final int i, final String what, final LinkInbox inbox, final int peerViId)
    {
        if (Ucp.isError(requests[i]))
        {
            inbox.failure = what + " to peer VI " + peerViId + " failed: UCX status " + requests[i];
            failIssued(i);
        }
    }

    /**
     * {@link #advance(int, LinkInbox, ReliabilityLevel, int)} of the slots from posting index {@code head} to
     * {@code issued}.
     *
     * @return work done.
     */
    int advance(final long head, final long issued, final LinkInbox inbox, final ReliabilityLevel reliability,
        final int peerViId)
    {
        int work = 0;
        for (long n = head; n < issued; n++)
        {
            work += advance((int)n & mask, inbox, reliability, peerViId);
        }
        return work;
    }

    /**
     * Polls an issued descriptor's request and acknowledgement, finishing it once both are in.
     *
     * @return work done.
     */
    int advance(final int i, final LinkInbox inbox, final ReliabilityLevel reliability, final int peerViId)
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
                inbox.failure = "operation to peer VI " + peerViId + " failed: UCX status " + status;
                return 1;
            }
        }
        if (AWAIT_ACK == state)
        {
            final int sequence = sequences[i];
            if (inbox.nakSequence == sequence)
            {
                final int op = descriptors[i].operation();
                final int errorBit = TargetAccess.initiatorError(reliability, op, inbox.nakOutcome);
                statuses[i] = DONE | errorBit | LocalAccess.opStatus(op);
                lengths[i] = 0;
                inbox.failure = "peer VI " + peerViId + " refused the operation: outcome " + inbox.nakOutcome;
            }
            else if (inbox.acked - sequence < 0)
            {
                return 0;
            }
        }
        finishAtOnce(i);
        return 1;
    }

    /**
     * Finishes slot {@code i}, whose request (and acknowledgement, if one was awaited) is in: an atomic's result
     * goes to its local segment.
     */
    void finishAtOnce(final int i)
    {
        if (resultPending[i])
        {
            results[i].putLong(resultOffsets[i], atomicResult(i));
            resultPending[i] = false;
        }
        states[i] = FINISHED;
    }

    /**
     * Where slot {@code i}'s atomic result goes once it completes. A slot keeps its last buffer, and storing the one
     * it holds stores nothing: under G1 a store of a reference into this long-lived array costs a card-marking fence.
     */
    void resultTo(final int i, final AtomicBuffer buffer, final int offset)
    {
        if (results[i] != buffer)
        {
            results[i] = buffer;
        }
        resultOffsets[i] = offset;
        resultPending[i] = true;
    }

    long header(final int i)
    {
        return headers.address() + (long)DataHeader.LENGTH * i;
    }

    /**
     * Sets one entry of slot {@code i}'s I/O vector.
     */
    void iovEntry(final int i, final int entry, final long address, final long length)
    {
        final long offset = 16L * maxSegments * i + 16L * entry;
        iovs.set(ValueLayout.JAVA_LONG, offset, address);
        iovs.set(ValueLayout.JAVA_LONG, offset + 8, length);
    }

    long iov(final int i)
    {
        return iovs.address() + 16L * maxSegments * i;
    }

    long iovParam(final int i)
    {
        return iovParams.address() + PARAM * i;
    }

    /**
     * Sets slot {@code i}'s atomic operand and reply word (compare-and-swap takes the compare value as operand and
     * the swap value in the reply buffer).
     *
     * @return the operand's address.
     */
    long atomic(final int i, final long operand, final long reply)
    {
        atomicWords.putLong(16 * i, operand);
        atomicWords.putLong(16 * i + 8, reply);
        return atomicWords.addressOffset() + 16L * i;
    }

    long atomicParam(final int i)
    {
        return atomicParams.address() + PARAM * i;
    }

    long atomicResult(final int i)
    {
        return atomicWords.getLong(16 * i + 8);
    }
}
