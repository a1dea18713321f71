package org.viadsm.via.engine;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

/**
 * A NIC's memory: the allocations it made and its registrations, kept in step with the registration table of its
 * shared area.
 * <p>
 * <b>Note:</b> every method but {@link #regionBuffer(int, int)} is called under the NIC's lock;
 * {@link #regionBuffer(int, int)} is lock-free and may be called by any thread, after the handle passed the
 * table's check (whose acquire load of the generation makes the region published with it visible).
 */
final class MemoryManager
{
    static final class Allocation
    {
        final long id;
        final long address;
        final int length;
        final ByteBuffer buffer;
        int registrations;

        Allocation(final long id, final long address, final int length, final ByteBuffer buffer)
        {
            this.id = id;
            this.address = address;
            this.length = length;
            this.buffer = buffer;
        }
    }

    private final EngineNic nic;
    private final RegistrationTable table;
    private final EngineRegion[] regions;
    private final int[] generations;
    private final TreeMap<Long, Allocation> allocations = new TreeMap<>();
    private final long maxRegisteredBytes;
    private long registeredBytes;
    private long nextAllocationId = 1;
    private int searchStart;

    MemoryManager(final EngineNic nic, final RegistrationTable table, final long maxRegisteredBytes)
    {
        this.nic = nic;
        this.table = table;
        this.regions = new EngineRegion[table.capacity()];
        this.generations = new int[table.capacity()];
        this.maxRegisteredBytes = maxRegisteredBytes;
    }

    ByteBuffer allocate(final int length)
    {
        if (length <= 0)
        {
            throw new IllegalArgumentException("memory length must be positive: length=" + length);
        }
        final long id = nextAllocationId++;
        final ByteBuffer buffer = nic.transport().mapMemory(nic.context(), id, length);
        final long address = BufferUtil.address(buffer);
        allocations.put(address, new Allocation(id, address, length, buffer));
        return buffer;
    }

    void free(final ByteBuffer buffer)
    {
        final Allocation allocation = null == buffer || !buffer.isDirect() ?
            null : allocations.get(BufferUtil.address(buffer));
        if (null == allocation || allocation.buffer != buffer)
        {
            throw new IllegalArgumentException("buffer was not allocated by " + nic.address() + ": " + buffer);
        }
        if (allocation.registrations > 0)
        {
            throw new IllegalStateException(
                "memory is still registered " + allocation.registrations + " times; deregister it first");
        }
        allocations.remove(allocation.address);
        nic.transport().unmapMemory(allocation.id, allocation.buffer);
    }

    EngineRegion register(final ByteBuffer buffer, final MemoryAttributes attributes, final int ptag)
    {
        if (null == buffer || !buffer.isDirect())
        {
            throw new IllegalArgumentException("registered memory must be a direct buffer: " + buffer);
        }
        if (buffer.isReadOnly())
        {
            // a read-only mapping would fault (SIGSEGV) at the first receive, RDMA Write or atomic into it
            throw new IllegalArgumentException("registered memory must be writable, the NIC writes into it: " +
                "read-only buffer " + buffer);
        }
        final long address = BufferUtil.address(buffer);
        final int length = buffer.capacity();
        final Allocation allocation = enclosing(address, length);
        if (null == allocation && !nic.transport().registersForeignMemory())
        {
            throw new IllegalArgumentException("NIC " + nic.address() + " registers only memory from its " +
                "allocateMemory (peers map it from there): buffer at 0x" + Long.toHexString(address) +
                " length " + length + " lies in no allocation");
        }
        if (registeredBytes + length > maxRegisteredBytes)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "registration limit reached: registered=" +
                registeredBytes + " requested=" + length + " max=" + maxRegisteredBytes);
        }
        final int index = freeIndex();
        final int generation = table.nextGeneration(generations[index]);
        generations[index] = generation;
        final EngineRegion region = new EngineRegion(nic, index, generation, table.handle(index, generation),
            attributes, new UnsafeBuffer(buffer), address, allocation);
        regions[index] = region;
        final int flags = RegistrationLayout.flags(attributes.enableRdmaWrite(), attributes.enableRdmaRead());
        if (null == allocation)
        {
            table.publish(index, generation, ptag, flags, length, 0, address);
        }
        else
        {
            allocation.registrations++;
            table.publish(index, generation, ptag, flags, length, allocation.id, address - allocation.address);
        }
        registeredBytes += length;
        return region;
    }

    EngineRegion deregister(final MemoryRegion memoryRegion)
    {
        if (!(memoryRegion instanceof EngineRegion) || ((EngineRegion)memoryRegion).nic() != nic)
        {
            throw new IllegalArgumentException("region does not belong to " + nic.address() + ": " + memoryRegion);
        }
        final EngineRegion region = (EngineRegion)memoryRegion;
        if (!region.isRegistered() || regions[region.index()] != region)
        {
            throw new IllegalArgumentException("region is already deregistered: " + region);
        }
        table.retire(region.index());
        regions[region.index()] = null;
        region.markDeregistered();
        registeredBytes -= region.length();
        if (null != region.allocation())
        {
            region.allocation().registrations--;
        }
        return region;
    }

    AtomicBuffer regionBuffer(final int index, final int generation)
    {
        if (index < 0 || index >= regions.length)
        {
            return null;
        }
        final EngineRegion region = regions[index];
        return null != region && region.generation() == generation ? region.buffer() : null;
    }

    void closeAll()
    {
        for (int i = 0; i < regions.length; i++)
        {
            final EngineRegion region = regions[i];
            if (null != region)
            {
                table.retire(i);
                regions[i] = null;
                region.markDeregistered();
            }
        }
        registeredBytes = 0;
        for (final Allocation allocation : allocations.values())
        {
            nic.transport().unmapMemory(allocation.id, allocation.buffer);
        }
        allocations.clear();
    }

    private Allocation enclosing(final long address, final int length)
    {
        final Map.Entry<Long, Allocation> entry = allocations.floorEntry(address);
        if (null == entry)
        {
            return null;
        }
        final Allocation allocation = entry.getValue();
        return address + length <= allocation.address + allocation.length ? allocation : null;
    }

    /**
     * Tests: makes entry {@code index} look as if its last registration had had generation {@code generation}, so
     * that the retirement of an entry whose generations are used up can be tested without 2^31 registrations.
     */
    void lastGeneration(final int index, final int generation)
    {
        generations[index] = generation;
    }

    private int freeIndex()
    {
        int spent = 0;
        for (int i = 0; i < regions.length; i++)
        {
            final int index = (searchStart + i) % regions.length;
            if (null == regions[index])
            {
                if (isSpent(index))
                {
                    spent++;
                    continue;
                }
                searchStart = index + 1;
                return index;
            }
        }
        throw new ViaException(ViaError.ERROR_RESOURCE, "registration table of " + nic.address() + " is full: " +
            regions.length + " regions" + (0 == spent ? "" : ", " + spent + " of them retired with every generation " +
            "of their handles used"));
    }

    /**
     * Whether an entry has issued its last generation. It is never used again: its next handle would repeat one
     * issued before, and a holder of that old handle (a VI's memo of the region it checked last, a peer) would
     * then reach the new region as if it were the old one. Round robin over the table reaches this after at least
     * 2^31 registrations.
     */
    private boolean isSpent(final int index)
    {
        final int last = generations[index];
        return 0 != last && table.nextGeneration(last) <= last;
    }
}
