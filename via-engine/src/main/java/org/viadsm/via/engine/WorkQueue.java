package org.viadsm.via.engine;

import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorOwnership;
import org.viadsm.via.descriptor.DescriptorStatus;

/**
 * One of a VI's two work queues, after VIA: its descriptors in posting order from post until a done or wait call
 * hands them back, completed, and the wait of the thread that takes them.
 * <p>
 * <b>Note:</b> not thread-safe: one thread at a time calls into a work queue, as VIPL asks; {@link #cancel()} may
 * be called by any thread.
 */
abstract class WorkQueue
{
    final EngineNic nic;
    final EngineVi vi;
    final EngineCq cq;
    final DescriptorFifo fifo;
    final WaitSlot slot;
    private final Idler idler;
    private final String name;
    // the NIC's, kept here so that a call reaches them in one load
    final CallGate gate;
    private final Housekeeper housekeeper;
    private final CallGate.Counter inside;
    // the count of calls into this queue, for the clock reads of housekeeping; plain: a lost increment only moves a
    // clock read
    private int calls;

    WorkQueue(
        final EngineNic nic, final EngineVi vi, final EngineCq cq, final long startIndex, final WaitSlot slot,
        final String name, final CallGate.Counter inside)
    {
        this.nic = nic;
        this.gate = nic.gate();
        this.housekeeper = nic.housekeeper();
        this.inside = inside;
        this.vi = vi;
        this.cq = cq;
        this.fifo = new DescriptorFifo(nic.attributes().maxDescriptorsPerQueue(), startIndex);
        this.slot = slot;
        this.idler = new Idler(nic);
        this.name = name;
    }

    /**
     * Takes the oldest descriptor back if it is complete.
     *
     * @return the descriptor, or null.
     */
    abstract Descriptor take();

    /**
     * The operation bits of a descriptor this queue flushes.
     *
     * @return a {@code DescriptorStatus.OP_*} value.
     */
    abstract int flushedOpStatus();

    /**
     * Enters a call into this queue: counts it on the queue's own counter of the NIC's calls (the caller leaves with
     * {@link #exit()} in a finally) and does the NIC's housekeeping.
     *
     * @throws IllegalStateException if the NIC is closed.
     */
    final void enter()
    {
        gate.enter(inside);
        try
        {
            housekeeper.onCall(++calls);
        }
        catch (final Throwable ex)
        {
            gate.exit(inside);
            throw ex;
        }
    }

    /**
     * Leaves a call into this queue.
     */
    final void exit()
    {
        gate.exit(inside);
    }

    /**
     * A done call: the oldest descriptor if it is complete, after letting the transport make progress once if it
     * is not.
     *
     * @return the descriptor, or null.
     */
    final Descriptor done()
    {
        final Descriptor descriptor = take();
        return null != descriptor || fifo.isEmpty() || 0 == nic.transport().progress(false) ? descriptor : take();
    }

    /**
     * A wait call: the oldest descriptor once it completes.
     *
     * @param timeoutNs longest wait.
     * @return the descriptor, or null if the wait timed out, was interrupted, or the queue or NIC closed.
     */
    final Descriptor await(final long timeoutNs)
    {
        Descriptor descriptor = take();
        if (null != descriptor || fifo.isEmpty() || nic.isClosed())
        {
            return descriptor;
        }
        idler.start(timeoutNs);
        do
        {
            descriptor = take();
            if (null != descriptor)
            {
                idler.finish();
                housekeeper.onCall(++calls);
                return descriptor;
            }
        }
        while (idler.idle(slot));
        return null;
    }

    /**
     * Checks that the queue may be posted to.
     *
     * @throws IllegalStateException if it is full.
     */
    final void checkNotFull()
    {
        if (fifo.isFull())
        {
            throw new IllegalStateException(name + " queue of VI " + vi.id() + " is full: " +
                nic.attributes().maxDescriptorsPerQueue() + " descriptors not yet taken back");
        }
    }

    /**
     * Checks that completions are taken from this queue, not from its completion queue.
     *
     * @throws IllegalStateException if the queue is attached to a completion queue.
     */
    final void checkNoCq()
    {
        if (null != cq)
        {
            throw new IllegalStateException("the " + name + " queue of VI " + vi.id() + " is attached to " +
                "completion queue " + cq.id() + ": take completions from the queue, then use " + name + "Done()");
        }
    }

    /**
     * Ends the wait in progress for good, for a VI being destroyed.
     */
    final void cancel()
    {
        idler.cancel();
    }

    /**
     * Hands back every descriptor, those not complete as flushed.
     */
    final void returnAll()
    {
        Descriptor descriptor;
        while (null != (descriptor = fifo.poll()))
        {
            if (!descriptor.isDone())
            {
                DescriptorOwnership.complete(descriptor, DescriptorStatus.DESC_FLUSHED_ERROR | flushedOpStatus(), 0);
            }
            DescriptorOwnership.giveBack(descriptor);
        }
    }
}
