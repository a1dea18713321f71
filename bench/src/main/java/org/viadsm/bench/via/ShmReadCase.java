package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryRegion;

/**
 * {@code shm.rdma_read_4KiB}: the latency of one RDMA Read (post, then {@code sendWait}) of a cold 4 KiB page of
 * the peer process's registered memory into the same page of this process's registered memory, against a plain
 * copy of a cold 4 KiB page from the peer's area of the raw file into this process's area. Pages are read in
 * order over areas larger than the last-level cache, after one untimed pass, so every timed page is cold in the
 * caches but mapped. The peer takes no part (an RDMA Read needs no target thread).
 */
final class ShmReadCase extends BenchCase
{
    private final ViaRig rig;
    private final int pages;

    ShmReadCase(final ViaRig rig)
    {
        super("shm.rdma_read_4KiB", "ns",
            "copy of a cold 4 KiB page from a /dev/shm file the peer filled into a cold local page (UnsafeBuffer)",
            "<= 4");
        this.rig = rig;
        this.pages = rig.coldLength() / ViEndpoint.PAGE_LENGTH;
    }

    @Override
    public void open()
    {
        rig.shm();
        rig.raw();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        final ViLink link = rig.shm();
        final Vi vi = link.local.vi;
        final MemoryRegion region = link.local.region;
        final Descriptor read = Descriptor.allocate(1);
        final Histogram histogram = BenchCase.histogram();
        final int total = pages + iterations;
        for (int i = 0; i < total; i++)
        {
            final long offset = ViEndpoint.coldPage(i % pages);
            final long startNs = System.nanoTime();
            vi.postSend(read.reset().rdmaRead(link.peerHandle, offset).addSegment(region, offset,
                ViEndpoint.PAGE_LENGTH));
            final Descriptor done = vi.sendWait(BenchCase.TIMEOUT_NS);
            final long endNs = System.nanoTime();
            if (null == done || done.isError())
            {
                throw new IllegalStateException("RDMA Read of page " + i % pages + " failed: status=0x" +
                    Integer.toHexString(read.status()));
            }
            if (i >= pages)
            {
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final RawMemory raw = rig.raw();
        final UnsafeBuffer buffer = raw.buffer;
        final int localOffset = raw.localColdOffset();
        final Histogram histogram = BenchCase.histogram();
        final int total = pages + iterations;
        for (int i = 0; i < total; i++)
        {
            final int offset = (i % pages) * ViEndpoint.PAGE_LENGTH;
            final long startNs = System.nanoTime();
            buffer.putBytes(localOffset + offset, buffer, RawMemory.PEER_COLD_OFFSET + offset, ViEndpoint.PAGE_LENGTH);
            final long endNs = System.nanoTime();
            if (i >= pages)
            {
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
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
