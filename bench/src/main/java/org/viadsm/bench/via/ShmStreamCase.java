package org.viadsm.bench.via;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code shm.rdma_write_4KiB_stream}: the bandwidth of pipelined RDMA Writes of 4 KiB (no immediate data) from this
 * process's registered pages into the same pages of the peer's, up to {@link #WINDOW} descriptors outstanding and
 * completions taken with {@code sendDone}, against a plain copy loop between the two cold areas of the raw file.
 * Timed per batch of {@link #BATCH_PAGES} pages; the figure is bytes per batch over the batch's time, so the p99
 * column is the rate of the slowest 1% of batches.
 */
final class ShmStreamCase extends ColdPagesCase
{
    static final int WINDOW = 32;
    static final int BATCH_PAGES = 64;
    private static final int ITERATIONS_PER_BATCH = 16;

    private final Descriptor[] window = new Descriptor[WINDOW];
    private int slot;
    private int outstanding;

    ShmStreamCase(final ViaRig rig)
    {
        super("shm.rdma_write_4KiB_stream", "GB/s",
            "memcpy bandwidth: UnsafeBuffer.putBytes of 4 KiB pages between the two cold areas of a /dev/shm file",
            ">= 0.5", rig, BATCH_PAGES);
        for (int i = 0; i < WINDOW; i++)
        {
            window[i] = Descriptor.allocate(1);
        }
    }

    @Override
    public int samples(final int iterations)
    {
        return Math.max(1, iterations / ITERATIONS_PER_BATCH);
    }

    @Override
    void viaPages(final ViLink link, final int firstPage)
    {
        final Vi vi = link.local.vi;
        for (int page = firstPage; page < firstPage + BATCH_PAGES; page++)
        {
            if (WINDOW == outstanding)
            {
                reap(vi, vi.sendDone());
            }
            final long offset = ViEndpoint.coldPage(page);
            vi.postSend(window[slot].reset().rdmaWrite(link.peerHandle, offset)
                .addSegment(link.local.region, offset, ViEndpoint.PAGE_LENGTH));
            outstanding++;
            slot = (slot + 1) % WINDOW;
        }
    }

    @Override
    void drain(final ViLink link)
    {
        while (outstanding > 0)
        {
            reap(link.local.vi, null);
        }
    }

    private void reap(final Vi vi, final Descriptor done)
    {
        final Descriptor descriptor = null == done ? vi.sendWait(BenchCase.TIMEOUT_NS) : done;
        if (null == descriptor || descriptor.isError())
        {
            throw new IllegalStateException("RDMA Write did not complete: " +
                (null == descriptor ? "timed out" : "status=0x" + Integer.toHexString(descriptor.status())));
        }
        outstanding--;
    }

    @Override
    void rawPage(final UnsafeBuffer buffer, final int localOffset, final int peerOffset)
    {
        buffer.putBytes(peerOffset, buffer, localOffset, ViEndpoint.PAGE_LENGTH);
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
