package org.viadsm.via.provider.ucx;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * The ucx NICs open in this process, each in a slot whose number UCX hands back to the active-message handlers
 * (their {@code arg}), and through which a thread making progress on one NIC makes progress on the others.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class UcxNics
{
    private static final AtomicReferenceArray<UcxTransport> NICS = new AtomicReferenceArray<>(4096);
    private static final Set<Integer> SLOTS = ConcurrentHashMap.newKeySet();

    private static volatile int highestSlot;

    private UcxNics()
    {
    }

    /**
     * Claims a free slot.
     *
     * @return its number, from 1.
     * @throws ViaException if every slot is taken.
     */
    static int claim()
    {
        for (int i = 1; i < NICS.length(); i++)
        {
            if (null == NICS.get(i) && SLOTS.add(i))
            {
                synchronized (SLOTS)
                {
                    highestSlot = Math.max(highestSlot, i);
                }
                return i;
            }
        }
        throw new ViaException(ViaError.ERROR_RESOURCE, "too many ucx NICs open in this process");
    }

    /**
     * Makes a NIC reachable through its slot.
     */
    static void publish(final int slot, final UcxTransport nic)
    {
        NICS.set(slot, nic);
    }

    /**
     * Makes a closing NIC unreachable; its slot stays claimed until {@link #release}.
     */
    static void withdraw(final int slot)
    {
        NICS.set(slot, null);
    }

    static void release(final int slot)
    {
        SLOTS.remove(slot);
    }

    /**
     * The NIC in a slot.
     *
     * @return the NIC, or null if none is open there.
     */
    static UcxTransport get(final int slot)
    {
        return slot > 0 && slot < NICS.length() ? NICS.get(slot) : null;
    }

    /**
     * Runs UCX's progress on the worker of every NIC of this process but one, each while it cannot close, and
     * nothing of those NICs' own: what UCX's callbacks queue is handled by those NICs' next progress. For a wait
     * inside one NIC's progress (its connector's lock held) on an operation another NIC of this process must serve:
     * over UCX's tcp transport, a put's target takes it only while its worker progresses.
     *
     * @return the events UCX handled.
     */
    static int progressOtherWorkers(final UcxTransport self)
    {
        return visitOthers(self, true);
    }

    /**
     * Makes progress on every NIC of this process but one, each while it cannot close.
     *
     * @return the work done.
     */
    static int progressOthers(final UcxTransport self)
    {
        return visitOthers(self, false);
    }

    private static int visitOthers(final UcxTransport self, final boolean workerOnly)
    {
        int work = 0;
        for (int i = 1; i <= highestSlot; i++)
        {
            final UcxTransport other = NICS.get(i);
            if (null != other && other != self && other.enterVisit())
            {
                try
                {
                    work += workerOnly ? other.progressWorker() : other.progressOwn();
                }
                finally
                {
                    other.leaveVisit();
                }
            }
        }
        return work;
    }
}
