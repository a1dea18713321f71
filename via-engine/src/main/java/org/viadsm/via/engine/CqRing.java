package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

import static org.viadsm.via.engine.CqLayout.CAPACITY_OFFSET;
import static org.viadsm.via.engine.CqLayout.HEAD_OFFSET;
import static org.viadsm.via.engine.CqLayout.SLOTS_OFFSET;
import static org.viadsm.via.engine.CqLayout.SLOT_LENGTH;
import static org.viadsm.via.engine.CqLayout.TAIL_OFFSET;

/**
 * Flyweight over one completion queue of {@link CqLayout}: from many producers (local work queues, and initiators
 * completing receives on this NIC) to a single consumer.
 * <p>
 * A producer reserves a slot by advancing the tail with compare-and-set, only while fewer than the logical
 * capacity entries are queued, so that the capacity is exact; it then writes the entry with release semantics.
 * The consumer reads the oldest slot with acquire semantics, clears it, and advances the head with release
 * semantics. A producer that reserved a slot but has not yet written it holds later entries back until it does.
 * <p>
 * <b>Note:</b> {@link #offer} may be called by any thread of any process that maps the area; {@link #poll},
 * {@link #capacity(int)} and {@link #clear()} by the owning completion queue's consumer only.
 */
public final class CqRing
{
    private final AtomicBuffer buffer;
    private final int offset;
    private final int mask;

    /**
     * Binds a flyweight to a completion queue.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     * @param cqId     the completion-queue id.
     */
    public CqRing(final AtomicBuffer area, final NicGeometry geometry, final int cqId)
    {
        this.buffer = area;
        this.offset = geometry.cqOffset(cqId);
        this.mask = geometry.cqSlots() - 1;
    }

    /**
     * Slots of storage: the largest capacity.
     *
     * @return the slot count.
     */
    public int slots()
    {
        return mask + 1;
    }

    /**
     * The logical capacity.
     *
     * @return entries the queue accepts before it reports overrun.
     */
    public int capacity()
    {
        return buffer.getIntVolatile(offset + CAPACITY_OFFSET);
    }

    /**
     * Sets the logical capacity with volatile semantics.
     *
     * @param capacity from 1 to {@link #slots()}; at least {@link #size()}.
     * @throws IllegalArgumentException if out of range.
     */
    public void capacity(final int capacity)
    {
        if (capacity < 1 || capacity > slots())
        {
            throw new IllegalArgumentException(
                "completion queue capacity must be in [1, " + slots() + "]: capacity=" + capacity);
        }
        buffer.putIntVolatile(offset + CAPACITY_OFFSET, capacity);
    }

    /**
     * Entries queued, including reserved slots not yet written.
     *
     * @return the count.
     */
    public int size()
    {
        final long head = buffer.getLongVolatile(offset + HEAD_OFFSET);
        return (int)(buffer.getLongVolatile(offset + TAIL_OFFSET) - head);
    }

    /**
     * Appends an entry.
     *
     * @param entry a non-zero entry of {@link CqLayout#entry(int, boolean)}.
     * @return false if the queue held its capacity, and the entry was lost.
     */
    public boolean offer(final long entry)
    {
        while (true)
        {
            final long tail = buffer.getLongVolatile(offset + TAIL_OFFSET);
            final long head = buffer.getLongVolatile(offset + HEAD_OFFSET);
            if (tail - head >= buffer.getIntVolatile(offset + CAPACITY_OFFSET))
            {
                return false;
            }
            if (buffer.compareAndSetLong(offset + TAIL_OFFSET, tail, tail + 1))
            {
                buffer.putLongRelease(slotOffset(tail), entry);
                return true;
            }
        }
    }

    /**
     * Takes the oldest entry.
     *
     * @return the entry, or 0 if none is ready.
     */
    public long poll()
    {
        final long head = buffer.getLong(offset + HEAD_OFFSET);
        final int slot = slotOffset(head);
        final long entry = buffer.getLongAcquire(slot);
        if (0 == entry)
        {
            return 0;
        }
        buffer.putLong(slot, 0);
        buffer.putLongRelease(offset + HEAD_OFFSET, head + 1);
        return entry;
    }

    /**
     * Whether an entry is ready to be taken, read with acquire semantics.
     *
     * @return true if {@link #poll()} would return an entry.
     */
    public boolean isReady()
    {
        return 0 != buffer.getLongAcquire(slotOffset(buffer.getLong(offset + HEAD_OFFSET)));
    }

    /**
     * Drops every written entry and makes the queue empty; for a queue no producer can reach any more.
     */
    public void clear()
    {
        final long tail = buffer.getLongVolatile(offset + TAIL_OFFSET);
        for (long i = buffer.getLongVolatile(offset + HEAD_OFFSET); i < tail; i++)
        {
            buffer.putLong(slotOffset(i), 0);
        }
        buffer.putLongRelease(offset + HEAD_OFFSET, tail);
    }

    private int slotOffset(final long index)
    {
        return offset + SLOTS_OFFSET + ((int)index & mask) * SLOT_LENGTH;
    }
}
