package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.BenchCase;
import org.viadsm.bench.via.ViEndpoint;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.SharedDoubleArray;

/**
 * {@code dsm.read_miss}: node 0 reads one element of each page of an array whose pages live at node 1 and are
 * invalid on node 0 (node 1 wrote one word of every page, then both passed a barrier), each read timed: fault,
 * RDMA Read of the page from its home, the load. Baseline: node 0 copies each 4 KiB page of a /dev/shm area that
 * node 1 wrote the same way into its own area. Pages are walked in order over {@code --cold-mib}, more than the
 * last-level cache, after one untimed pass (which also maps node 0's pages).
 */
final class ReadMissCase extends NodeCase
{
    private static final int PAGE_DOUBLES = ViEndpoint.PAGE_LENGTH / Double.BYTES;

    private final int pages;
    private SharedDoubleArray array;
    private long stamp;

    ReadMissCase(final DsmRig rig, final int coldLength)
    {
        super("dsm.read_miss", "us",
            "copy of a cold 4 KiB page the other process wrote, from a /dev/shm file both map, into a cold local page",
            "<=1 us", rig);
        this.pages = coldLength / ViEndpoint.PAGE_LENGTH;
    }

    @Override
    public int samples(final int iterations)
    {
        return pages;
    }

    @Override
    public void open()
    {
        array = rig.dsm.allocDoubles("bench.readmiss", pages * PAGE_DOUBLES, Placement.onNode(DsmRig.HELPER));
        rig.raw();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        final Histogram histogram = BenchCase.histogram();
        for (int pass = 0; pass < 2; pass++)
        {
            stamp++;
            if (rig.isHelper())
            {
                for (int page = 0; page < pages; page++)
                {
                    array.set(page * PAGE_DOUBLES, stamp);
                }
            }
            rig.dsm.barrier();
            if (rig.isMeasurer())
            {
                double sum = 0;
                for (int page = 0; page < pages; page++)
                {
                    final long startBytes = BenchCase.allocatedBytes();
                    final long startNs = System.nanoTime();
                    sum += array.get(page * PAGE_DOUBLES);
                    final long endNs = System.nanoTime();
                    if (1 == pass)
                    {
                        BenchCase.countAllocation(startBytes, 1);
                        BenchCase.record(histogram, endNs - startNs);
                    }
                }
                sink += (long)sum;
            }
            // the helper writes the next pass only after the measurer has read this one: without this barrier its
            // writes race with the reads, and a home that writes pages nobody has registered for yet sends no notice
            rig.dsm.barrier();
        }
        return placeholder(histogram);
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final RawShared raw = rig.raw();
        final UnsafeBuffer buffer = raw.buffer;
        final Histogram histogram = BenchCase.histogram();
        for (int pass = 0; pass < 2; pass++)
        {
            stamp++;
            if (rig.isHelper())
            {
                for (int page = 0; page < pages; page++)
                {
                    buffer.putLong(RawShared.HELPER_COLD_OFFSET + page * ViEndpoint.PAGE_LENGTH, stamp);
                }
            }
            rig.dsm.barrier();
            if (rig.isMeasurer())
            {
                final int to = raw.measurerColdOffset();
                for (int page = 0; page < pages; page++)
                {
                    final int offset = page * ViEndpoint.PAGE_LENGTH;
                    final long startBytes = BenchCase.allocatedBytes();
                    final long startNs = System.nanoTime();
                    buffer.putBytes(to + offset, buffer, RawShared.HELPER_COLD_OFFSET + offset, ViEndpoint.PAGE_LENGTH);
                    final long endNs = System.nanoTime();
                    if (1 == pass)
                    {
                        BenchCase.countAllocation(startBytes, 1);
                        BenchCase.record(histogram, endNs - startNs);
                    }
                }
            }
            rig.dsm.barrier();
        }
        return placeholder(histogram);
    }

    @Override
    public String note()
    {
        return "warm-up is one untimed pass over all " + pages + " pages, not --warmup; the DSM fetches no more " +
            "than the missing page (VIADSM_PREFETCH_PAGES=1)";
    }
}
