package org.viadsm.bench.dsm;

import java.util.concurrent.locks.ReentrantLock;

import org.HdrHistogram.Histogram;
import org.viadsm.dsm.DsmLock;

/**
 * {@code dsm.lock_cached}: node 0 re-acquires and releases lock 1, which node 1 manages, while the lock stays
 * cached at node 0 (node 0 released it last and nobody asked for it since): {@code lock()} + {@code unlock()} with
 * no remote operation. Each sample times a batch of {@value #BATCH} pairs; the figure is one pair. Baseline: an
 * uncontended {@link ReentrantLock} {@code lock()} + {@code unlock()} in the same process.
 */
final class CachedLockCase extends NodeCase
{
    private static final int BATCH = 100;

    private final ReentrantLock plain = new ReentrantLock();
    private DsmLock lock;

    CachedLockCase(final DsmRig rig)
    {
        super("dsm.lock_cached", "us", "uncontended java.util.concurrent ReentrantLock lock() + unlock()", "<=0.1 us",
            rig);
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
        if (rig.isMeasurer())
        {
            lock.lock();
            lock.unlock();
        }
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return timeEach(warmup / 10, samples(iterations), i ->
        {
            for (int j = 0; j < BATCH; j++)
            {
                lock.lock();
                lock.unlock();
            }
        });
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        return timeEach(warmup / 10, samples(iterations), i ->
        {
            for (int j = 0; j < BATCH; j++)
            {
                plain.lock();
                plain.unlock();
            }
        });
    }

    @Override
    public double figure(final double sampleNs)
    {
        return sampleNs / BATCH / 1000.0;
    }
}
