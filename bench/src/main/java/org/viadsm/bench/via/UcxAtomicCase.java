package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code ucx.atomic_faa}: the latency of one remote fetch-and-add (post, then {@code sendWait}) on a word of the
 * peer process's registered memory over the ucx provider, against {@code ucp_atomic_op_nbx} on a word of the
 * peer's UCX-allocated memory through a raw jucx endpoint, progressed until done. The peer takes no part (UCX's
 * shared-memory transports do atomics one-sided).
 */
final class UcxAtomicCase extends BenchCase
{
    /** The word both add to: in the message area, which no ping-pong uses meanwhile. */
    private static final int WORD_OFFSET = ViEndpoint.WRITE_OFFSET + 8 * 1024;

    private final ViaRig rig;
    private final Descriptor atomic = Descriptor.allocate(1);
    private final SpinParkIdle idle = new SpinParkIdle("jucx atomic");

    UcxAtomicCase(final ViaRig rig)
    {
        super("ucx.atomic_faa", "ns", "ucp_atomic_op_nbx fetch-and-add (through FFM, jucx has none) on a word of " +
            "the peer's UCX-allocated memory, progressed until done", "<= 1.5");
        this.rig = rig;
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
    public Histogram measure(final int warmup, final int iterations)
    {
        final ViLink link = rig.ucx();
        final Histogram histogram = BenchCase.histogram();
        for (int sample = 0; sample < warmup + iterations; sample++)
        {
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            link.postSendAndWait(atomic.reset().fetchAndAdd(link.peerHandle, WORD_OFFSET, 1)
                .addSegment(link.local.region, WORD_OFFSET, Long.BYTES), "fetch-and-add at offset", WORD_OFFSET);
            final long endNs = System.nanoTime();
            if (sample >= warmup)
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
        final RawAtomic raw = new RawAtomic(ucx);
        final long endpoint = ucx.endpoint().getNativeId();
        final long key = rig.rawUcxPeerKey().getNativeId();
        final long word = rig.rawUcxPeerAddress() + WORD_OFFSET;
        final Histogram histogram = BenchCase.histogram();
        for (int sample = 0; sample < warmup + iterations; sample++)
        {
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            raw.fetchAdd(endpoint, word, key, 1, idle);
            final long endNs = System.nanoTime();
            if (sample >= warmup)
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
}
