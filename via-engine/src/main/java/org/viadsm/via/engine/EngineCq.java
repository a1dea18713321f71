package org.viadsm.via.engine;

import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;

/**
 * A completion queue of an {@link EngineNic}, over a {@link CqRing} of the NIC's shared area, so that initiators
 * completing receives on this NIC can append to it directly.
 */
final class EngineCq implements CompletionQueue
{
    private final EngineNic nic;
    private final int id;
    private final CqRing ring;
    private final WaitSlot slot;
    private final Idler idler;
    private final CallGate.Counter inside;
    private int users;
    // the count of calls into this queue, for the clock reads of housekeeping; plain: a lost increment only
    // moves a clock read
    private int calls;
    private volatile boolean closed;

    EngineCq(final EngineNic nic, final int id, final CqRing ring, final int capacity)
    {
        this.nic = nic;
        this.id = id;
        this.ring = ring;
        this.idler = new Idler(nic);
        this.inside = nic.gate().cq(id);
        this.slot = new WaitSlot(nic.area().buffer(), ring.sleeperOffset());
        ring.clear();
        ring.capacity(capacity);
    }

    int id()
    {
        return id;
    }

    EngineNic nic()
    {
        return nic;
    }

    CqRing ring()
    {
        return ring;
    }

    boolean isClosed()
    {
        return closed;
    }

    void addUser()
    {
        users++;
    }

    void removeUser()
    {
        users--;
    }

    WaitSlot slot()
    {
        return slot;
    }

    void wake()
    {
        slot.wake();
    }

    @Override
    public int capacity()
    {
        enter();
        try
        {
            return ring.capacity();
        }
        finally
        {
            nic.gate().exit(inside);
        }
    }

    @Override
    public void resize(final int capacity)
    {
        enter();
        try
        {
            resizeRing(capacity);
        }
        finally
        {
            nic.gate().exit(inside);
        }
    }

    private void resizeRing(final int capacity)
    {
        final int max = nic.attributes().maxCqEntries();
        if (capacity < 1 || capacity > max)
        {
            throw new IllegalArgumentException(
                "completion queue capacity must be in [1, " + max + "]: capacity=" + capacity);
        }
        final int queued = ring.size();
        if (capacity < queued)
        {
            throw new IllegalArgumentException(
                "completion queue holds " + queued + " entries, more than the new capacity " + capacity);
        }
        ring.capacity(capacity);
    }

    @Override
    public boolean done(final Completion completion)
    {
        enter();
        try
        {
            nic.housekeeper().onCall(++calls);
            return poll(completion) || 0 != nic.transport().progress(false) && poll(completion);
        }
        finally
        {
            nic.gate().exit(inside);
        }
    }

    @Override
    public boolean await(final long timeoutNs, final Completion completion)
    {
        enter();
        try
        {
            nic.housekeeper().onCall(++calls);
            return poll(completion) || awaitEntry(timeoutNs, completion);
        }
        finally
        {
            nic.gate().exit(inside);
        }
    }

    private boolean awaitEntry(final long timeoutNs, final Completion completion)
    {
        idler.start(timeoutNs);
        while (true)
        {
            if (poll(completion))
            {
                idler.finish();
                nic.housekeeper().onCall(++calls);
                return true;
            }
            if (!idler.idle(slot))
            {
                return false;
            }
        }
    }

    @Override
    public void close()
    {
        if (closed || !nic.enterCall())
        {
            return;
        }
        try
        {
            nic.queues().destroyCq(this);
        }
        finally
        {
            nic.exitCall();
        }
    }

    /**
     * Under the NIC's lock: marks the queue destroyed, so that calls fail from now on.
     */
    void markClosed()
    {
        if (users > 0)
        {
            throw new IllegalStateException("completion queue " + id + " is still used by " + users + " VIs");
        }
        closed = true;
    }

    /**
     * After {@link #markClosed()}, outside the NIC's lock: ends a wait in progress and empties the ring.
     */
    void release()
    {
        idler.cancel();
        ring.clear();
    }

    @Override
    public String toString()
    {
        if (closed || !nic.enterCall())
        {
            return "CompletionQueue{id=" + id + ", destroyed}";
        }
        try
        {
            return "CompletionQueue{id=" + id + ", capacity=" + ring.capacity() + ", queued=" + ring.size() + '}';
        }
        finally
        {
            nic.exitCall();
        }
    }

    private boolean poll(final Completion completion)
    {
        long entry;
        while (0 != (entry = ring.poll()))
        {
            final EngineVi vi = nic.queues().viAt(CqLayout.viId(entry));
            if (null != vi && CqLayout.isOf(entry, vi.record().incarnation()))
            {
                completion.set(vi, CqLayout.isRecvQueue(entry));
                return true;
            }
        }
        return false;
    }

    /**
     * Enters a call of this queue: checks it is not destroyed and counts the call on the queue's own counter of the
     * NIC's calls; the caller leaves with {@code nic.gate().exit(inside)} in a finally.
     */
    private void enter()
    {
        checkOpen();
        nic.gate().enter(inside);
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("completion queue " + id + " is destroyed");
        }
    }
}
