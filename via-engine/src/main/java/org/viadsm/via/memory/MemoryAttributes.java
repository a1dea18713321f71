package org.viadsm.via.memory;

import java.util.Objects;

/**
 * Attributes of a memory registration: its protection tag and whether remote peers may RDMA Write into it or
 * RDMA Read from it (remote atomics need both). Immutable.
 */
public final class MemoryAttributes
{
    private final ProtectionTag ptag;
    private final boolean enableRdmaWrite;
    private final boolean enableRdmaRead;

    /**
     * Creates memory attributes.
     *
     * @param ptag            protection tag the region is registered under.
     * @param enableRdmaWrite whether peers may RDMA Write into the region.
     * @param enableRdmaRead  whether peers may RDMA Read from the region.
     */
    public MemoryAttributes(final ProtectionTag ptag, final boolean enableRdmaWrite, final boolean enableRdmaRead)
    {
        this.ptag = Objects.requireNonNull(ptag, "ptag");
        this.enableRdmaWrite = enableRdmaWrite;
        this.enableRdmaRead = enableRdmaRead;
    }

    /**
     * Attributes for memory that peers may read, write and update atomically.
     *
     * @param ptag the protection tag.
     * @return attributes with both RDMA enable bits set.
     */
    public static MemoryAttributes remoteAccess(final ProtectionTag ptag)
    {
        return new MemoryAttributes(ptag, true, true);
    }

    /**
     * Attributes for memory used only in local data segments (send and receive buffers).
     *
     * @param ptag the protection tag.
     * @return attributes with both RDMA enable bits clear.
     */
    public static MemoryAttributes localOnly(final ProtectionTag ptag)
    {
        return new MemoryAttributes(ptag, false, false);
    }

    /**
     * The protection tag.
     *
     * @return the ptag.
     */
    public ProtectionTag ptag()
    {
        return ptag;
    }

    /**
     * Whether peers may RDMA Write into the region.
     *
     * @return the RDMA Write enable bit.
     */
    public boolean enableRdmaWrite()
    {
        return enableRdmaWrite;
    }

    /**
     * Whether peers may RDMA Read from the region.
     *
     * @return the RDMA Read enable bit.
     */
    public boolean enableRdmaRead()
    {
        return enableRdmaRead;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "MemoryAttributes{ptag=" + ptag.value() + ", rdmaWrite=" + enableRdmaWrite +
            ", rdmaRead=" + enableRdmaRead + '}';
    }
}
