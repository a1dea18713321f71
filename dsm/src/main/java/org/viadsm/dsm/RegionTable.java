package org.viadsm.dsm;

import java.nio.ByteBuffer;

import org.agrona.collections.Int2ObjectHashMap;
import org.viadsm.via.Nic;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * The regions a node registered with its NIC, by region id, each with the memory handles under which the peers
 * registered their copies of it: what the port names in the descriptors it posts.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class RegionTable
{
    private final Nic nic;
    private final ProtectionTag ptag;
    private final int nodeId;
    private final int nodeCount;
    private final Int2ObjectHashMap<Region> regions = new Int2ObjectHashMap<>();
    private final RegionMemory memory;

    RegionTable(final Nic nic, final ProtectionTag ptag, final int nodeId, final int nodeCount)
    {
        this.nic = nic;
        this.ptag = ptag;
        this.nodeId = nodeId;
        this.nodeCount = nodeCount;
        this.memory = new RegionMemory(nic);
    }

    /** Registers a region of this node under the protection tag, readable and writable by peers. */
    MemoryRegion add(final int region, final ByteBuffer regionMemory)
    {
        final MemoryRegion registered = nic.registerMemory(regionMemory, MemoryAttributes.remoteAccess(ptag));
        regions.put(region, new Region(registered, regionMemory, nodeCount));
        return registered;
    }

    /** Zeroed memory for a region of {@code length} bytes: a freed region's, if one of that length is kept. */
    ByteBuffer memory(final int length)
    {
        return memory.take(length);
    }

    /** Deregisters a region of this node and gives its memory back for reuse (see {@link RegionMemory}). */
    void remove(final int region)
    {
        final Region removed = regions.remove(region);
        if (null != removed)
        {
            nic.deregisterMemory(removed.local);
            memory.give(removed.memory);
        }
    }

    /** Records the handle under which {@code node} registered its copy of {@code region}. */
    void remoteHandle(final int region, final int node, final int handle)
    {
        of(region).handles[node] = handle;
    }

    /**
     * The region registered under {@code region}.
     *
     * @throws IllegalArgumentException if this node has no such region.
     */
    Region of(final int region)
    {
        final Region r = regions.get(region);
        if (null == r)
        {
            throw new IllegalArgumentException("node " + nodeId + " has no region " + region);
        }
        return r;
    }

    /** A region of this node: its registration, its memory and the peers' handles for their copies. */
    static final class Region
    {
        final MemoryRegion local;
        final ByteBuffer memory;
        final int[] handles;

        Region(final MemoryRegion local, final ByteBuffer memory, final int nodeCount)
        {
            this.local = local;
            this.memory = memory;
            this.handles = new int[nodeCount];
        }
    }
}
