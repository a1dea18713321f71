package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

/**
 * A registration of a NIC: the Java face of one registration-table entry.
 */
final class EngineRegion implements MemoryRegion
{
    private final EngineNic nic;
    private final int index;
    private final int generation;
    private final int handle;
    private final MemoryAttributes attributes;
    private final UnsafeBuffer buffer;
    private final long address;
    private final MemoryManager.Allocation allocation;
    private volatile boolean registered = true;

    EngineRegion(
        final EngineNic nic,
        final int index,
        final int generation,
        final int handle,
        final MemoryAttributes attributes,
        final UnsafeBuffer buffer,
        final long address,
        final MemoryManager.Allocation allocation)
    {
        this.nic = nic;
        this.index = index;
        this.generation = generation;
        this.handle = handle;
        this.attributes = attributes;
        this.buffer = buffer;
        this.address = address;
        this.allocation = allocation;
    }

    @Override
    public int handle()
    {
        return handle;
    }

    @Override
    public MemoryAttributes attributes()
    {
        return attributes;
    }

    @Override
    public int length()
    {
        return buffer.capacity();
    }

    @Override
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    @Override
    public boolean isRegistered()
    {
        return registered;
    }

    EngineNic nic()
    {
        return nic;
    }

    int index()
    {
        return index;
    }

    int generation()
    {
        return generation;
    }

    long address()
    {
        return address;
    }

    MemoryManager.Allocation allocation()
    {
        return allocation;
    }

    void markDeregistered()
    {
        registered = false;
    }

    @Override
    public String toString()
    {
        return "MemoryRegion{handle=0x" + Integer.toHexString(handle) + ", length=" + length() + ", " + attributes +
            ", registered=" + registered + '}';
    }
}
