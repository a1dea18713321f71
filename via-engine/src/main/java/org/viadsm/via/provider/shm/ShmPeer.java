package org.viadsm.via.provider.shm;

import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.RegistrationTable;
import org.viadsm.via.engine.SparseMemory;

/**
 * A NIC of another process (or another NIC of this one) reached through its files: its area mapped once, each of
 * its memory allocations mapped on first use, and each registration's buffer cached by index, so that the data
 * path makes no system call and allocates nothing after the first operation on a region. A cached view is used
 * only while the registration-table entry still describes its bytes (generation, allocation, location, length),
 * read like a seqlock: a handle whose generation came back after the counter wrapped names the region registered
 * now, never the one the view was made for. Mappings of allocations the peer has freed are dropped when a new
 * allocation is mapped.
 */
final class ShmPeer extends PeerNic
{
    private static final class RegionView
    {
        final int generation;
        final long allocationId;
        final long location;
        final int length;
        final AtomicBuffer buffer;

        RegionView(
            final int generation, final long allocationId, final long location, final int length,
            final AtomicBuffer buffer)
        {
            this.generation = generation;
            this.allocationId = allocationId;
            this.location = location;
            this.length = length;
            this.buffer = buffer;
        }
    }

    private final String name;
    private final Path directory;
    private final MappedByteBuffer mapping;
    private final long ownerPid;
    private final ProcessHandle owner;
    private final RegionView[] regions;
    private final Long2ObjectHashMap<MappedByteBuffer> allocations = new Long2ObjectHashMap<>();
    private final ShmRinger ringer;
    private boolean closed;

    ShmPeer(
        final String address, final String name, final Path directory, final MappedByteBuffer mapping,
        final NicArea area)
    {
        super(address, area);
        this.name = name;
        this.directory = directory;
        this.mapping = mapping;
        this.ownerPid = area.ownerPid();
        this.owner = ProcessHandle.of(ownerPid).orElse(null);
        this.regions = new RegionView[area.geometry().maxRegions()];
        this.ringer = new ShmRinger(directory, name, ownerPid,
            ShmTransport.maxBells(area.geometry().maxVis(), area.geometry().maxCqs()));
        if (null == owner || !ShmFiles.isAlive(ownerPid, area.ownerStartMs()))
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "the process " + ownerPid + " owning " + address +
                " is gone");
        }
    }

    @Override
    public AtomicBuffer regionBuffer(final int index, final int generation)
    {
        final RegionView view = index >= 0 && index < regions.length ? regions[index] : null;
        return null != view && view.generation == generation &&
            area().table().describes(index, generation, view.allocationId, view.location, view.length) ?
            view.buffer : map(index, generation);
    }

    @Override
    public void wakeReceivers(final int viId, final int cqId)
    {
        VarHandle.fullFence();
        final int viBell = takeRecvSleeper(viId);
        final int cqBell = takeCqSleeper(cqId);
        if (viBell >= 0)
        {
            ringer.ring(viBell);
        }
        if (cqBell >= 0 && cqBell != viBell)
        {
            ringer.ring(cqBell);
        }
    }

    @Override
    public boolean isAlive()
    {
        return owner.isAlive();
    }

    @Override
    public boolean hasDied()
    {
        return !owner.isAlive();
    }

    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            ringer.close();
            java.util.Arrays.fill(regions, null);
            for (final MappedByteBuffer allocation : allocations.values())
            {
                SparseMemory.unmap(allocation);
            }
            allocations.clear();
            SparseMemory.unmap(mapping);
        }
    }

    /**
     * Rings of the peer's bells this side wrote, for tests.
     */
    long rings()
    {
        return ringer.rings();
    }

    /**
     * Allocations of the peer this side has mapped, for tests.
     */
    synchronized int mappedAllocations()
    {
        return allocations.size();
    }

    private synchronized AtomicBuffer map(final int index, final int generation)
    {
        final RegistrationTable table = area().table();
        if (closed || index < 0 || index >= regions.length || table.generation(index) != generation)
        {
            return null;
        }
        final long allocationId = table.allocationId(index);
        final long offset = table.location(index);
        final int length = table.length(index);
        MappedByteBuffer allocation = allocations.get(allocationId);
        if (null == allocation)
        {
            dropFreedAllocations();
            final Path file = ShmFiles.memFile(directory, name, ownerPid, allocationId);
            if (!Files.exists(file))
            {
                return null;
            }
            try
            {
                allocation = SparseMemory.mapExisting(file, "memory of " + address());
            }
            catch (final ViaException ex)
            {
                return null;
            }
            allocations.put(allocationId, allocation);
        }
        if (offset < 0 || length < 0 || offset + length > allocation.capacity() ||
            !table.describes(index, generation, allocationId, offset, length))
        {
            return null;
        }
        final AtomicBuffer buffer = new UnsafeBuffer(allocation, (int)offset, length);
        regions[index] = new RegionView(generation, allocationId, offset, length, buffer);
        return buffer;
    }

    /**
     * Forgets the mappings of allocations the peer has freed (their files are gone), and the views into them, so
     * that their memory goes back to the system. They are not unmapped here: a thread of this process may still be
     * moving bytes through a view it resolved before; the garbage collector unmaps each once nothing uses it.
     */
    private void dropFreedAllocations()
    {
        final LongArrayList freed = new LongArrayList();
        final Long2ObjectHashMap<MappedByteBuffer>.KeyIterator ids = allocations.keySet().iterator();
        while (ids.hasNext())
        {
            final long id = ids.nextLong();
            if (!Files.exists(ShmFiles.memFile(directory, name, ownerPid, id)))
            {
                freed.addLong(id);
            }
        }
        for (int i = 0; i < freed.size(); i++)
        {
            final long id = freed.getLong(i);
            allocations.remove(id);
            for (int index = 0; index < regions.length; index++)
            {
                if (null != regions[index] && regions[index].allocationId == id)
                {
                    regions[index] = null;
                }
            }
        }
    }
}
