package org.viadsm.dsm;

import java.util.Arrays;

/**
 * A node's handles of the cluster's locks and semaphores, made on first use: every call with the same id returns
 * the same object. Handles are kept in arrays indexed by id, grown to the highest id used, so that a program that
 * looks its lock up at every acquire (as the SPLASH ports do) pays one array load, not a hash lookup.
 * <p>
 * <b>Note:</b> used by the thread that uses the node.
 */
final class SyncObjects
{
    private final Dsm dsm;
    private final int maxLocks;
    private final int maxSemaphores;
    private DsmLock[] locks = new DsmLock[0];
    private DsmSemaphore[] semaphores = new DsmSemaphore[0];

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
        if (id < locks.length && null != locks[id])
        {
            return locks[id];
        }
        if (id >= locks.length)
        {
            locks = Arrays.copyOf(locks, grownLength(id, maxLocks));
        }
        final DsmLock lock = new DsmLock(dsm, id);
        locks[id] = lock;
        return lock;
    }

    /** See {@link Dsm#semaphore(int)}. */
    DsmSemaphore semaphore(final int id)
    {
        checkId("semaphore", id, maxSemaphores);
        if (id < semaphores.length && null != semaphores[id])
        {
            return semaphores[id];
        }
        if (id >= semaphores.length)
        {
            semaphores = Arrays.copyOf(semaphores, grownLength(id, maxSemaphores));
        }
        final DsmSemaphore semaphore = new DsmSemaphore(dsm, id);
        semaphores[id] = semaphore;
        return semaphore;
    }

    /** A length that holds {@code id}: at least double the id, so that growing costs O(1) per handle, capped. */
    private static int grownLength(final int id, final int limit)
    {
        return (int)Math.min(limit, Math.max(16L, 2L * id + 1));
    }

    private static void checkId(final String kind, final int id, final int limit)
    {
        if (id < 0 || id >= limit)
        {
            throw new IllegalArgumentException(kind + " id must be in [0, " + limit + "): " + id);
        }
    }
}
