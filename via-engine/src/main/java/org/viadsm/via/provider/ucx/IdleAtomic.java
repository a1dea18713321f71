package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.LocalAccess;
import org.viadsm.via.engine.RegistrationTable;
import org.viadsm.via.engine.SegmentList;
import org.viadsm.via.engine.TargetAccess;
import org.viadsm.via.engine.ViConnection;

import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The common case of a remote atomic, on a path of its own: one posted on an idle send queue, with nothing to fence
 * or flush before it, whose checks pass. It is issued from slot 0's operand and reply words and, when UCX completes
 * it at once (a CPU atomic over shared memory, the usual case), completed there with its result copied out: no slot
 * taken, no pass over the queue, no progress round. A fetch-and-add whose descriptor and result segment are in native
 * memory (the usual case) goes without slot 0's words: UCX reads the operand from the descriptor, which the NIC owns
 * until it completes, and writes the fetched word straight into the segment. One that UCX did not complete at once
 * (it returned a request, or refused to start it) takes slot 0 as the queue's general path would have, and completes
 * like any other; UCX still writes a fetch-and-add's result into the segment itself, and a refused one writes
 * nothing.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class IdleAtomic
{
    /** {@link #issue} took nothing: a check failed, and the general path completes the descriptor in error. */
    static final int NOT_TAKEN = 0;
    /** {@link #issue} completed the descriptor. */
    static final int COMPLETED = 1;
    /** {@link #issue} left the atomic in slot 0, issued (or refused by UCX), for the queue to complete. */
    static final int IN_SLOT_ZERO = 2;

    private static final int RIGHTS = TargetAccess.requiredRights(DescriptorLayout.OP_ATOMIC);
    private static final int STATUS = DONE | DescriptorStatus.OP_ATOMIC;

    private final ViConnection vi;
    private final LocalAccess localAccess;
    private final SegmentList local;
    private final RegistrationMirror mirror;
    private final UcpEndpoint data;
    private final int peerPtag;
    private final boolean peerAllowsAtomics;
    private final OperationIssuer issuer;
    private final SendSlots queue;
    private final LinkInbox inbox;
    private final int peerViId;
    private final AtomicRoute route;
    private final long dataEndpoint;
    private final long addParam;
    // where the add's request parameter takes its reply buffer, in native memory of the link's arena
    private final long addReplyBufferAddress;

    IdleAtomic(final ViConnection vi, final LocalAccess localAccess, final RegistrationMirror mirror,
        final UcpEndpoint data, final Handshake peer, final OperationIssuer issuer, final SendSlots queue,
        final LinkInbox inbox, final Arena arena)
    {
        final MemorySegment param = SendSlots.atomicParam(arena);
        this.addParam = param.address();
        this.addReplyBufferAddress = addParam + Ucp.PARAM_REPLY_BUFFER_OFFSET;
        this.dataEndpoint = data.getNativeId();
        this.inbox = inbox;
        this.peerViId = peer.viId;
        this.vi = vi;
        this.localAccess = localAccess;
        this.local = localAccess.local();
        this.mirror = mirror;
        this.data = data;
        this.peerPtag = peer.ptag;
        this.peerAllowsAtomics = (peer.flags & RIGHTS) == RIGHTS;
        this.issuer = issuer;
        this.queue = queue;
        this.route = new AtomicRoute(localAccess.table(), vi.ptag(), mirror.table(), peerPtag, RIGHTS);
    }

    /**
     * Checks and issues an atomic posted on an idle queue, and completes it if UCX did at once.
     *
     * @param descriptor the atomic.
     * @return {@link #NOT_TAKEN}, {@link #COMPLETED} or {@link #IN_SLOT_ZERO}.
     */
    int issue(final Descriptor descriptor)
    {
        if (route.passesAdd(descriptor))
        {
            return add(descriptor, route.operandAddress(), route.resultAddress(), route.remoteAddress(),
                route.remoteKey());
        }
        if (route.passes(descriptor))
        {
            return issue(descriptor, route.localBuffer(), route.localOffset(), route.remoteAddress(),
                route.remoteKey());
        }
        if (0 != localAccess.checkAtomic(descriptor) || !peerAllowsAtomics ||
            RegistrationTable.CHECK_OK != mirror.resolve(data, descriptor.remoteHandle(), peerPtag, RIGHTS,
            descriptor.remoteAddress(), 8))
        {
            localAccess.reset();
            return NOT_TAKEN;
        }
        final AtomicBuffer buffer = local.buffer(0);
        final int offset = local.offset(0);
        localAccess.reset();
        route.remember(descriptor, buffer, mirror.lastBase(), mirror.lastKey());
        return issue(descriptor, buffer, offset, mirror.remoteAddress(), mirror.remoteKey());
    }

    /**
     * Issues a checked atomic whose result goes to {@code buffer} at {@code offset}, and completes it if UCX did at
     * once.
     */
    private int issue(final Descriptor descriptor, final AtomicBuffer buffer, final int offset,
        final long remoteAddress, final long remoteKey)
    {
        final AtomicBuffer fields = descriptor.buffer();
        if (0 != (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) && null == buffer.byteArray() &&
            null == fields.byteArray())
        {
            return add(descriptor, fields.addressOffset() + DescriptorLayout.COMPARE_OR_ADD_OFFSET,
                buffer.addressOffset() + offset, remoteAddress, remoteKey);
        }
        final long request = issuer.atomic(0, descriptor, remoteAddress, remoteKey);
        if (0 == request)
        {
            buffer.putLong(offset, queue.atomicResult(0));
            vi.completeSend(descriptor, STATUS, 8);
            return COMPLETED;
        }
        queue.take(0, descriptor);
        queue.resultTo(0, buffer, offset);
        queue.issuing(0, STATUS, 8);
        queue.requests[0] = request;
        queue.checkIssued(0, "RDMA", inbox, peerViId);
        return IN_SLOT_ZERO;
    }

    /**
     * Issues a checked fetch-and-add with its operand read from {@code operand} and its result written to
     * {@code result} by UCX, and completes it if UCX did at once.
     */
    private int add(final Descriptor descriptor, final long operand, final long result, final long remoteAddress,
        final long remoteKey)
    {
        UnsafeApi.putLong(null, addReplyBufferAddress, result);
        final long request = Ucp.atomic(dataEndpoint, Ucp.ATOMIC_ADD, operand, remoteAddress, remoteKey, addParam);
        if (0 == request)
        {
            vi.completeSend(descriptor, STATUS, 8);
            return COMPLETED;
        }
        queue.take(0, descriptor);
        queue.resultPending[0] = false;
        queue.issuing(0, STATUS, 8);
        queue.requests[0] = request;
        queue.checkIssued(0, "RDMA", inbox, peerViId);
        return IN_SLOT_ZERO;
    }
}
