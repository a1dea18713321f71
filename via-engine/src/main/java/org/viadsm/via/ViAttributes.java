package org.viadsm.via;

import org.viadsm.via.memory.ProtectionTag;

/**
 * Attributes of a VI, after VIPL's {@code VIP_VI_ATTRIBUTES}: reliability level, protection tag, maximum transfer
 * size and whether RDMA Write and RDMA Read may be used on it. Both ends of a connection must agree on the
 * reliability level; the smaller maximum transfer size applies.
 * <p>
 * A mutable value with fluent setters; {@code Nic.createVi} copies it, so later changes do not affect a VI.
 */
public final class ViAttributes
{
    /** Default maximum transfer size: 1 MiB. */
    public static final int MAX_TRANSFER_SIZE_DEFAULT = 1 << 20;

    private ReliabilityLevel reliabilityLevel = ReliabilityLevel.RELIABLE_RECEPTION;
    private ProtectionTag ptag;
    private int maxTransferSize = MAX_TRANSFER_SIZE_DEFAULT;
    private boolean enableRdmaWrite = true;
    private boolean enableRdmaRead = true;

    /**
     * Creates attributes with the defaults: reliable reception, 1 MiB transfers, RDMA Write and Read enabled.
     * The protection tag must be set before use.
     */
    public ViAttributes()
    {
    }

    /**
     * Creates a copy.
     *
     * @param other attributes to copy.
     */
    public ViAttributes(final ViAttributes other)
    {
        this.reliabilityLevel = other.reliabilityLevel;
        this.ptag = other.ptag;
        this.maxTransferSize = other.maxTransferSize;
        this.enableRdmaWrite = other.enableRdmaWrite;
        this.enableRdmaRead = other.enableRdmaRead;
    }

    /**
     * The reliability level.
     *
     * @return the level.
     */
    public ReliabilityLevel reliabilityLevel()
    {
        return reliabilityLevel;
    }

    /**
     * Sets the reliability level.
     *
     * @param level the level.
     * @return this.
     */
    public ViAttributes reliabilityLevel(final ReliabilityLevel level)
    {
        this.reliabilityLevel = level;
        return this;
    }

    /**
     * The protection tag descriptors posted on this VI are checked against.
     *
     * @return the ptag, or null if unset.
     */
    public ProtectionTag ptag()
    {
        return ptag;
    }

    /**
     * Sets the protection tag.
     *
     * @param ptag the ptag.
     * @return this.
     */
    public ViAttributes ptag(final ProtectionTag ptag)
    {
        this.ptag = ptag;
        return this;
    }

    /**
     * The largest number of bytes one descriptor may transfer.
     *
     * @return the maximum transfer size.
     */
    public int maxTransferSize()
    {
        return maxTransferSize;
    }

    /**
     * Sets the maximum transfer size.
     *
     * @param bytes the maximum transfer size.
     * @return this.
     */
    public ViAttributes maxTransferSize(final int bytes)
    {
        this.maxTransferSize = bytes;
        return this;
    }

    /**
     * Whether RDMA Write may be used on this VI, in either direction.
     *
     * @return the RDMA Write enable bit.
     */
    public boolean enableRdmaWrite()
    {
        return enableRdmaWrite;
    }

    /**
     * Sets whether RDMA Write may be used.
     *
     * @param enable the RDMA Write enable bit.
     * @return this.
     */
    public ViAttributes enableRdmaWrite(final boolean enable)
    {
        this.enableRdmaWrite = enable;
        return this;
    }

    /**
     * Whether RDMA Read and remote atomics may be used on this VI, in either direction.
     *
     * @return the RDMA Read enable bit.
     */
    public boolean enableRdmaRead()
    {
        return enableRdmaRead;
    }

    /**
     * Sets whether RDMA Read (and remote atomics) may be used; not allowed at {@link ReliabilityLevel#UNRELIABLE}.
     *
     * @param enable the RDMA Read enable bit.
     * @return this.
     */
    public ViAttributes enableRdmaRead(final boolean enable)
    {
        this.enableRdmaRead = enable;
        return this;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "ViAttributes{reliability=" + reliabilityLevel + ", ptag=" + (null == ptag ? "none" : ptag.value()) +
            ", maxTransferSize=" + maxTransferSize + ", rdmaWrite=" + enableRdmaWrite +
            ", rdmaRead=" + enableRdmaRead + '}';
    }
}
