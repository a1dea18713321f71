package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
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
 * The initiator side of a {@link UcxLink}: its send queue in posting order. RDMA Write is a put (and a flush at
 * the reliable-reception level), RDMA Read a get, atomics {@code ucp_atomic_op_nbx}, all one-sided and checked here
 * against the peer's {@link RegistrationMirror}; a Send and an RDMA Write with immediate data are active messages,
 * which the peer's engine code performs ({@link TargetAccess}) when it makes progress, and acknowledges at the
 * reliable-reception level. UCX orders neither puts against gets, atomics and active messages nor its lanes against
 * each other, so an active message, a get or an atomic leaves only once the puts before it are in the peer's
 * memory (a flush of the unflushed ones, the completion of those flushed with their put), or, over the transports
 * where that orders them ({@link UcxConfiguration#fenceOrdersPuts()}), after a fence; and a get or an atomic
 * also only once the acknowledged messages before it were performed: operations to one peer take effect in the
 * order they were posted, as on the other providers. Descriptors complete in posting order; a fenced one is issued
 * once earlier reads and atomics are done.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class LinkSendQueue
{
    private final UcxLink link;
    private final UcxTransport nic;
    private final ViConnection vi;
    private final ReliabilityLevel reliability;
    private final int peerViId;
    private final int peerPtag;
    private final int peerFlags;
    private final UcpEndpoint data;
    private final long dataEndpoint;
    private final RegistrationMirror mirror;
    private final LocalAccess localAccess;
    private final SegmentList local;
    private final SendSlots queue;
    private final MemorySegment bytesParam;
    private final LinkInbox inbox;
    private final OperationIssuer issuer;
    private final IdleAtomic idleAtomic;
    private final PutOrder puts;
    private long head;
    private long issued;
    private long tail;
    private long lastReadLike = -1;
    private long lastAcknowledgedMessage = -1;
    private int nextSequence;
    private boolean broken;
    private String refusal;
    private AsyncError refusalError;

    /**
     * The send queue of a link.
     *
     * @param link         the link, which the VI and the publisher of the registrations know.
     * @param peer         the peer's handshake.
     * @param data         the data endpoint.
     * @param mirror       this side's mirror of the peer's registrations.
     * @param inbox        the link's inbox, where the peer's acknowledgements and failures arrive.
     * @param arena        the link's native memory.
     * @param messageParam the request parameters of active messages, shared with the replies.
     */
    LinkSendQueue(
        final UcxLink link,
        final Handshake peer,
        final UcpEndpoint data,
        final RegistrationMirror mirror,
        final LinkInbox inbox,
        final Arena arena,
        final MemorySegment messageParam)
    {
        this.link = link;
        this.nic = link.transport();
        this.vi = link.vi();
        this.reliability = vi.reliability();
        this.peerViId = peer.viId;
        this.peerPtag = peer.ptag;
        this.peerFlags = peer.flags;
        this.data = data;
        this.dataEndpoint = data.getNativeId();
        this.mirror = mirror;
        this.inbox = inbox;
        this.localAccess = new LocalAccess(nic.nic(), vi);
        this.local = localAccess.local();
        this.queue = new SendSlots(arena, nic.attributes().maxDescriptorsPerQueue(),
            nic.attributes().maxSegmentsPerDescriptor());
        this.bytesParam = SendSlots.bytesParam(arena);
        this.issuer = new OperationIssuer(dataEndpoint, queue, local, bytesParam, messageParam, peerViId,
            peer.token);
        this.puts = new PutOrder(nic.workerHandle(), UcxConfiguration.fenceOrdersPuts());
        this.idleAtomic = new IdleAtomic(vi, localAccess, mirror, data, peer, issuer, queue, inbox, arena);
    }

    /**
     * Posts a descriptor; one posted on an idle queue is issued alone.
     */
    void post(final Descriptor descriptor)
    {
        if (broken)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR |
                LocalAccess.opStatus(descriptor.operation()), 0);
            return;
        }
        if (head == tail)
        {
            if (0 != tail)
            {
                rewind();
            }
            if (DescriptorLayout.OP_ATOMIC == descriptor.operation() && !puts.hasUnflushedWrites() && null == refusal &&
                null == inbox.failure)
            {
                final int outcome = idleAtomic.issue(descriptor);
                if (IdleAtomic.IN_SLOT_ZERO == outcome)
                {
                    tail = 1;
                    issued = 1;
                    lastReadLike = 0;
                    completeAlone(0, descriptor);
                }
                if (IdleAtomic.NOT_TAKEN != outcome)
                {
                    return;
                }
            }
        }
        final int i = (int)tail & queue.mask;
        queue.take(i, descriptor);
        tail++;
        if (head == issued && issued + 1 == tail && !puts.hasUnflushedWrites() && null == refusal)
        {
            issueAlone(i, descriptor);
        }
        else
        {
            issueAndComplete();
        }
    }

    /**
     * Starts an idle queue again at slot 0 (its lines stay in the cache), its marks of earlier reads, flushed puts and
     * acknowledged messages behind the head. Only an issued descriptor, which moves the tail, changes a mark, so a
     * queue whose tail is 0 (its atomics completed inside the post) is rewound already.
     */
    private void rewind()
    {
        head = 0;
        issued = 0;
        tail = 0;
        lastReadLike = -1;
        lastAcknowledgedMessage = -1;
        puts.rewind();
    }

    /**
     * Advances the send queue: completes what UCX finished, issues what waited, breaks the connection if the peer
     * said so or went away.
     *
     * @return work done.
     */
    int poll()
    {
        final String failed = inbox.failure;
        if (null != failed && !broken)
        {
            // a refused operation awaiting its acknowledgement completes with its error first
            queue.advance(head, issued, inbox, reliability, peerViId);
            complete();
            final AsyncError error = inbox.failureError;
            breakLink(null == error ? AsyncError.CONNECTION_LOST : error, failed, false);
        }
        if (head == tail)
        {
            return 0;
        }
        final int work = queue.advance(head, issued, inbox, reliability, peerViId) + issueAndComplete();
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

    boolean isBroken()
    {
        return broken;
    }

    /** This side ends the connection: tells the peer, then breaks the link. */
    void disconnect(final String detail)
    {
        if (!broken)
        {
            inbox.reply(DataHeader.TYPE_BREAK, 0, 0);
            breakLink(null, detail, true);
        }
    }

    /** Frees the UCX requests of the descriptors still in the queue; the link is closing. */
    void freeRequests()
    {
        queue.freeRequests(head, tail);
    }

    /**
     * Issues what waited and completes what finished, again while completions let more be issued: a descriptor
     * that waits for an earlier put or message to complete must not wait for a progress round that may not come.
     *
     * @return descriptors completed.
     */
    private int issueAndComplete()
    {
        int count = 0;
        long before;
        do
        {
            before = head;
            issue();
            count += complete();
        }
        while (head != before && issued < tail);
        return count;
    }

    private void issue()
    {
        while (issued < tail && !broken && null == refusal)
        {
            final int i = (int)issued & queue.mask;
            final Descriptor descriptor = queue.descriptors[i];
            final int op = descriptor.operation();
            if ((descriptor.control() & DescriptorLayout.CONTROL_QUEUE_FENCE) != 0 && lastReadLike >= head)
            {
                return;
            }
            final boolean message = DescriptorLayout.OP_SEND == op ||
                DescriptorLayout.OP_RDMA_WRITE == op && descriptor.hasImmediateData();
            final boolean readLike = DescriptorLayout.OP_RDMA_READ == op || DescriptorLayout.OP_ATOMIC == op;
            if (readLike && lastAcknowledgedMessage >= head || (message || readLike) && puts.awaitsFlushedPut(head))
            {
                return;
            }
            if ((message || readLike) && puts.mustFlush())
            {
                if (SendSlots.AWAIT_FLUSH != queue.states[i])
                {
                    queue.requests[i] = Ucp.flush(dataEndpoint, bytesParam.address());
                    queue.states[i] = SendSlots.AWAIT_FLUSH;
                }
                if (!queue.flushed(i, inbox, peerViId))
                {
                    return;
                }
            }
            if (message || readLike)
            {
                puts.orderPuts();
            }
            issued++;
            final int error = localAccess.check(descriptor, op);
            if (0 != error)
            {
                queue.finish(i, DONE | error | LocalAccess.opStatus(op), 0);
                if (reliability.isReliable())
                {
                    inbox.reply(DataHeader.TYPE_BREAK, 0, 0);
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
            if (0 == queue.requests[i])
            {
                // done at once (a get or put over shared memory is a copy): completes without waiting for progress
                queue.advance(i, inbox, reliability, peerViId);
            }
        }
    }

    /**
     * Issues the descriptor of slot {@code i} posted on an idle queue (nothing to fence or flush before it) and, if
     * UCX completed it at once (a get, put or atomic over shared memory is a copy or a CPU atomic), completes it
     * there: no pass over the queue, no progress round.
     */
    private void issueAlone(final int i, final Descriptor descriptor)
    {
        final int op = descriptor.operation();
        final int error = localAccess.check(descriptor, op);
        if (0 != error)
        {
            localAccess.reset();
            issue();
            complete();
            return;
        }
        issued++;
        if (DescriptorLayout.OP_SEND == op || DescriptorLayout.OP_RDMA_WRITE == op && descriptor.hasImmediateData())
        {
            send(i, descriptor, op);
        }
        else
        {
            oneSided(i, descriptor, op);
        }
        localAccess.reset();
        completeAlone(i, descriptor);
    }

    /**
     * Completes slot {@code i}, issued alone, there if UCX completed it at once; else leaves it to the queue.
     */
    private void completeAlone(final int i, final Descriptor descriptor)
    {
        if (0 == queue.requests[i] && SendSlots.ISSUED == queue.states[i] && null == inbox.failure)
        {
            queue.finishAtOnce(i);
            head++;
            vi.completeSend(descriptor, queue.statuses[i], queue.lengths[i]);
            return;
        }
        if (0 == queue.requests[i])
        {
            queue.advance(i, inbox, reliability, peerViId);
        }
        complete();
    }

    private void send(final int i, final Descriptor descriptor, final int op)
    {
        final boolean ack = ReliabilityLevel.RELIABLE_RECEPTION == reliability;
        final int sequence = nextSequence++;
        queue.sequences[i] = sequence;
        queue.issuing(i, DONE | LocalAccess.opStatus(op), descriptor.length());
        queue.requests[i] = issuer.message(i, descriptor, op, sequence, ack);
        if (ack)
        {
            queue.states[i] = SendSlots.AWAIT_ACK;
            lastAcknowledgedMessage = issued - 1;
        }
        queue.checkIssued(i, "send", inbox, peerViId);
    }

    /**
     * Issues an RDMA operation or an atomic; small enough to be compiled into the post (a refusal is out of line).
     */
    private void oneSided(final int i, final Descriptor descriptor, final int op)
    {
        final int required = TargetAccess.requiredRights(op);
        final boolean atomic = DescriptorLayout.OP_ATOMIC == op;
        final int span = atomic ? 8 : descriptor.length();
        final int check = (peerFlags & required) != required ? RegistrationTable.CHECK_INVALID_HANDLE :
            mirror.resolve(data, descriptor.remoteHandle(), peerPtag, required, descriptor.remoteAddress(), span);
        if (RegistrationTable.CHECK_OK != check)
        {
            refuseUnresolved(i, descriptor, op, required, check, span);
            return;
        }
        queue.issuing(i, DONE | LocalAccess.opStatus(op), span);
        if (atomic)
        {
            queue.resultTo(i, local.buffer(0), local.offset(0));
            queue.requests[i] = issuer.atomic(i, descriptor, mirror.remoteAddress(), mirror.remoteKey());
            lastReadLike = issued - 1;
        }
        else
        {
            transfer(i, op, span);
        }
        queue.checkIssued(i, "RDMA", inbox, peerViId);
    }

    private void transfer(final int i, final int op, final int length)
    {
        final boolean read = DescriptorLayout.OP_RDMA_READ == op;
        final boolean flush = local.count() > 1 && length > local.length(0) ||
            !read && ReliabilityLevel.RELIABLE_RECEPTION == reliability;
        queue.requests[i] = issuer.transfer(read, length, mirror.remoteAddress(), mirror.remoteKey(), flush);
        if (read)
        {
            lastReadLike = issued - 1;
        }
        else
        {
            puts.onPut(issued - 1, flush && !Ucp.isError(queue.requests[i]));
        }
    }

    /**
     * An RDMA operation or atomic the peer's mirror refused, or whose peer VI has RDMA disabled ({@link #refuse}).
     */
    private void refuseUnresolved(final int i, final Descriptor descriptor, final int op, final int required,
        final int check, final int span)
    {
        final int outcome = DescriptorLayout.OP_RDMA_WRITE == op ? TargetAccess.RDMA_WRITE_PROTECTION :
            TargetAccess.RDMA_READ_PROTECTION;
        refuse(i, op, outcome, RegistrationMirror.describeRefusal((peerFlags & required) != required, peerViId, check,
            descriptor, span, vi.remoteAddress()), descriptor.length());
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
            queue.finish(i, DONE | errorBit | opStatus, 0 == errorBit ? length : 0);
            return;
        }
        if (0 == errorBit)
        {
            // reliable delivery: the write completes, the error is reported asynchronously at both ends
            queue.finish(i, DONE | opStatus, length);
            inbox.reply(DataHeader.TYPE_BREAK, 0, outcome);
            breakLink(TargetAccess.asyncError(outcome), detail, true);
            return;
        }
        queue.issuing(i, DONE | errorBit | opStatus, 0 == errorBit ? length : 0);
        queue.sequences[i] = nextSequence++;
        queue.requests[i] = issuer.breakMessage(i, queue.sequences[i], outcome);
        queue.checkIssued(i, "RDMA", inbox, peerViId);
        queue.states[i] = SendSlots.AWAIT_ACK;
        refusal = detail;
        refusalError = TargetAccess.asyncError(outcome);
    }

    private int complete()
    {
        int count = 0;
        while (head < issued && SendSlots.FINISHED == queue.states[(int)head & queue.mask])
        {
            final int i = (int)head & queue.mask;
            final Descriptor descriptor = queue.descriptors[i];
            head++;
            count++;
            vi.completeSend(descriptor, queue.statuses[i], queue.lengths[i]);
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
        vi.onTransportBroken(link, error, detail);
        for (long n = head; n < tail; n++)
        {
            final int i = (int)n & queue.mask;
            if (SendSlots.FINISHED != queue.states[i])
            {
                final int status = n < issued && SendSlots.ISSUED <= queue.states[i] && !local ?
                    DescriptorStatus.TRANSPORT_ERROR :
                    DescriptorStatus.DESC_FLUSHED_ERROR;
                queue.finish(i, DONE | status | LocalAccess.opStatus(queue.descriptors[i].operation()), 0);
            }
        }
        issued = tail;
        complete();
        nic.publisher().unsubscribe(link);
    }
}
