package org.viadsm.via;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a NIC can do, after VIPL's {@code VIP_NIC_ATTRIBUTES}. Immutable; providers build it with {@link Builder}.
 */
public final class NicAttributes
{
    private final String name;
    private final int maxDescriptorsPerQueue;
    private final int maxSegmentsPerDescriptor;
    private final int maxTransferSize;
    private final long maxRegisteredBytes;
    private final int maxRegisteredRegions;
    private final int maxVis;
    private final int maxCqEntries;
    private final int nativeMtu;
    private final Set<ReliabilityLevel> reliabilityLevels;
    private final boolean rdmaReadSupport;
    private final boolean atomicsSupport;
    private final boolean orderedTargetAccess;

    private NicAttributes(final Builder b)
    {
        this.name = b.name;
        this.maxDescriptorsPerQueue = b.maxDescriptorsPerQueue;
        this.maxSegmentsPerDescriptor = b.maxSegmentsPerDescriptor;
        this.maxTransferSize = b.maxTransferSize;
        this.maxRegisteredBytes = b.maxRegisteredBytes;
        this.maxRegisteredRegions = b.maxRegisteredRegions;
        this.maxVis = b.maxVis;
        this.maxCqEntries = b.maxCqEntries;
        this.nativeMtu = b.nativeMtu;
        this.reliabilityLevels = Collections.unmodifiableSet(EnumSet.copyOf(b.reliabilityLevels));
        this.rdmaReadSupport = b.rdmaReadSupport;
        this.atomicsSupport = b.atomicsSupport;
        this.orderedTargetAccess = b.orderedTargetAccess;
    }

    /**
     * The NIC's name: its provider address.
     *
     * @return the address, e.g. {@code shm:node0}.
     */
    public String name()
    {
        return name;
    }

    /**
     * Descriptors one work queue can hold.
     *
     * @return the queue depth.
     */
    public int maxDescriptorsPerQueue()
    {
        return maxDescriptorsPerQueue;
    }

    /**
     * Data segments one descriptor may carry.
     *
     * @return the segment limit.
     */
    public int maxSegmentsPerDescriptor()
    {
        return maxSegmentsPerDescriptor;
    }

    /**
     * The largest transfer one descriptor may make.
     *
     * @return bytes.
     */
    public int maxTransferSize()
    {
        return maxTransferSize;
    }

    /**
     * Total bytes that may be registered at once.
     *
     * @return bytes.
     */
    public long maxRegisteredBytes()
    {
        return maxRegisteredBytes;
    }

    /**
     * Regions that may be registered at once.
     *
     * @return the registration-table size.
     */
    public int maxRegisteredRegions()
    {
        return maxRegisteredRegions;
    }

    /**
     * VIs the NIC can hold at once.
     *
     * @return the VI limit.
     */
    public int maxVis()
    {
        return maxVis;
    }

    /**
     * Entries one completion queue may hold.
     *
     * @return the completion-queue limit.
     */
    public int maxCqEntries()
    {
        return maxCqEntries;
    }

    /**
     * The transport's natural unit of transfer.
     *
     * @return bytes.
     */
    public int nativeMtu()
    {
        return nativeMtu;
    }

    /**
     * Reliability levels the NIC supports.
     *
     * @return an unmodifiable set.
     */
    public Set<ReliabilityLevel> reliabilityLevels()
    {
        return reliabilityLevels;
    }

    /**
     * Whether the NIC supports RDMA Read (VIA makes it optional).
     *
     * @return true if supported.
     */
    public boolean rdmaReadSupport()
    {
        return rdmaReadSupport;
    }

    /**
     * Whether the NIC supports remote compare-and-swap and fetch-and-add (an extension to VIA).
     *
     * @return true if supported.
     */
    public boolean atomicsSupport()
    {
        return atomicsSupport;
    }

    /**
     * Whether the target performs a VI's operations on its memory in the order they were posted, RDMA Reads and
     * atomics included, so that an RDMA Read posted after an atomic (or any other operation) on the same VI sees
     * its effect without a queue fence. A fence still keeps a descriptor until the RDMA Reads and atomics before it
     * have completed here, which an initiator needs only when the descriptor uses what they brought back. Over
     * TCP the target reads one VI's requests off one stream and performs each before the next; a transport that
     * may overlap or reorder read-like operations (UCX's gets and atomics) does not promise it.
     *
     * @return true if the target performs each VI's operations in posting order.
     */
    public boolean orderedTargetAccess()
    {
        return orderedTargetAccess;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "NicAttributes{name=" + name + ", maxDescriptorsPerQueue=" + maxDescriptorsPerQueue +
            ", maxSegmentsPerDescriptor=" + maxSegmentsPerDescriptor + ", maxTransferSize=" + maxTransferSize +
            ", maxRegisteredBytes=" + maxRegisteredBytes + ", maxRegisteredRegions=" + maxRegisteredRegions +
            ", maxVis=" + maxVis + ", maxCqEntries=" + maxCqEntries + ", nativeMtu=" + nativeMtu +
            ", reliabilityLevels=" + reliabilityLevels + ", rdmaRead=" + rdmaReadSupport +
            ", atomics=" + atomicsSupport + ", orderedTargetAccess=" + orderedTargetAccess + '}';
    }

    /**
     * Builds {@link NicAttributes}; for providers.
     */
    public static final class Builder
    {
        private String name = "";
        private int maxDescriptorsPerQueue = 1024;
        private int maxSegmentsPerDescriptor = 16;
        private int maxTransferSize = ViAttributes.MAX_TRANSFER_SIZE_DEFAULT;
        private long maxRegisteredBytes = 1L << 40;
        private int maxRegisteredRegions = 4096;
        private int maxVis = 256;
        private int maxCqEntries = 1 << 16;
        private int nativeMtu = 4096;
        private Set<ReliabilityLevel> reliabilityLevels = EnumSet.allOf(ReliabilityLevel.class);
        private boolean rdmaReadSupport = true;
        private boolean atomicsSupport = true;
        private boolean orderedTargetAccess;

        /**
         * Creates a builder with the defaults.
         */
        public Builder()
        {
        }

        /**
         * Sets the name.
         *
         * @param name the provider address.
         * @return this.
         */
        public Builder name(final String name)
        {
            this.name = name;
            return this;
        }

        /**
         * Sets the work-queue depth.
         *
         * @param n descriptors per queue.
         * @return this.
         */
        public Builder maxDescriptorsPerQueue(final int n)
        {
            this.maxDescriptorsPerQueue = n;
            return this;
        }

        /**
         * Sets the segment limit.
         *
         * @param n segments per descriptor.
         * @return this.
         */
        public Builder maxSegmentsPerDescriptor(final int n)
        {
            this.maxSegmentsPerDescriptor = n;
            return this;
        }

        /**
         * Sets the largest transfer.
         *
         * @param bytes the limit.
         * @return this.
         */
        public Builder maxTransferSize(final int bytes)
        {
            this.maxTransferSize = bytes;
            return this;
        }

        /**
         * Sets the registration limit in bytes.
         *
         * @param bytes the limit.
         * @return this.
         */
        public Builder maxRegisteredBytes(final long bytes)
        {
            this.maxRegisteredBytes = bytes;
            return this;
        }

        /**
         * Sets the registration limit in regions.
         *
         * @param n the limit.
         * @return this.
         */
        public Builder maxRegisteredRegions(final int n)
        {
            this.maxRegisteredRegions = n;
            return this;
        }

        /**
         * Sets the VI limit.
         *
         * @param n the limit.
         * @return this.
         */
        public Builder maxVis(final int n)
        {
            this.maxVis = n;
            return this;
        }

        /**
         * Sets the completion-queue limit.
         *
         * @param n entries.
         * @return this.
         */
        public Builder maxCqEntries(final int n)
        {
            this.maxCqEntries = n;
            return this;
        }

        /**
         * Sets the native MTU.
         *
         * @param bytes the MTU.
         * @return this.
         */
        public Builder nativeMtu(final int bytes)
        {
            this.nativeMtu = bytes;
            return this;
        }

        /**
         * Sets the supported reliability levels.
         *
         * @param levels the levels.
         * @return this.
         */
        public Builder reliabilityLevels(final Set<ReliabilityLevel> levels)
        {
            this.reliabilityLevels = EnumSet.copyOf(levels);
            return this;
        }

        /**
         * Sets RDMA Read support.
         *
         * @param supported whether supported.
         * @return this.
         */
        public Builder rdmaReadSupport(final boolean supported)
        {
            this.rdmaReadSupport = supported;
            return this;
        }

        /**
         * Sets remote-atomics support.
         *
         * @param supported whether supported.
         * @return this.
         */
        public Builder atomicsSupport(final boolean supported)
        {
            this.atomicsSupport = supported;
            return this;
        }

        /**
         * Sets whether the target performs each VI's operations in posting order (see
         * {@link NicAttributes#orderedTargetAccess()}); false by default.
         *
         * @param ordered whether it does.
         * @return this.
         */
        public Builder orderedTargetAccess(final boolean ordered)
        {
            this.orderedTargetAccess = ordered;
            return this;
        }

        /**
         * Builds the attributes.
         *
         * @return immutable attributes.
         */
        public NicAttributes build()
        {
            return new NicAttributes(this);
        }
    }
}
