package org.viadsm.via.engine;

import java.util.concurrent.atomic.AtomicLong;

import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorOwnership;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;

/**
 * A VI's receive queue: a posted descriptor's segments go into the VI's receive ring in the NIC's shared area,
 * where a peer's Send claims and completes the entry; descriptors are taken back in posting order, their status
 * read from the ring. Its waits sleep until a completer wakes them: the ring's sleeper word lets completers in other
 * processes ring the waiter's bell.
 * <p>
 * <b>Note:</b> not thread-safe: one thread at a time posts and takes back.
 */
final class RecvQueue extends WorkQueue
{
    private final ViRecord record;
    private final RecvRing ring;
    private final AtomicLong taken;

    RecvQueue(final EngineNic nic, final EngineVi vi, final EngineCq cq, final ViRecord record, final RecvRing ring)
    {
        super(nic, vi, cq, record.recvProducerIndex(), new WaitSlot(nic.area().buffer(), record.recvSleeperOffset()),
            "receive", nic.gate().recvQueue(vi.id()));
        this.record = record;
        this.ring = ring;
        this.taken = new AtomicLong(record.recvProducerIndex());
    }

    /**
     * Posts a descriptor, as {@code VipPostRecv} does; in the error state it completes flushed at once.
     *
     * @param descriptor the descriptor, owned by the NIC until taken back.
     * @throws IllegalArgumentException if it says it has more segments than it holds.
     * @throws IllegalStateException    if the queue is full.
     */
    void post(final Descriptor descriptor)
    {
        final int count = descriptor.segments().count();
        if (count > descriptor.maxSegments())
        {
            throw new IllegalArgumentException("receive descriptor says it has " + count + " data segments but holds " +
                descriptor.maxSegments());
        }
        checkNotFull();
        DescriptorOwnership.post(descriptor);
        final long index = fifo.tailIndex();
        fifo.add(descriptor);
        ring.post(index, descriptor);
        if (STATE_ERROR == record.state())
        {
            RecvCompletion.flush(nic.self(), record, ring);
        }
    }

    /**
     * The ring index up to which the VI's thread has taken completed receives back.
     *
     * @return the index.
     */
    long taken()
    {
        return taken.get();
    }

    @Override
    Descriptor take()
    {
        final Descriptor descriptor = fifo.peek();
        if (null == descriptor)
        {
            return null;
        }
        final long index = fifo.headIndex();
        int status = ring.status(index);
        if (0 == status)
        {
            if (STATE_ERROR != record.state())
            {
                return null;
            }
            RecvCompletion.flush(nic.self(), record, ring);
            status = ring.status(index);
            if (0 == status)
            {
                return null;
            }
        }
        fifo.poll();
        if ((status & DescriptorStatus.IMMEDIATE) != 0)
        {
            DescriptorOwnership.complete(descriptor, status, ring.length(index), ring.immediate(index));
        }
        else
        {
            DescriptorOwnership.complete(descriptor, status, ring.length(index));
        }
        taken.lazySet(index + 1);
        DescriptorOwnership.giveBack(descriptor);
        return descriptor;
    }

    @Override
    int flushedOpStatus()
    {
        return DescriptorStatus.OP_RECEIVE;
    }
}
