package org.viadsm.consistency.diff;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.BufferUtil;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap page-sized slots for twins, the copies of pages taken at the first write of an interval. Slots are
 * recycled when their diffs have gone home, so the pool grows only to the largest number of pages dirty at once.
 * <p>
 * <b>Note:</b> not threadsafe.
 */
public final class TwinPool implements AutoCloseable
{
    private static final int SLOTS_PER_CHUNK = 64;

    private final int pageSize;
    private final List<UnsafeBuffer> chunks = new ArrayList<>();
    private final List<ByteBuffer> memory = new ArrayList<>();
    private final IntArrayList free = new IntArrayList();
    private int inUse;

    /**
     * Creates an empty pool.
     *
     * @param pageSize bytes per twin.
     */
    public TwinPool(final int pageSize)
    {
        this.pageSize = pageSize;
    }

    /**
     * Takes a slot.
     *
     * @return the slot id.
     */
    public int acquire()
    {
        if (free.isEmpty())
        {
            final int chunk = chunks.size();
            final ByteBuffer bytes = ByteBuffer.allocateDirect(SLOTS_PER_CHUNK * pageSize);
            memory.add(bytes);
            chunks.add(new UnsafeBuffer(bytes));
            for (int i = SLOTS_PER_CHUNK - 1; i >= 0; i--)
            {
                free.addInt(chunk * SLOTS_PER_CHUNK + i);
            }
        }
        inUse++;
        return free.popInt();
    }

    /**
     * Returns a slot.
     *
     * @param slot a slot from {@link #acquire()}.
     */
    public void release(final int slot)
    {
        inUse--;
        free.addInt(slot);
    }

    /**
     * The buffer holding a slot.
     *
     * @param slot the slot.
     * @return its chunk's buffer; the twin starts at {@link #offset(int)}.
     */
    public UnsafeBuffer buffer(final int slot)
    {
        return chunks.get(slot / SLOTS_PER_CHUNK);
    }

    /**
     * Where a slot starts in its buffer.
     *
     * @param slot the slot.
     * @return the offset.
     */
    public int offset(final int slot)
    {
        return (slot % SLOTS_PER_CHUNK) * pageSize;
    }

    /**
     * Slots in use.
     *
     * @return the count.
     */
    public int inUse()
    {
        return inUse;
    }

    /**
     * Bytes of twin memory held, in use or free.
     *
     * @return the capacity in bytes.
     */
    public long capacityBytes()
    {
        return (long)chunks.size() * SLOTS_PER_CHUNK * pageSize;
    }

    /**
     * Frees the pool's memory.
     */
    @Override
    public void close()
    {
        for (final ByteBuffer bytes : memory)
        {
            BufferUtil.free(bytes);
        }
        memory.clear();
        chunks.clear();
        free.clear();
    }
}
