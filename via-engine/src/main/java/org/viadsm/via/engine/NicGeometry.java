package org.viadsm.via.engine;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.viadsm.via.memory.MemoryHandle;

import static org.viadsm.via.engine.NicLayout.SECTION_ALIGNMENT;

/**
 * The sizes of a NIC's shared area and where each section starts: header, registration table, VI records,
 * completion queues, asynchronous-error ring, connection-request ring. Immutable; written into the header by the
 * owner and read back from it by peers, so that a peer needs nothing but the header to find its way.
 */
public final class NicGeometry
{
    /** Default capacity of the asynchronous-error ring. */
    public static final int ERROR_RING_CAPACITY_DEFAULT = 64 * 1024;
    /** Default capacity of the connection-request ring. */
    public static final int REQUEST_RING_CAPACITY_DEFAULT = 64 * 1024;

    private final int maxVis;
    private final int queueDepth;
    private final int maxSegments;
    private final int maxCqs;
    private final int cqSlots;
    private final int maxRegions;
    private final int errorRingCapacity;
    private final int requestRingCapacity;
    private final int registrationOffset;
    private final int viRecordsOffset;
    private final int viRecordLength;
    private final int cqsOffset;
    private final int cqLength;
    private final int errorRingOffset;
    private final int requestRingOffset;
    private final int areaLength;

    /**
     * Creates a geometry.
     *
     * @param maxVis              VI records, 1 to 65535.
     * @param queueDepth          descriptors per work queue, a power of two from 2 to 65536.
     * @param maxSegments         data segments per descriptor, 1 to 256.
     * @param maxCqs              completion queues, 1 to 4096.
     * @param cqSlots             entries per completion queue, a power of two from 2 to 2^24.
     * @param maxRegions          registration-table entries, 1 to {@link MemoryHandle#MAX_ENTRIES}.
     * @param errorRingCapacity   bytes of the error ring, a power of two of at least 1024.
     * @param requestRingCapacity bytes of the request ring, a power of two of at least 1024.
     * @throws IllegalArgumentException naming the value out of range, or if the area would exceed 2 GiB.
     */
    public NicGeometry(
        final int maxVis,
        final int queueDepth,
        final int maxSegments,
        final int maxCqs,
        final int cqSlots,
        final int maxRegions,
        final int errorRingCapacity,
        final int requestRingCapacity)
    {
        checkRange("maxVis", maxVis, 1, 0xFFFF);
        checkPowerOfTwo("queueDepth", queueDepth, 2, 1 << 16);
        checkRange("maxSegments", maxSegments, 1, 256);
        checkRange("maxCqs", maxCqs, 1, 4096);
        checkPowerOfTwo("cqSlots", cqSlots, 2, 1 << 24);
        checkRange("maxRegions", maxRegions, 1, MemoryHandle.MAX_ENTRIES);
        checkPowerOfTwo("errorRingCapacity", errorRingCapacity, 1024, 1 << 24);
        checkPowerOfTwo("requestRingCapacity", requestRingCapacity, 1024, 1 << 24);
        this.maxVis = maxVis;
        this.queueDepth = queueDepth;
        this.maxSegments = maxSegments;
        this.maxCqs = maxCqs;
        this.cqSlots = cqSlots;
        this.maxRegions = maxRegions;
        this.errorRingCapacity = errorRingCapacity;
        this.requestRingCapacity = requestRingCapacity;

        final long trailer = RingBufferDescriptor.TRAILER_LENGTH;
        this.viRecordLength = ViRecordLayout.recordLength(queueDepth, maxSegments);
        this.cqLength = CqLayout.length(cqSlots);
        long offset = NicLayout.HEADER_LENGTH;
        this.registrationOffset = (int)offset;
        offset = align(offset + (long)maxRegions * RegistrationLayout.ENTRY_LENGTH);
        this.viRecordsOffset = checkedOffset(offset);
        offset = align(offset + (long)maxVis * viRecordLength);
        this.cqsOffset = checkedOffset(offset);
        offset = align(offset + (long)maxCqs * cqLength);
        this.errorRingOffset = checkedOffset(offset);
        offset = align(offset + errorRingCapacity + trailer);
        this.requestRingOffset = checkedOffset(offset);
        offset = BitUtil.align(offset + requestRingCapacity + trailer, 4096);
        this.areaLength = checkedOffset(offset);
    }

    /**
     * Reads the geometry a NIC's owner wrote into its header.
     *
     * @param header the area, from its first byte.
     * @return the geometry.
     * @throws IllegalArgumentException if the header holds values out of range.
     */
    public static NicGeometry read(final AtomicBuffer header)
    {
        return new NicGeometry(
            header.getInt(NicLayout.MAX_VIS_OFFSET),
            header.getInt(NicLayout.QUEUE_DEPTH_OFFSET),
            header.getInt(NicLayout.MAX_SEGMENTS_OFFSET),
            header.getInt(NicLayout.MAX_CQS_OFFSET),
            header.getInt(NicLayout.CQ_SLOTS_OFFSET),
            header.getInt(NicLayout.MAX_REGIONS_OFFSET),
            header.getInt(NicLayout.ERROR_RING_CAPACITY_OFFSET),
            header.getInt(NicLayout.REQUEST_RING_CAPACITY_OFFSET));
    }

    /**
     * Writes the geometry into a header.
     *
     * @param header the area, from its first byte.
     */
    public void write(final AtomicBuffer header)
    {
        header.putInt(NicLayout.MAX_VIS_OFFSET, maxVis);
        header.putInt(NicLayout.QUEUE_DEPTH_OFFSET, queueDepth);
        header.putInt(NicLayout.MAX_SEGMENTS_OFFSET, maxSegments);
        header.putInt(NicLayout.MAX_CQS_OFFSET, maxCqs);
        header.putInt(NicLayout.CQ_SLOTS_OFFSET, cqSlots);
        header.putInt(NicLayout.MAX_REGIONS_OFFSET, maxRegions);
        header.putInt(NicLayout.ERROR_RING_CAPACITY_OFFSET, errorRingCapacity);
        header.putInt(NicLayout.REQUEST_RING_CAPACITY_OFFSET, requestRingCapacity);
    }

    /**
     * VI records in the area.
     *
     * @return the VI limit.
     */
    public int maxVis()
    {
        return maxVis;
    }

    /**
     * Descriptors per work queue.
     *
     * @return a power of two.
     */
    public int queueDepth()
    {
        return queueDepth;
    }

    /**
     * Data segments per descriptor.
     *
     * @return the segment limit.
     */
    public int maxSegments()
    {
        return maxSegments;
    }

    /**
     * Completion queues in the area.
     *
     * @return the completion-queue limit.
     */
    public int maxCqs()
    {
        return maxCqs;
    }

    /**
     * Entries each completion queue can hold at most.
     *
     * @return a power of two.
     */
    public int cqSlots()
    {
        return cqSlots;
    }

    /**
     * Registration-table entries.
     *
     * @return the table size.
     */
    public int maxRegions()
    {
        return maxRegions;
    }

    /**
     * Offset of the registration table.
     *
     * @return the offset.
     */
    public int registrationOffset()
    {
        return registrationOffset;
    }

    /**
     * Offset of VI record {@code viId}.
     *
     * @param viId a VI id below {@link #maxVis()}.
     * @return the record's offset.
     */
    public int viRecordOffset(final int viId)
    {
        return viRecordsOffset + viId * viRecordLength;
    }

    /**
     * Bytes of one VI record, its receive ring included.
     *
     * @return the record length.
     */
    public int viRecordLength()
    {
        return viRecordLength;
    }

    /**
     * Offset of completion queue {@code cqId}.
     *
     * @param cqId a completion-queue id below {@link #maxCqs()}.
     * @return the queue's offset.
     */
    public int cqOffset(final int cqId)
    {
        return cqsOffset + cqId * cqLength;
    }

    /**
     * Bytes of one completion queue.
     *
     * @return the queue length.
     */
    public int cqLength()
    {
        return cqLength;
    }

    /**
     * Offset of the asynchronous-error ring.
     *
     * @return the offset.
     */
    public int errorRingOffset()
    {
        return errorRingOffset;
    }

    /**
     * Bytes of the error ring, its trailer included.
     *
     * @return the length.
     */
    public int errorRingLength()
    {
        return errorRingCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Offset of the connection-request ring.
     *
     * @return the offset.
     */
    public int requestRingOffset()
    {
        return requestRingOffset;
    }

    /**
     * Bytes of the request ring, its trailer included.
     *
     * @return the length.
     */
    public int requestRingLength()
    {
        return requestRingCapacity + RingBufferDescriptor.TRAILER_LENGTH;
    }

    /**
     * Bytes of the whole area, rounded up to a page.
     *
     * @return the area length.
     */
    public int areaLength()
    {
        return areaLength;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "NicGeometry{maxVis=" + maxVis + ", queueDepth=" + queueDepth + ", maxSegments=" + maxSegments +
            ", maxCqs=" + maxCqs + ", cqSlots=" + cqSlots + ", maxRegions=" + maxRegions +
            ", areaLength=" + areaLength + '}';
    }

    private static long align(final long offset)
    {
        return (offset + SECTION_ALIGNMENT - 1) & -SECTION_ALIGNMENT;
    }

    private static int checkedOffset(final long offset)
    {
        if (offset > Integer.MAX_VALUE - 4096)
        {
            throw new IllegalArgumentException("NIC area would exceed 2 GiB: length=" + offset);
        }
        return (int)offset;
    }

    private static void checkRange(final String name, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + name + "=" + value);
        }
    }

    private static void checkPowerOfTwo(final String name, final int value, final int min, final int max)
    {
        checkRange(name, value, min, max);
        if (!BitUtil.isPowerOfTwo(value))
        {
            throw new IllegalArgumentException(name + " must be a power of two: " + name + "=" + value);
        }
    }
}
