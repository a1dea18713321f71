package org.viadsm.dsm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.Nic;

/**
 * The memory of a node's array regions: a freed array's memory is kept for the next allocation of the same length,
 * which takes it back zeroed, rather than going back to the NIC. Fresh memory faults on its first touch at every
 * node: the home's first write to a page, the copy of a fetched page into the fetcher's region, and over shared
 * memory the fetcher's first read of its mapping of the home's region, 2 to 13 us a 4 KiB page on a loaded core,
 * where the copy itself takes under 1 us. Memory taken back is mapped and resident already, and the peers' views
 * of it stay mapped (they follow the allocation, not the registration), so a program that frees and allocates
 * again (a warm run, a phase) pays no page fault. At most {@link #MAX_KEPT_BYTES} are kept; the NIC frees the rest
 * when it closes.
 * <p>
 * <b>Note:</b> used under the node's DSM call, by one thread at a time.
 */
final class RegionMemory
{
    /** Most bytes of freed regions kept for reuse; a region freed beyond that goes back to the NIC. */
    static final long MAX_KEPT_BYTES = 256L << 20;

    private final Nic nic;
    private final List<ByteBuffer> kept = new ArrayList<>();
    private long keptBytes;

    RegionMemory(final Nic nic)
    {
        this.nic = nic;
    }

    /**
     * Zeroed memory for a region: a kept region of exactly this length, or new memory from the NIC.
     *
     * @param length bytes.
     * @return the memory.
     */
    ByteBuffer take(final int length)
    {
        for (int i = kept.size() - 1; i >= 0; i--)
        {
            final ByteBuffer memory = kept.get(i);
            if (memory.capacity() == length)
            {
                kept.remove(i);
                keptBytes -= length;
                new UnsafeBuffer(memory).setMemory(0, length, (byte)0);
                return memory;
            }
        }
        return nic.allocateMemory(length);
    }

    /**
     * Takes back the memory of a deregistered region: keeps it for reuse, or frees it if enough is kept.
     *
     * @param memory memory from {@link #take(int)}, no longer registered.
     */
    void give(final ByteBuffer memory)
    {
        if (keptBytes + memory.capacity() > MAX_KEPT_BYTES)
        {
            nic.freeMemory(memory);
            return;
        }
        kept.add(memory);
        keptBytes += memory.capacity();
    }
}
