package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A NIC as an initiator reaches it: its shared area, its registered memory and a way to wake its waiters. Each
 * provider subclasses it for the NICs it can reach (in the same JVM, in another process on the host); the engine
 * uses a self peer for loopback and local completions.
 * <p>
 * <b>Note:</b> every method may be called by any thread. The flyweights it hands out are created once per record
 * and cached, so the data path allocates nothing after the first operation on a VI or queue.
 */
public abstract class PeerNic implements AutoCloseable
{
    private final String address;
    private final NicArea area;
    private final long nicId;
    private final ViRecord[] records;
    private final RecvRing[] rings;
    private final CqRing[] cqs;

    /**
     * Creates a peer over an attached area.
     *
     * @param address the peer's address.
     * @param area    its shared area.
     */
    protected PeerNic(final String address, final NicArea area)
    {
        this.address = address;
        this.area = area;
        this.nicId = area.nicId();
        this.records = new ViRecord[area.geometry().maxVis()];
        this.rings = new RecvRing[area.geometry().maxVis()];
        this.cqs = new CqRing[area.geometry().maxCqs()];
    }

    /**
     * The peer's address.
     *
     * @return the address.
     */
    public final String address()
    {
        return address;
    }

    /**
     * The peer's shared area.
     *
     * @return the area.
     */
    public final NicArea area()
    {
        return area;
    }

    /**
     * The peer's identity when it was reached.
     *
     * @return the NIC id.
     */
    public final long nicId()
    {
        return nicId;
    }

    /**
     * The flyweight over one of the peer's VI records.
     *
     * @param viId the VI id.
     * @return the cached flyweight.
     * @throws IllegalArgumentException if the id is out of range.
     */
    final ViRecord viRecord(final int viId)
    {
        checkVi(viId);
        ViRecord record = records[viId];
        if (null == record)
        {
            record = area.viRecord(viId);
            records[viId] = record;
        }
        return record;
    }

    /**
     * The flyweight over the receive ring of one of the peer's VIs.
     *
     * @param viId the VI id.
     * @return the cached flyweight.
     * @throws IllegalArgumentException if the id is out of range.
     */
    final RecvRing recvRing(final int viId)
    {
        checkVi(viId);
        RecvRing ring = rings[viId];
        if (null == ring)
        {
            ring = area.recvRing(viId);
            rings[viId] = ring;
        }
        return ring;
    }

    /**
     * The flyweight over one of the peer's completion queues.
     *
     * @param cqId the completion-queue id.
     * @return the cached flyweight, or null if the id is out of range.
     */
    final CqRing cq(final int cqId)
    {
        if (cqId < 0 || cqId >= cqs.length)
        {
            return null;
        }
        CqRing cq = cqs[cqId];
        if (null == cq)
        {
            cq = area.cq(cqId);
            cqs[cqId] = cq;
        }
        return cq;
    }

    /**
     * Takes the bell announced by a thread of the peer asleep on a VI's receive queue, so that exactly one completer
     * rings it per announcement; call after a full fence that follows the completion's publication.
     *
     * @param viId the VI id.
     * @return the bell's id, or -1 if nobody sleeps there.
     */
    protected final int takeRecvSleeper(final int viId)
    {
        return viRecord(viId).takeRecvSleeper();
    }

    /**
     * Takes the bell announced by a thread of the peer asleep on a completion queue, as
     * {@link #takeRecvSleeper(int)} does.
     *
     * @param cqId the completion-queue id, or -1.
     * @return the bell's id, or -1 if nobody sleeps there or the id is out of range.
     */
    protected final int takeCqSleeper(final int cqId)
    {
        final CqRing cq = cq(cqId);
        return null == cq ? -1 : cq.takeSleeper();
    }

    /**
     * Whether the peer's header says it is open: one acquire load, cheap enough for every post.
     *
     * @return true while the peer is open.
     */
    public final boolean isOpen()
    {
        return area.isOpen();
    }

    /**
     * The bytes of a registration of the peer, after its handle passed the registration table's check.
     *
     * @param index      registration-table index.
     * @param generation the handle's generation.
     * @return a buffer covering exactly the region, or null if the memory cannot be reached.
     */
    public abstract AtomicBuffer regionBuffer(int index, int generation);

    /**
     * Whether the peer's owner is still there (its process alive, its NIC not closed); may cost a system call.
     *
     * @return false once the peer is gone.
     */
    public abstract boolean isAlive();

    /**
     * Whether the peer's process is known to be dead, so that none of its threads can still complete a receive it
     * claimed; may cost a system call. The default, for peers living in this process, is false: their threads
     * always finish what they claimed.
     *
     * @return true once the peer's process is gone.
     */
    public boolean hasDied()
    {
        return false;
    }

    /**
     * After receive completions of one of the peer's VIs were published (and announced on its receive completion
     * queue): wakes the peer's threads asleep waiting for them, on the VI's receive queue or on that completion
     * queue, if the provider can. An implementation issues a full fence before it looks for a sleeper (see
     * {@link WaitSlot}), never blocks, and ignores a wake-up it cannot deliver: the sleeper's bounded sleep covers
     * it. The default does nothing.
     *
     * @param viId the VI id.
     * @param cqId the VI's receive completion-queue id, or -1 if it has none.
     */
    public void wakeReceivers(final int viId, final int cqId)
    {
    }

    /**
     * Releases what the peer handle holds (mappings); the default holds nothing.
     */
    @Override
    public void close()
    {
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return getClass().getSimpleName() + '{' + address + ", id=" + Long.toHexString(nicId) + '}';
    }

    private void checkVi(final int viId)
    {
        if (viId < 0 || viId >= records.length)
        {
            throw new IllegalArgumentException("VI id out of range: viId=" + viId + " maxVis=" + records.length);
        }
    }
}
