package org.viadsm.bench.via;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code shm.rdma_read_4KiB}: the latency of one RDMA Read (post, then {@code sendWait}) of a cold 4 KiB page of
 * the peer process's registered memory into the same page of this process's registered memory, against a plain
 * copy of a cold 4 KiB page from the peer's area of the raw file into this process's area. The peer takes no part
 * (an RDMA Read needs no target thread).
 */
final class ShmReadCase extends ColdPagesCase
{
    private final Descriptor read = Descriptor.allocate(1);

    ShmReadCase(final ViaRig rig)
    {
        super("shm.rdma_read_4KiB", "ns",
            "copy of a cold 4 KiB page from a /dev/shm file the peer filled into a cold local page (UnsafeBuffer)",
            "<= 4", rig, 1);
    }

    @Override
    public int samples(final int iterations)
    {
        return iterations;
    }

    @Override
    void viaPages(final ViLink link, final int firstPage)
    {
        final long offset = ViEndpoint.coldPage(firstPage);
        link.postSendAndWait(read.reset().rdmaRead(link.peerHandle, offset)
            .addSegment(link.local.region, offset, ViEndpoint.PAGE_LENGTH), "RDMA Read of page", firstPage);
    }

    @Override
    void rawPage(final UnsafeBuffer buffer, final int localOffset, final int peerOffset)
    {
        buffer.putBytes(localOffset, buffer, peerOffset, ViEndpoint.PAGE_LENGTH);
    }

    @Override
    public double figure(final double sampleNs)
    {
        return sampleNs;
    }

    @Override
    public String note()
    {
        return "warm-up is one untimed pass over all " + pages + " cold pages (maps them), not --warmup";
    }
}
