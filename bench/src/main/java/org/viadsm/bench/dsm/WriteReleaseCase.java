package org.viadsm.bench.dsm;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.via.ViEndpoint;
import org.viadsm.dsm.DsmLock;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.via.descriptor.Descriptor;

/**
 * {@code dsm.write_release_1word}: node 0 holds lock 0 (which it manages, so acquiring it is local and untimed),
 * then the timed part: it writes one word of a valid page whose home is node 1 (write fault, twin) and releases
 * the lock (diff against the twin, one RDMA Write of the changed word into the home's copy, the interval's write
 * notice, the lock's release). Pages rotate over 16. Baseline: one 8-byte RDMA Write from node 0's registered
 * memory into node 1's over a VI between the same processes, posted and waited for.
 */
final class WriteReleaseCase extends NodeCase
{
    private static final int PAGES = 16;
    private static final int PAGE_DOUBLES = ViEndpoint.PAGE_LENGTH / Double.BYTES;

    private final Descriptor write = Descriptor.allocate(1);
    private SharedDoubleArray array;
    private DsmLock lock;

    WriteReleaseCase(final DsmRig rig)
    {
        super("dsm.write_release_1word", "us",
            "one 8-byte RDMA Write into the other process's registered memory over a VI (shm), post + completion",
            "-", rig);
    }

    @Override
    public void open()
    {
        array = rig.dsm.allocDoubles("bench.release", PAGES * PAGE_DOUBLES, Placement.onNode(DsmRig.HELPER));
        lock = rig.dsm.lock(DsmRig.MEASURER);
        if (rig.isMeasurer())
        {
            for (int page = 0; page < PAGES; page++)
            {
                sink += (long)array.get(page * PAGE_DOUBLES);
            }
        }
        rig.vi();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return timeEach(warmup, iterations, i -> lock.lock(), i ->
        {
            array.set((i % PAGES) * PAGE_DOUBLES + (i / PAGES) % PAGE_DOUBLES, i);
            lock.unlock();
        });
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final ViEndpoint vi = rig.vi();
        return timeEach(warmup, iterations, i ->
        {
            vi.region().buffer().putLong(ViEndpoint.SEND_OFFSET, i);
            vi.vi().postSend(write.reset().rdmaWrite(rig.peerHandle(), ViEndpoint.WRITE_OFFSET + (i & 7) * 8L)
                .addSegment(vi.region(), ViEndpoint.SEND_OFFSET, 8));
            Completions.check(vi.vi().sendWait(TIMEOUT_NS), write, "RDMA Write");
        });
    }
}
