package org.viadsm.via.provider.ucx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock of a {@link UcxLink}'s send queue: a reentrant lock taken with one compare-and-set and released with a
 * release store, where a Java monitor takes one compare-and-set to enter and another to leave. Posting on an idle
 * queue takes it once per descriptor, and the poster rarely meets another thread in it (a progress round of
 * another thread, a liveness check), so a thread that finds it held spins briefly, then yields, then parks for
 * short periods. The holder is kept as its thread's id rather than a reference to the thread, so that taking the
 * lock stores no reference (which a collector's write barrier would mark).
 * <p>
 * <b>Note:</b> thread-safe. Pair each {@link #lock()} with an {@link #unlock()} in a finally, on the same thread.
 */
final class LinkLock
{
    private static final VarHandle OWNER;
    private static final int SPINS = 100;
    private static final int YIELDS = 100;
    private static final long PARK_NS = 10_000L;

    static
    {
        try
        {
            OWNER = MethodHandles.lookup().findVarHandle(LinkLock.class, "owner", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    // the holder's thread id, 0 when free (thread ids are positive)
    @SuppressWarnings("unused") // written through OWNER
    private volatile long owner;
    // holds beyond the first by the owner; only the owner reads or writes it
    private int reentries;

    /**
     * Takes the lock, waiting for another thread holding it; a thread holding it already takes it once more.
     */
    void lock()
    {
        final long self = Thread.currentThread().threadId();
        if (!OWNER.compareAndSet(this, 0L, self))
        {
            lockContended(self);
        }
    }

    /**
     * Releases one hold of the lock.
     *
     * @throws IllegalStateException if the calling thread does not hold it.
     */
    void unlock()
    {
        // the owner first: another thread must neither release the lock nor take one of its holder's holds
        if ((long)OWNER.getOpaque(this) != Thread.currentThread().threadId())
        {
            throw new IllegalStateException("the link's lock is not held by " + Thread.currentThread().getName());
        }
        if (reentries > 0)
        {
            reentries--;
            return;
        }
        OWNER.setRelease(this, 0L);
    }

    /**
     * Whether the calling thread holds the lock.
     *
     * @return true if it does.
     */
    boolean isHeldByCurrentThread()
    {
        return (long)OWNER.getOpaque(this) == Thread.currentThread().threadId();
    }

    private void lockContended(final long self)
    {
        if ((long)OWNER.getOpaque(this) == self)
        {
            reentries++;
            return;
        }
        int waits = 0;
        while (!OWNER.compareAndSet(this, 0L, self))
        {
            if (waits < SPINS)
            {
                Thread.onSpinWait();
            }
            else if (waits < SPINS + YIELDS)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(PARK_NS);
            }
            waits++;
        }
    }
}
