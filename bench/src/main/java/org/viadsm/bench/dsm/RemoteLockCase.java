package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.via.ViEndpoint;
import org.viadsm.dsm.DsmLock;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code dsm.lock_remote}: node 0 acquires and releases lock 1, which node 1 manages, uncontended (node 1 waits
 * at a barrier meanwhile); nothing is written, so no diffs. Baseline: one remote fetch-and-add on a word of node
 * 1's registered memory over a VI between the same processes, posted and waited for (one atomic round trip).
 */
final class RemoteLockCase extends NodeCase
{
    private final Descriptor atomic = Descriptor.allocate(1);
    private DsmLock lock;

    RemoteLockCase(final DsmRig rig)
    {
        super("dsm.lock_remote", "us",
            "one remote fetch-and-add on the other process's registered memory over a VI (shm), post + completion",
            "<=3 us", rig);
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
        return timeEach(warmup, iterations, i ->
        {
            lock.lock();
            lock.unlock();
        });
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
}
