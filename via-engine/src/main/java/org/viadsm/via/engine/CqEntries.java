package org.viadsm.via.engine;

import org.viadsm.via.AsyncError;

/**
 * Appends completion entries to a NIC's completion queue, wherever the completer runs, and reports lost ones: one
 * {@link AsyncError#COMPLETION_PROTECTION} on that NIC per overrun (until its consumer takes an entry again), however
 * many completions the overrun loses.
 */
final class CqEntries
{
    private CqEntries()
    {
    }

    /**
     * Appends {@code count} completions of one work queue of a VI.
     *
     * @param nic         the NIC owning the queue and the VI.
     * @param cqId        the completion queue.
     * @param viId        the VI.
     * @param recvQueue   whether the completions are of the receive queue.
     * @param incarnation the incarnation of the VI's record they belong to.
     * @param count       how many.
     */
    static void post(
        final PeerNic nic, final int cqId, final int viId, final boolean recvQueue, final int incarnation,
        final int count)
    {
        final CqRing cq = nic.cq(cqId);
        if (null == cq)
        {
            return;
        }
        final long entry = CqLayout.entry(viId, recvQueue, incarnation);
        int lost = 0;
        for (int i = 0; i < count; i++)
        {
            if (!cq.offer(entry))
            {
                lost++;
            }
        }
        if (lost > 0 && cq.markOverrun())
        {
            nic.area().errors().offer(AsyncError.COMPLETION_PROTECTION, viId, (recvQueue ? "receive" : "send") +
                " completion queue " + cqId + " is full (capacity " + cq.capacity() + "): completions of VI " +
                viId + " are lost until it is drained");
        }
    }
}
