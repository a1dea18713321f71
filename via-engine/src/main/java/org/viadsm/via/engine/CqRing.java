package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.internal.AgronaAccess;

import static org.viadsm.via.engine.CqLayout.CAPACITY_OFFSET;
import static org.viadsm.via.engine.CqLayout.HEAD_OFFSET;
import static org.viadsm.via.engine.CqLayout.OVERRUN_OFFSET;
import static org.viadsm.via.engine.CqLayout.SLEEPER_OFFSET;
import static org.viadsm.via.engine.CqLayout.SLOTS_OFFSET;
import static org.viadsm.via.engine.CqLayout.SLOT_LENGTH;
import static org.viadsm.via.engine.CqLayout.TAIL_OFFSET;

/**
 * Flyweight over one completion queue of {@link CqLayout}: from many producers (local work queues, and initiators
 * completing receives on this NIC) to a single consumer.
 * <p>
 * A producer reserves a slot by advancing the tail with compare-and-set, only while fewer than the logical
 * capacity entries are queued, so that the capacity is exact; it then fills the slot with a compare-and-set from
 * the empty value of the slot's lap (how many times the ring has wrapped at that index) to the entry tagged with
 * that lap. The consumer reads the oldest slot with acquire semantics, empties it for the next lap, and advances the
 * head with release semantics. A producer that reserved a slot but has not yet filled it holds later entries back;
 * if it has not filled it within the stall timeout it is taken for dead (its process killed between the two steps)
 * and the consumer skips the slot by emptying it for the next lap, so that a producer waking after all fails its
 * compare-and-set, and reports its completion lost, instead of writing into a slot reused since.
 * <p>
 * <b>Note:</b> {@link #offer} may be called by any thread of any process that maps the area; {@link #poll},
 * {@link #capacity(int)} and {@link #clear()} by the owning completion queue's consumer only.
 */
final class CqRing
{
    private final UnsafeBuffer buffer;
    private final int offset;
    private final int mask;
    private final int lapShift;
    private final long stallTimeoutNs;
    private long stalledIndex = -1;
    private long stalledSinceNs;

    /**
     * Binds a flyweight for producers to a completion queue: its {@link #poll()} never skips a stalled slot.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     * @param cqId     the completion-queue id.
     */
    CqRing(final AtomicBuffer area, final NicGeometry geometry, final int cqId)
    {
        this(area, geometry, cqId, Long.MAX_VALUE);
    }

    /**
     * Binds a flyweight to a completion queue.
     *
     * @param area           the NIC area.
     * @param geometry       the area's geometry.
     * @param cqId           the completion-queue id.
     * @param stallTimeoutNs how long a reserved slot may stay unfilled before the consumer skips it.
     */
    CqRing(final AtomicBuffer area, final NicGeometry geometry, final int cqId, final long stallTimeoutNs)
    {
        this.buffer = AgronaAccess.unsafeBuffer(area);
        this.offset = geometry.cqOffset(cqId);
        this.mask = geometry.cqSlots() - 1;
        this.lapShift = Integer.numberOfTrailingZeros(geometry.cqSlots());
        this.stallTimeoutNs = stallTimeoutNs;
    }

    /**
     * Slots of storage: the largest capacity.
     *
     * @return the slot count.
     */
    int slots()
    {
        return mask + 1;
    }

    /**
     * The logical capacity.
     *
     * @return entries the queue accepts before it reports overrun.
     */
    int capacity()
    {
        return buffer.getIntVolatile(offset + CAPACITY_OFFSET);
    }

    /**
     * Sets the logical capacity with volatile semantics.
     *
     * @param capacity from 1 to {@link #slots()}; at least {@link #size()}.
     * @throws IllegalArgumentException if out of range.
     */
    void capacity(final int capacity)
    {
        if (capacity < 1 || capacity > slots())
        {
            throw new IllegalArgumentException(
                "completion queue capacity must be in [1, " + slots() + "]: capacity=" + capacity);
        }
        buffer.putIntVolatile(offset + CAPACITY_OFFSET, capacity);
    }

    /**
     * Offset in the area of the sleeper word, where the consumer's waiting thread announces its bell.
     *
     * @return the offset.
     */
    int sleeperOffset()
    {
        return offset + SLEEPER_OFFSET;
    }

    /**
     * Producer side: takes the bell the consumer's thread sleeps on, so that exactly one producer rings it per
     * announcement. Call after a full fence that follows the entry's publication.
     *
     * @return the bell's id, or -1 if nobody sleeps.
     */
    int takeSleeper()
    {
        return WaitSlot.takeSleeper(buffer, offset + SLEEPER_OFFSET);
    }

    /**
     * Entries queued, including reserved slots not yet written.
     *
     * @return the count.
     */
    int size()
    {
        final long head = buffer.getLongVolatile(offset + HEAD_OFFSET);
        return (int)(buffer.getLongVolatile(offset + TAIL_OFFSET) - head);
    }

    /**
     * Appends an entry.
     *
     * @param entry a non-zero entry of {@link CqLayout#entry(int, boolean, int)}.
     * @return false if the queue held its capacity, or the consumer had skipped the slot as stalled: the entry was
     *         lost.
     */
    boolean offer(final long entry)
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
                final long lap = lap(tail);
                return buffer.compareAndSetLong(slotOffset(tail), CqLayout.emptySlot(lap),
                    CqLayout.fullSlot(lap, entry));
            }
        }
    }

    /**
     * Takes the oldest entry; skips a slot whose producer has left it unfilled for the stall timeout.
     *
     * @return the entry, or 0 if none is ready.
     */
    long poll()
    {
        final long head = buffer.getLong(offset + HEAD_OFFSET);
        final int slot = slotOffset(head);
        final long lap = lap(head);
        final long value = buffer.getLongAcquire(slot);
        if (CqLayout.isFull(value, lap))
        {
            buffer.putLongRelease(slot, CqLayout.emptySlot(lap + 1));
            buffer.putLongRelease(offset + HEAD_OFFSET, head + 1);
            if (0 != buffer.getInt(offset + OVERRUN_OFFSET))
            {
                buffer.putIntVolatile(offset + OVERRUN_OFFSET, 0);
            }
            return CqLayout.slotEntry(value);
        }
        if (buffer.getLongVolatile(offset + TAIL_OFFSET) - head > 0)
        {
            skipIfStalled(head, slot, lap);
        }
        return 0;
    }

    /**
     * Producer side, after {@link #offer} lost a completion: whether this producer is the first to lose one since the
     * consumer last took an entry, and so the one to report the overrun.
     *
     * @return true once per overrun.
     */
    boolean markOverrun()
    {
        return buffer.compareAndSetInt(offset + OVERRUN_OFFSET, 0, 1);
    }

    /**
     * Whether an entry is ready to be taken, read with acquire semantics.
     *
     * @return true if {@link #poll()} would return an entry.
     */
    boolean isReady()
    {
        final long head = buffer.getLong(offset + HEAD_OFFSET);
        return CqLayout.isFull(buffer.getLongAcquire(slotOffset(head)), lap(head));
    }

    /**
     * Drops every queued entry, and every reserved slot, and makes the queue empty; for a queue no producer can reach
     * any more (a producer still holding a reserved slot fails to fill it).
     */
    void clear()
    {
        final long tail = buffer.getLongVolatile(offset + TAIL_OFFSET);
        for (long i = buffer.getLongVolatile(offset + HEAD_OFFSET); i < tail; i++)
        {
            buffer.putLongVolatile(slotOffset(i), CqLayout.emptySlot(lap(i) + 1));
        }
        buffer.putLongRelease(offset + HEAD_OFFSET, tail);
        buffer.putIntVolatile(offset + OVERRUN_OFFSET, 0);
        buffer.putIntVolatile(offset + SLEEPER_OFFSET, 0);
        stalledIndex = -1;
    }

    private void skipIfStalled(final long head, final int slot, final long lap)
    {
        final long nowNs = System.nanoTime();
        if (stalledIndex != head)
        {
            stalledIndex = head;
            stalledSinceNs = nowNs;
        }
        else if (nowNs - stalledSinceNs >= stallTimeoutNs &&
            buffer.compareAndSetLong(slot, CqLayout.emptySlot(lap), CqLayout.emptySlot(lap + 1)))
        {
            buffer.putLongRelease(offset + HEAD_OFFSET, head + 1);
            stalledIndex = -1;
        }
    }

    private long lap(final long index)
    {
        return index >>> lapShift;
    }

    private int slotOffset(final long index)
    {
        return offset + SLOTS_OFFSET + ((int)index & mask) * SLOT_LENGTH;
    }
}
