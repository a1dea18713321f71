package org.viadsm.via.engine;

import org.viadsm.via.AsyncError;
import org.viadsm.via.descriptor.DescriptorStatus;

/**
 * Completes receive-ring entries of a NIC, wherever the completer runs: writes the entry, announces it on the
 * VI's receive completion queue if it has one (reporting {@link AsyncError#COMPLETION_PROTECTION} on that NIC once
 * per overrun if the queue is full), and wakes the NIC's waiters if they sleep
 * ({@link PeerNic#wakeReceivers(int, int)}).
 */
final class RecvCompletion
{
    /** Status of a receive flushed unexecuted. */
    static final int FLUSHED_STATUS =
        DescriptorStatus.DONE | DescriptorStatus.DESC_FLUSHED_ERROR | DescriptorStatus.OP_RECEIVE;

    private RecvCompletion()
    {
    }

    /**
     * Completes a claimed entry and announces it.
     *
     * @param nic       the NIC owning the VI.
     * @param vi        the VI's record.
     * @param ring      the VI's receive ring.
     * @param index     the claimed entry.
     * @param status    status bits, {@code DONE} included.
     * @param length    bytes received.
     * @param immediate immediate data received.
     */
    static void complete(
        final PeerNic nic,
        final ViRecord vi,
        final RecvRing ring,
        final long index,
        final int status,
        final int length,
        final int immediate)
    {
        complete(nic, vi, ring, index, status, length, immediate, vi.incarnation());
    }

    /**
     * Completes a claimed entry and announces it as a completion of the VI's incarnation {@code incarnation}: the one
     * the completer connected to, so that a completion reaching a record reused since is not reported for its new VI.
     *
     * @param nic         the NIC owning the VI.
     * @param vi          the VI's record.
     * @param ring        the VI's receive ring.
     * @param index       the claimed entry.
     * @param status      status bits, {@code DONE} included.
     * @param length      bytes received.
     * @param immediate   immediate data received.
     * @param incarnation the record's incarnation when the completer connected.
     */
    static void complete(
        final PeerNic nic,
        final ViRecord vi,
        final RecvRing ring,
        final long index,
        final int status,
        final int length,
        final int immediate,
        final int incarnation)
    {
        ring.complete(index, status, length, immediate);
        announce(nic, vi, 1, incarnation);
    }

    /**
     * Flushes every posted entry nobody has claimed: each completes with {@link #FLUSHED_STATUS}.
     *
     * @param nic  the NIC owning the VI.
     * @param vi   the VI's record.
     * @param ring the VI's receive ring.
     * @return the number flushed.
     */
    static int flush(final PeerNic nic, final ViRecord vi, final RecvRing ring)
    {
        int flushed = 0;
        long index;
        while ((index = ring.claim()) >= 0)
        {
            ring.complete(index, FLUSHED_STATUS, 0, 0);
            flushed++;
        }
        if (flushed > 0)
        {
            announce(nic, vi, flushed, vi.incarnation());
        }
        return flushed;
    }

    /**
     * Completes, as flushed, every claimed entry from {@code fromIndex} whose completer died before writing it. Call
     * only once the peer that claims this VI's entries is known dead ({@link PeerNic#hasDied()}): a live completer
     * may still be writing an entry it claimed.
     *
     * @param nic       the NIC owning the VI.
     * @param vi        the VI's record.
     * @param ring      the VI's receive ring.
     * @param fromIndex the oldest entry the owner has not taken back.
     * @return the number completed.
     */
    static int flushAbandoned(final PeerNic nic, final ViRecord vi, final RecvRing ring, final long fromIndex)
    {
        int flushed = 0;
        final long consumer = vi.recvConsumerIndex();
        for (long index = fromIndex; index < consumer; index++)
        {
            if (ring.forceComplete(index, FLUSHED_STATUS))
            {
                flushed++;
            }
        }
        if (flushed > 0)
        {
            announce(nic, vi, flushed, vi.incarnation());
        }
        return flushed;
    }

    /**
     * Wakes whoever may wait for the VI's receives: its receive completion queue's waiter and its own.
     *
     * @param nic the NIC owning the VI.
     * @param vi  the VI's record.
     */
    static void wake(final PeerNic nic, final ViRecord vi)
    {
        nic.wakeReceivers(vi.viId(), vi.recvCqId());
    }

    private static void announce(final PeerNic nic, final ViRecord vi, final int count, final int incarnation)
    {
        final int cqId = vi.recvCqId();
        if (cqId >= 0)
        {
            CqEntries.post(nic, cqId, vi.viId(), true, incarnation, count);
        }
        wake(nic, vi);
    }
}
