package org.viadsm.via.engine;

import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorOwnership;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * A VI's send queue: a posted descriptor executes at once on the posting thread when the peer's area is reachable
 * ({@link Initiator}), or goes to the connection's {@link ViTransport}, which completes it later; descriptors
 * complete, and are taken back, in posting order. Its waits poll: completions come from the posting thread or the
 * transport's, which do not fence before looking for a sleeper.
 * <p>
 * <b>Note:</b> not thread-safe: one thread at a time posts and takes back.
 */
final class SendQueue extends WorkQueue
{
    private final ViConnection connection;
    private final ViRecord record;
    private final Initiator initiator;

    SendQueue(final EngineNic nic, final EngineVi vi, final EngineCq cq, final ViConnection connection)
    {
        super(nic, vi, cq, 0, new WaitSlot(), "send", nic.gate().sendQueue(vi.id()));
        this.connection = connection;
        this.record = connection.record();
        this.initiator = new Initiator(nic, connection);
    }

    /**
     * Posts a descriptor, as {@code VipPostSend} does.
     *
     * @param descriptor the descriptor, owned by the NIC until taken back.
     * @throws IllegalStateException if the VI is not connected or the queue is full.
     */
    void post(final Descriptor descriptor)
    {
        final int state = record.state();
        if (STATE_IDLE == state || STATE_CONNECT_PENDING == state)
        {
            throw new IllegalStateException("VI " + vi.id() + " of " + nic.address() + " is not connected: " +
                ViRecordLayout.viState(state));
        }
        checkNotFull();
        DescriptorOwnership.post(descriptor);
        fifo.add(descriptor);
        final ViTransport link = connection.transport();
        if (null != link)
        {
            link.post(descriptor);
        }
        else
        {
            initiator.execute(descriptor);
        }
    }

    /**
     * Completes a descriptor (they complete in posting order), announces it on the send completion queue if there
     * is one, and wakes a waiter.
     *
     * @param descriptor the oldest descriptor not yet completed.
     * @param status     status bits.
     * @param length     bytes transferred.
     */
    void complete(final Descriptor descriptor, final int status, final int length)
    {
        DescriptorOwnership.complete(descriptor, status, length);
        if (null != cq)
        {
            CqEntries.post(nic.self(), cq.id(), vi.id(), false, record.incarnation(), 1);
            cq.wake();
        }
        slot.wake();
    }

    /**
     * Takes the oldest descriptor back if it completed without an error, outside a counted call: the FIFO is this
     * queue's and the descriptor the caller's memory, so nothing here touches memory the NIC's close releases, and a
     * done or wait call that finds its descriptor complete (a transport that completes on the posting thread, or a
     * completion that came while the caller worked) pays neither the gate's fence nor the housekeeping. A
     * descriptor that completed in error is left to the counted call, whose housekeeping delivers the asynchronous
     * error that may come with it before the caller sees the descriptor. Nothing is taken once the NIC is closed.
     *
     * @return the descriptor, or null.
     */
    Descriptor takeCompleted()
    {
        final Descriptor descriptor = gate.isClosed() ? null : fifo.peek();
        if (null == descriptor)
        {
            return null;
        }
        final int status = descriptor.status();
        if (!DescriptorStatus.isDone(status) || DescriptorStatus.isError(status))
        {
            return null;
        }
        fifo.dropHead();
        DescriptorOwnership.giveBack(descriptor);
        return descriptor;
    }

    @Override
    Descriptor take()
    {
        final Descriptor descriptor = fifo.peek();
        if (null == descriptor || !descriptor.isDone())
        {
            return null;
        }
        fifo.poll();
        DescriptorOwnership.giveBack(descriptor);
        return descriptor;
    }

    @Override
    int flushedOpStatus()
    {
        return DescriptorStatus.OP_SEND;
    }
}
