package org.viadsm.via.engine;

import java.lang.invoke.VarHandle;

import org.viadsm.via.CompletionQueue;
import org.viadsm.via.NicAttributes;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * The VIs and completion queues of a NIC, by id: made in the first free slot of their record in the NIC's area,
 * destroyed, and looked up, with the checks of the VIPL calls that make them.
 * <p>
 * <b>Note:</b> changes happen under the NIC's lock; {@link #viAt(int)} and {@link #cqAt(int)} may be called by any
 * thread (a completer looking for a waiter to wake sees a queue made or destroyed a moment ago, or not).
 */
final class QueueTable
{
    private final EngineNic nic;
    private final Object lock;
    private final PtagTable ptags;
    private final EngineVi[] vis;
    private final EngineCq[] cqs;
    // the wait slots of the VIs' receive queues and of the completion queues, by id, for completers: reaching them
    // through the queue objects would read lines their owners write on every call
    private final WaitSlot[] recvSlots;
    private final WaitSlot[] cqSlots;

    QueueTable(final EngineNic nic, final Object lock, final PtagTable ptags, final int maxVis, final int maxCqs)
    {
        this.nic = nic;
        this.lock = lock;
        this.ptags = ptags;
        this.vis = new EngineVi[maxVis];
        this.cqs = new EngineCq[maxCqs];
        this.recvSlots = new WaitSlot[maxVis];
        this.cqSlots = new WaitSlot[maxCqs];
    }

    EngineVi viAt(final int viId)
    {
        return viId >= 0 && viId < vis.length ? vis[viId] : null;
    }

    EngineCq cqAt(final int cqId)
    {
        return cqId >= 0 && cqId < cqs.length ? cqs[cqId] : null;
    }

    /**
     * Wakes the threads asleep on a VI's receive queue and on a completion queue, after a full fence (see
     * {@link WaitSlot}).
     *
     * @param viId the VI id.
     * @param cqId the completion-queue id, or -1 for none.
     */
    void wakeReceivers(final int viId, final int cqId)
    {
        VarHandle.fullFence();
        final WaitSlot viSlot = viId >= 0 && viId < recvSlots.length ? recvSlots[viId] : null;
        if (null != viSlot)
        {
            viSlot.wakeArmed();
        }
        final WaitSlot cqSlot = cqId >= 0 && cqId < cqSlots.length ? cqSlots[cqId] : null;
        if (null != cqSlot)
        {
            cqSlot.wakeArmed();
        }
    }

    /**
     * Under the NIC's lock: makes a completion queue in the first free slot.
     */
    EngineCq createCq(final int capacity)
    {
        final NicAttributes attributes = nic.attributes();
        if (capacity < 1 || capacity > attributes.maxCqEntries())
        {
            throw new IllegalArgumentException("completion queue capacity must be in [1, " +
                attributes.maxCqEntries() + "]: capacity=" + capacity);
        }
        for (int id = 0; id < cqs.length; id++)
        {
            if (null == cqs[id])
            {
                final NicArea area = nic.area();
                final long stallTimeoutNs = nic.context().waits().producerStallTimeoutNs();
                final EngineCq cq = new EngineCq(nic, id,
                    new CqRing(area.buffer(), area.geometry(), id, stallTimeoutNs), capacity);
                cqs[id] = cq;
                cqSlots[id] = cq.slot();
                return cq;
            }
        }
        throw new ViaException(ViaError.ERROR_RESOURCE, "NIC " + nic.address() + " has all its " + cqs.length +
            " completion queues in use");
    }

    /**
     * Under the NIC's lock: makes a VI in the first free slot.
     */
    EngineVi createVi(final ViAttributes attributes, final CompletionQueue sendCq, final CompletionQueue recvCq)
    {
        checkViAttributes(attributes);
        final EngineCq send = ownCq(sendCq);
        final EngineCq recv = ownCq(recvCq);
        for (int id = 0; id < vis.length; id++)
        {
            if (null == vis[id])
            {
                final int ptag = ptags.acquire(attributes.ptag());
                final EngineVi vi = new EngineVi(nic, id, attributes, ptag, send, recv);
                vis[id] = vi;
                recvSlots[id] = vi.recvQueue().slot;
                if (null != send)
                {
                    send.addUser();
                }
                if (null != recv)
                {
                    recv.addUser();
                }
                return vi;
            }
        }
        throw new ViaException(ViaError.ERROR_RESOURCE, "NIC " + nic.address() + " has all its " + vis.length +
            " VIs in use");
    }

    /**
     * A VI of this NIC, checked.
     *
     * @throws IllegalArgumentException if it is not a live VI of this NIC.
     */
    EngineVi ownVi(final Vi vi)
    {
        if (!(vi instanceof EngineVi) || ((EngineVi)vi).nic() != nic || ((EngineVi)vi).isClosed())
        {
            throw new IllegalArgumentException("VI is not a live VI of " + nic.address() + ": " + vi);
        }
        return (EngineVi)vi;
    }

    void destroyVi(final EngineVi vi)
    {
        synchronized (lock)
        {
            if (vis[vi.id()] != vi)
            {
                return;
            }
            vi.record().state(ViRecordLayout.STATE_FREE);
            vis[vi.id()] = null;
            recvSlots[vi.id()] = null;
            if (null != vi.sendCqInternal())
            {
                vi.sendCqInternal().removeUser();
            }
            if (null != vi.recvCqInternal())
            {
                vi.recvCqInternal().removeUser();
            }
            ptags.release(vi.ptagValue());
        }
    }

    void destroyCq(final EngineCq cq)
    {
        synchronized (lock)
        {
            if (cq.isClosed())
            {
                return;
            }
            cq.markClosed();
        }
        cq.release();
        synchronized (lock)
        {
            if (cqs[cq.id()] == cq)
            {
                cqs[cq.id()] = null;
                cqSlots[cq.id()] = null;
            }
        }
    }

    /**
     * The NIC is closing: every VI is destroyed (its waiters woken first) and every completion queue marked
     * destroyed.
     */
    void closeAll()
    {
        for (final EngineVi vi : vis.clone())
        {
            if (null != vi)
            {
                vi.wakeWaiters();
                vi.destroy();
            }
        }
        synchronized (lock)
        {
            for (int id = 0; id < cqs.length; id++)
            {
                final EngineCq cq = cqs[id];
                if (null != cq)
                {
                    cq.wake();
                    cq.markClosed();
                    cqs[id] = null;
                    cqSlots[id] = null;
                }
            }
        }
    }

    private void checkViAttributes(final ViAttributes viAttributes)
    {
        if (null == viAttributes)
        {
            throw new IllegalArgumentException("VI attributes are null");
        }
        final NicAttributes attributes = nic.attributes();
        final ReliabilityLevel level = viAttributes.reliabilityLevel();
        if (null == level || !attributes.reliabilityLevels().contains(level))
        {
            throw new IllegalArgumentException("reliability level not supported by " + nic.address() + ": " + level);
        }
        if (!level.allowsRdmaRead() && viAttributes.enableRdmaRead())
        {
            throw new IllegalArgumentException(
                "RDMA Read is not available at the " + level + " level: disable enableRdmaRead");
        }
        final int maxTransfer = viAttributes.maxTransferSize();
        if (maxTransfer < 1 || maxTransfer > attributes.maxTransferSize())
        {
            throw new IllegalArgumentException("maxTransferSize must be in [1, " + attributes.maxTransferSize() +
                "]: maxTransferSize=" + maxTransfer);
        }
        if (null == viAttributes.ptag())
        {
            throw new IllegalArgumentException("VI attributes have no protection tag");
        }
    }

    private EngineCq ownCq(final CompletionQueue cq)
    {
        if (null == cq)
        {
            return null;
        }
        if (!(cq instanceof EngineCq) || ((EngineCq)cq).nic() != nic || ((EngineCq)cq).isClosed())
        {
            throw new IllegalArgumentException(
                "completion queue is not a live queue of " + nic.address() + ": " + cq);
        }
        return (EngineCq)cq;
    }
}
