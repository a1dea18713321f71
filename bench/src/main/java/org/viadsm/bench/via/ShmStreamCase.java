package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryRegion;

/**
 * {@code shm.rdma_write_4KiB_stream}: the bandwidth of pipelined RDMA Writes of 4 KiB (no immediate data) from this
 * process's registered pages into the same pages of the peer's, up to {@link #WINDOW} descriptors outstanding and
 * completions taken with {@code sendDone}, against a plain copy loop between the two cold areas of the raw file.
 * Timed per batch of {@link #BATCH_PAGES} pages, in order over areas larger than the last-level cache; the figure
 * is bytes per batch over the batch's time, so the p99 column is the rate of the slowest 1% of batches.
 */
final class ShmStreamCase extends BenchCase
{
    static final int WINDOW = 32;
    static final int BATCH_PAGES = 64;
    private static final int BATCHES_PER_ITERATION = 16;

    private final ViaRig rig;
    private final int pages;
    private final Descriptor[] window = new Descriptor[WINDOW];

    ShmStreamCase(final ViaRig rig)
    {
        super("shm.rdma_write_4KiB_stream", "GB/s",
            "memcpy bandwidth: UnsafeBuffer.putBytes of 4 KiB pages between the two cold areas of a /dev/shm file",
            ">= 0.5");
        this.rig = rig;
        this.pages = rig.coldLength() / ViEndpoint.PAGE_LENGTH;
        for (int i = 0; i < WINDOW; i++)
        {
            window[i] = Descriptor.allocate(1);
        }
    }

    @Override
    public void open()
    {
        rig.shm();
        rig.raw();
    }

    private int batches(final int iterations)
    {
        return Math.max(1, iterations / BATCHES_PER_ITERATION);
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        final ViLink link = rig.shm();
        final Vi vi = link.local.vi;
        final MemoryRegion region = link.local.region;
        final Histogram histogram = BenchCase.histogram();
        final int warmBatches = pages / BATCH_PAGES;
        final int total = warmBatches + batches(iterations);
        int page = 0;
        int slot = 0;
        int outstanding = 0;
        for (int batch = 0; batch < total; batch++)
        {
            final long startNs = System.nanoTime();
            for (int k = 0; k < BATCH_PAGES; k++)
            {
                final Descriptor write = window[slot];
                if (WINDOW == outstanding)
                {
                    reap(vi, vi.sendDone());
                    outstanding--;
                }
                final long offset = ViEndpoint.coldPage(page);
                vi.postSend(write.reset().rdmaWrite(link.peerHandle, offset)
                    .addSegment(region, offset, ViEndpoint.PAGE_LENGTH));
                outstanding++;
                slot = (slot + 1) % WINDOW;
                page = (page + 1) % pages;
            }
            final long endNs = System.nanoTime();
            if (batch >= warmBatches)
            {
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        for (; outstanding > 0; outstanding--)
        {
            reap(vi, vi.sendWait(BenchCase.TIMEOUT_NS));
        }
        return histogram;
    }

    private static void reap(final Vi vi, final Descriptor done)
    {
        final Descriptor descriptor = null == done ? vi.sendWait(BenchCase.TIMEOUT_NS) : done;
        if (null == descriptor || descriptor.isError())
        {
            throw new IllegalStateException("RDMA Write did not complete: " +
                (null == descriptor ? "timed out" : "status=0x" + Integer.toHexString(descriptor.status())));
        }
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final RawMemory raw = rig.raw();
        final UnsafeBuffer buffer = raw.buffer;
        final int localOffset = raw.localColdOffset();
        final Histogram histogram = BenchCase.histogram();
        final int warmBatches = pages / BATCH_PAGES;
        final int total = warmBatches + batches(iterations);
        int page = 0;
        for (int batch = 0; batch < total; batch++)
        {
            final long startNs = System.nanoTime();
            for (int k = 0; k < BATCH_PAGES; k++)
            {
                final int offset = page * ViEndpoint.PAGE_LENGTH;
                buffer.putBytes(RawMemory.PEER_COLD_OFFSET + offset, buffer, localOffset + offset,
                    ViEndpoint.PAGE_LENGTH);
                page = (page + 1) % pages;
            }
            final long endNs = System.nanoTime();
            if (batch >= warmBatches)
            {
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
    }

    @Override
    public double figure(final double sampleNs)
    {
        return (double)BATCH_PAGES * ViEndpoint.PAGE_LENGTH / sampleNs;
    }

    @Override
    public String note()
    {
        return "batches of " + BATCH_PAGES + " pages; warm-up is one untimed pass over the cold pages";
    }
}
