package org.viadsm.via.memory;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Registered memory: a range of off-heap memory the NIC may read and write, named by a memory handle.
 * <p>
 * A consumer names local memory in a data segment by {@link #handle()} and an offset into the region; a peer
 * names it in an address segment the same way, after learning the handle (and length) from the owner. Regions
 * are zero-based: an address is an offset from the region's first byte. A region stays valid until
 * {@code Nic.deregisterMemory(region)}; afterwards its handle fails every protection check, including a later
 * registration's, because handles carry a generation.
 */
public interface MemoryRegion
{
    /**
     * The memory handle that data and address segments use to name this region.
     *
     * @return the handle.
     */
    int handle();

    /**
     * The registration's attributes.
     *
     * @return ptag and RDMA enable bits.
     */
    MemoryAttributes attributes();

    /**
     * Length of the region in bytes.
     *
     * @return the length.
     */
    int length();

    /**
     * The region's memory, for the owner's own reads and writes.
     *
     * @return a buffer covering exactly the region.
     */
    AtomicBuffer buffer();

    /**
     * Whether the region is still registered.
     *
     * @return false once deregistered or once its NIC closed.
     */
    boolean isRegistered();
}
