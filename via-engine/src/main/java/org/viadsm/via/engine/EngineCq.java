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
    private final WaitSlot slot = new WaitSlot();
    private final Idler idler;
    private int users;
    private volatile boolean closed;

    EngineCq(final EngineNic nic, final int id, final CqRing ring, final int capacity)
    {
        this.nic = nic;
        this.id = id;
        this.ring = ring;
        this.idler = new Idler(nic);
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

    void wake()
    {
        slot.wake();
    }

    @Override
    public int capacity()
    {
        return ring.capacity();
    }

    @Override
    public void resize(final int capacity)
    {
        checkOpen();
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
        checkOpen();
        nic.onCall();
        return poll(completion) || 0 != nic.progress(false) && poll(completion);
    }

    @Override
    public boolean await(final long timeoutNs, final Completion completion)
    {
        checkOpen();
        nic.onCall();
        if (poll(completion))
        {
            return true;
        }
        if (!nic.enterWait())
        {
            return false;
        }
        try
        {
            idler.start(timeoutNs);
            while (true)
            {
                if (poll(completion))
                {
                    idler.finish();
                    nic.onCall();
                    return true;
                }
                if (!idler.idle(slot))
                {
                    return false;
                }
            }
        }
        finally
        {
            nic.exitWait();
        }
    }

    @Override
    public void close()
    {
        nic.destroyCq(this);
    }

    void markClosed()
    {
        if (users > 0)
        {
            throw new IllegalStateException("completion queue " + id + " is still used by " + users + " VIs");
        }
        closed = true;
        ring.clear();
    }

    @Override
    public String toString()
    {
        return "CompletionQueue{id=" + id + ", capacity=" + ring.capacity() + ", queued=" + ring.size() + '}';
    }

    private boolean poll(final Completion completion)
    {
        long entry;
        while (0 != (entry = ring.poll()))
        {
            final EngineVi vi = nic.viAt(CqLayout.viId(entry));
            if (null != vi)
            {
                completion.set(vi, CqLayout.isRecvQueue(entry));
                return true;
            }
        }
        return false;
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("completion queue " + id + " is destroyed");
        }
    }
}
