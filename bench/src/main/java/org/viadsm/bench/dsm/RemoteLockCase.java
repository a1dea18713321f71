package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.bench.via.ViEndpoint;
import org.viadsm.dsm.DsmLock;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code dsm.lock_remote}: node 0 acquires and releases lock 1, which node 1 manages and released last (a lock
 * that migrates between nodes, as BARNES' and WATER's do, but uncontended): the acquire joins the queue's tail at
 * node 1 and takes the lock from node 1's queue element, the release leaves it cached at node 0; nothing is
 * written, so no diffs. Before each timed pair, untimed, node 1 takes the lock back and the two nodes pass a DSM
 * barrier on either side of its pair. Samples come in chunks of {@value #CHUNK}; after each chunk node 0 decides
 * for both whether the count or the time budget is reached. Baseline: one remote fetch-and-add on a word of node
 * 1's registered memory over a VI between the same processes, posted and waited for (one atomic round trip).
 */
final class RemoteLockCase extends NodeCase
{
    private static final int CHUNK = 50;

    private final Descriptor atomic = Descriptor.allocate(1);
    private DsmLock lock;

    RemoteLockCase(final DsmRig rig)
    {
        super("dsm.lock_remote", "us",
            "one remote fetch-and-add on the other process's registered memory over a VI (shm), post + completion",
            "<=1 us", rig);
    }

    @Override
    public int samples(final int iterations)
    {
        return Math.max(1, iterations / 10);
    }

    @Override
    public void open()
    {
        lock = rig.dsm.lock(DsmRig.HELPER);
        rig.vi();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        final Histogram histogram = BenchCase.histogram();
        final int samples = samples(iterations);
        for (int i = 0; i < warmup / 10; i++)
        {
            handOver(null);
        }
        final long deadlineNs = System.nanoTime() + budgetNs();
        boolean stop = false;
        while (!stop)
        {
            for (int i = 0; i < CHUNK; i++)
            {
                handOver(histogram);
            }
            stop = rig.agree(histogram.getTotalCount() >= samples || System.nanoTime() - deadlineNs > 0);
        }
        return placeholder(rig.isMeasurer() ? histogram : BenchCase.histogram());
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final ViEndpoint vi = rig.vi();
        return timeEach(warmup, iterations, i ->
        {
            vi.vi().postSend(atomic.reset().fetchAndAdd(rig.peerHandle(), ViEndpoint.WRITE_OFFSET, 1)
                .addSegment(vi.region(), ViEndpoint.RECV_OFFSET, 8));
            Completions.check(vi.vi().sendWait(TIMEOUT_NS), atomic, "fetch-and-add");
        });
    }

    /** Node 1 takes the lock, then node 0 takes it back, timed; each waits for the other at a barrier. */
    private void handOver(final Histogram histogram)
    {
        if (rig.isHelper())
        {
            lock.lock();
            lock.unlock();
        }
        rig.dsm.barrier();
        if (rig.isMeasurer())
        {
            final long startBytes = BenchCase.allocatedBytes();
            final long startNs = System.nanoTime();
            lock.lock();
            lock.unlock();
            final long endNs = System.nanoTime();
            if (null != histogram)
            {
                BenchCase.countAllocation(startBytes, 1);
                BenchCase.record(histogram, endNs - startNs);
            }
        }
        rig.dsm.barrier();
    }
}
