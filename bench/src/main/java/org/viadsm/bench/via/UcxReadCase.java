package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code ucx.rdma_read_4KiB}: the latency of one RDMA Read (post, then {@code sendWait}) of a cold 4 KiB page of
 * the peer process's registered memory over the ucx provider, against a jucx get of a cold 4 KiB page of the peer's
 * UCX-allocated memory, progressed until done. Both go over the pages in order, after an untimed pass; the peer
 * takes no part (UCX gets are one-sided over shared memory).
 */
final class UcxReadCase extends BenchCase
{
    private final ViaRig rig;
    private final int pages;
    private final Descriptor read = Descriptor.allocate(1);
    private final SpinParkIdle idle = new SpinParkIdle("jucx get");

    UcxReadCase(final ViaRig rig)
    {
        super("ucx.rdma_read_4KiB", "ns", "jucx getNonBlocking of a cold 4 KiB page of the peer's UCX-allocated " +
            "memory into a cold local page, progressed until done", "<= 1.5");
        this.rig = rig;
        this.pages = rig.coldLength() / ViEndpoint.PAGE_LENGTH;
    }

    @Override
    public String unavailableReason()
    {
        return ViaRig.ucxUnavailableReason();
    }

    @Override
    public void open()
    {
        rig.openUcx();
    }

    @Override
    public int samples(final int iterations)
    {
        return iterations;
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        final ViLink link = rig.ucx();
        final Histogram histogram = BenchCase.histogram();
        for (int sample = 0; sample < pages + iterations; sample++)
        {
            final long offset = ViEndpoint.coldPage(sample % pages);
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            link.postSendAndWait(read.reset().rdmaRead(link.peerHandle, offset)
                .addSegment(link.local.region, offset, ViEndpoint.PAGE_LENGTH), "RDMA Read of page", sample % pages);
            final long endNs = System.nanoTime();
            if (sample >= pages)
            {
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final RawUcx ucx = rig.rawUcx();
        final UcpRemoteKey key = rig.rawUcxPeerKey();
        final long peerAddress = rig.rawUcxPeerAddress();
        final long localAddress = ucx.memory().getAddress();
        final Histogram histogram = BenchCase.histogram();
        for (int sample = 0; sample < pages + iterations; sample++)
        {
            final long offset = (long)(sample % pages) * ViEndpoint.PAGE_LENGTH;
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            ucx.await(ucx.endpoint().getNonBlocking(peerAddress + offset, key, localAddress + offset,
                ViEndpoint.PAGE_LENGTH, null), idle);
            final long endNs = System.nanoTime();
            if (sample >= pages)
            {
                BenchCase.countAllocation(startBytes, 1);
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
        return "warm-up is one untimed pass over all " + pages + " cold pages, not --warmup";
    }
}
