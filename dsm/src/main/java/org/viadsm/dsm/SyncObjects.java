package org.viadsm.dsm;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * A node's handles of the cluster's locks and semaphores, made on first use: every call with the same id returns
 * the same object. Handles are kept in arrays indexed by id, grown to the highest id used, so that a program that
 * looks its lock up at every acquire (as the SPLASH ports do) pays one array load, not a hash lookup.
 * <p>
 * <b>Note:</b> used by the thread that uses the node.
 */
final class SyncObjects
{
    private final Handles<DsmLock> locks;
    private final Handles<DsmSemaphore> semaphores;

    SyncObjects(final Dsm dsm, final NodeGuard guard, final int maxLocks, final int maxSemaphores)
    {
        this.locks = new Handles<>("lock", maxLocks, id -> new DsmLock(dsm, guard, id));
        this.semaphores = new Handles<>("semaphore", maxSemaphores, id -> new DsmSemaphore(dsm, id));
    }

    /** See {@link Dsm#lock(int)}. */
    DsmLock lock(final int id)
    {
        return locks.get(id);
    }

    /** See {@link Dsm#semaphore(int)}. */
    DsmSemaphore semaphore(final int id)
    {
        return semaphores.get(id);
    }

    /**
     * The handles of one kind, by id in {@code [0, limit)}.
     */
    private static final class Handles<T>
    {
        private final String kind;
        private final int limit;
        private final IntFunction<T> factory;
        private Object[] byId = new Object[0];

        Handles(final String kind, final int limit, final IntFunction<T> factory)
        {
            this.kind = kind;
            this.limit = limit;
            this.factory = factory;
        }

        @SuppressWarnings("unchecked") // only factory-made handles are stored
        T get(final int id)
        {
            if (id < 0 || id >= limit)
            {
                throw new IllegalArgumentException(kind + " id must be in [0, " + limit + "): " + id);
            }
            if (id < byId.length && null != byId[id])
            {
                return (T)byId[id];
            }
            if (id >= byId.length)
            {
                // at least double the id, so that growing costs O(1) per handle, capped at the limit
                byId = Arrays.copyOf(byId, (int)Math.min(limit, Math.max(16L, 2L * id + 1)));
            }
            final T handle = factory.apply(id);
            byId[id] = handle;
            return handle;
        }
    }
}
