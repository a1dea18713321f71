package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.BenchCase;

/**
 * A row over cold pages: the NIC moves pages between this process's registered memory and the peer's, the baseline
 * copies the same number of pages between the two cold areas of the raw file. Pages go in order over areas larger
 * than the last-level cache, so every timed page is cold in the caches; one untimed pass first maps them all.
 * Each sample times {@code pagesPerSample} pages.
 */
abstract class ColdPagesCase extends BenchCase
{
    final ViaRig rig;
    final int pages;
    private final int pagesPerSample;

    ColdPagesCase(
        final String metric, final String unit, final String baselineName, final String target, final ViaRig rig,
        final int pagesPerSample)
    {
        super(metric, unit, baselineName, target);
        this.rig = rig;
        this.pages = rig.coldLength() / ViEndpoint.PAGE_LENGTH;
        this.pagesPerSample = pagesPerSample;
    }

    @Override
    public final void open()
    {
        rig.shm();
        rig.raw();
    }

    /**
     * Moves {@code pagesPerSample} pages through the NIC.
     *
     * @param link      the shm link.
     * @param firstPage the first page.
     */
    abstract void viaPages(ViLink link, int firstPage);

    /**
     * Takes back whatever the NIC still owns once the samples are done.
     *
     * @param link the shm link.
     */
    void drain(final ViLink link)
    {
    }

    @Override
    public final Histogram measure(final int warmup, final int iterations)
    {
        final ViLink link = rig.shm();
        final Histogram histogram = BenchCase.histogram();
        final int warm = pages / pagesPerSample;
        final int total = warm + samples(iterations);
        for (int sample = 0; sample < total; sample++)
        {
            final int firstPage = sample * pagesPerSample % pages;
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            viaPages(link, firstPage);
            final long endNs = System.nanoTime();
            if (sample >= warm)
            {
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        drain(link);
        return histogram;
    }

    @Override
    public final Histogram baseline(final int warmup, final int iterations)
    {
        final RawMemory raw = rig.raw();
        final UnsafeBuffer buffer = raw.buffer;
        final int localOffset = raw.localColdOffset();
        final Histogram histogram = BenchCase.histogram();
        final int warm = pages / pagesPerSample;
        final int total = warm + samples(iterations);
        for (int sample = 0; sample < total; sample++)
        {
            final int firstOffset = sample * pagesPerSample % pages * ViEndpoint.PAGE_LENGTH;
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            for (int k = 0; k < pagesPerSample; k++)
            {
                final int offset = firstOffset + k * ViEndpoint.PAGE_LENGTH;
                rawPage(buffer, localOffset + offset, RawMemory.PEER_COLD_OFFSET + offset);
            }
            final long endNs = System.nanoTime();
            if (sample >= warm)
            {
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        return histogram;
    }

    /**
     * Copies one page of the raw file, in the direction the NIC moves pages.
     *
     * @param buffer      the raw file.
     * @param localOffset the page in this process's area.
     * @param peerOffset  the page in the peer's area.
     */
    abstract void rawPage(UnsafeBuffer buffer, int localOffset, int peerOffset);
}
