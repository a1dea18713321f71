package org.viadsm.dsm;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * A node's handles of the cluster's locks and semaphores, made on first use: every call with the same id returns
 * the same object.
 * <p>
 * <b>Note:</b> used by the thread that uses the node.
 */
final class SyncObjects
{
    private final Dsm dsm;
    private final int maxLocks;
    private final int maxSemaphores;
    private final Int2ObjectHashMap<DsmLock> locks = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<DsmSemaphore> semaphores = new Int2ObjectHashMap<>();

    SyncObjects(final Dsm dsm, final int maxLocks, final int maxSemaphores)
    {
        this.dsm = dsm;
        this.maxLocks = maxLocks;
        this.maxSemaphores = maxSemaphores;
    }

    /** See {@link Dsm#lock(int)}. */
    DsmLock lock(final int id)
    {
        checkId("lock", id, maxLocks);
        DsmLock lock = locks.get(id);
        if (null == lock)
        {
            lock = new DsmLock(dsm, id);
            locks.put(id, lock);
        }
        return lock;
    }

    /** See {@link Dsm#semaphore(int)}. */
    DsmSemaphore semaphore(final int id)
    {
        checkId("semaphore", id, maxSemaphores);
        DsmSemaphore semaphore = semaphores.get(id);
        if (null == semaphore)
        {
            semaphore = new DsmSemaphore(dsm, id);
            semaphores.put(id, semaphore);
        }
        return semaphore;
    }

    private static void checkId(final String kind, final int id, final int limit)
    {
        if (id < 0 || id >= limit)
        {
            throw new IllegalArgumentException(kind + " id must be in [0, " + limit + "): " + id);
        }
    }
}
