package org.viadsm.via.provider.ucx;

import java.lang.foreign.MemorySegment;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.engine.SegmentList;

/**
 * Starts the UCX operations of a link's descriptors, each into its send slot: a message (Send, RDMA Write with
 * immediate data, a break) as one eager active message, its data gathered from the local segments; an RDMA Read
 * or Write as gets or puts over the local segments, flushed where asked; an atomic as {@code ucp_atomic_op_nbx}
 * with its operand and reply in the slot. Each returns UCX's status pointer ({@link Ucp}).
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class OperationIssuer
{
    private final long endpoint;
    private final SendSlots queue;
    private final SegmentList local;
    private final MemorySegment bytesParam;
    private final MemorySegment messageParam;
    private final int peerViId;
    private final long peerToken;
    private final DataHeader header = new DataHeader();
    private final UnsafeBuffer headerBuffer = new UnsafeBuffer(0, 0);

    /**
     * @param endpoint     the data endpoint's native handle.
     * @param queue        the link's send slots.
     * @param local        the local segments of the descriptor being issued, as the link's local check left them.
     * @param bytesParam   the request parameter of byte transfers.
     * @param messageParam the request parameter of eager active messages.
     * @param peerViId     the peer VI, which messages address.
     * @param peerToken    the peer link's token.
     */
    OperationIssuer(final long endpoint, final SendSlots queue, final SegmentList local, final MemorySegment bytesParam,
        final MemorySegment messageParam, final int peerViId, final long peerToken)
    {
        this.endpoint = endpoint;
        this.queue = queue;
        this.local = local;
        this.bytesParam = bytesParam;
        this.messageParam = messageParam;
        this.peerViId = peerViId;
        this.peerToken = peerToken;
    }

    /**
     * Sends a Send or an RDMA Write with immediate data as one message.
     */
    long message(final int i, final Descriptor descriptor, final int op, final int sequence, final boolean ack)
    {
        final int length = descriptor.length();
        long source = 0;
        long count = length;
        long param = messageParam.address();
        if (length > 0 && local.length(0) >= length)
        {
            source = local.buffer(0).addressOffset() + local.offset(0);
        }
        else if (length > 0)
        {
            // several segments go out as one message, gathered by UCX from an I/O vector
            int left = length;
            int entries = 0;
            for (int s = 0; s < local.count() && left > 0; s++)
            {
                final int chunk = Math.min(left, local.length(s));
                queue.iovEntry(i, entries, local.buffer(s).addressOffset() + local.offset(s), chunk);
                entries++;
                left -= chunk;
            }
            source = queue.iov(i);
            count = entries;
            param = queue.iovParam(i);
        }
        final long headerAddress = queue.header(i);
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
        return Ucp.amSend(endpoint, DataHeader.AM_ID, headerAddress, DataHeader.LENGTH, source, count, param);
    }

    /**
     * Sends a header-only break of the connection that asks for an acknowledgement.
     */
    long breakMessage(final int i, final int sequence, final int outcome)
    {
        final long headerAddress = queue.header(i);
        headerBuffer.wrap(headerAddress, DataHeader.LENGTH);
        header.wrap(headerBuffer)
            .set(DataHeader.TYPE_BREAK, peerViId, peerToken, sequence)
            .flags(DataHeader.FLAG_ACK_REQUESTED)
            .outcome(outcome);
        return Ucp.amSend(endpoint, DataHeader.AM_ID, headerAddress, DataHeader.LENGTH, 0, 0,
            messageParam.address());
    }

    /**
     * Starts an atomic from slot {@code i}'s operand and reply words; its result is slot {@code i}'s
     * {@link SendSlots#atomicResult(int)} once it completes.
     */
    long atomic(final int i, final Descriptor descriptor, final long remoteAddress, final long remoteKey)
    {
        final boolean add = (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) != 0;
        // compare-and-swap takes the compare value as operand and the swap value in the reply buffer
        final long operand = queue.atomic(i, descriptor.compareOrAdd(), add ? 0 : descriptor.swapValue());
        return Ucp.atomic(endpoint, add ? Ucp.ATOMIC_ADD : Ucp.ATOMIC_CSWAP, operand, remoteAddress, remoteKey,
            queue.atomicParam(i));
    }

    /**
     * Moves {@code length} bytes between the local segments and the target, one get or put per segment.
     *
     * @param flush whether a flush follows, so that the last request completes once every transfer did.
     * @return the last request (the flush, if any).
     */
    long transfer(final boolean read, final int length, final long remoteAddress, final long remoteKey,
        final boolean flush)
    {
        long remote = remoteAddress;
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
            request = read ? Ucp.get(endpoint, address, chunk, remote, remoteKey, bytesParam.address()) :
                Ucp.put(endpoint, address, chunk, remote, remoteKey, bytesParam.address());
            if (Ucp.isError(request))
            {
                return request;
            }
            remote += chunk;
            left -= chunk;
        }
        if (flush)
        {
            if (Ucp.isRequest(request))
            {
                Ucp.free(request);
            }
            request = Ucp.flush(endpoint, bytesParam.address());
        }
        return request;
    }
}
