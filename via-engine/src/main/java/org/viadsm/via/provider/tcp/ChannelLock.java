package org.viadsm.via.provider.tcp;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock of a channel: reentrant, held only for short non-blocking work (reading and handling what arrived,
 * staging and writing frames). A thread that finds it taken spins briefly, then yields its CPU (the holder may be
 * a thread waiting for one: on a machine with few cores, the engine thread preempted by spinning waiters), and
 * only then parks briefly between tries; nobody queues and nothing is allocated, and releasing costs a store, so
 * the common uncontended case is one compare-and-set each way.
 * <p>
 * Memory consistency effects: actions of a thread before it releases the lock happen-before those of the next
 * thread after it takes it.
 */
final class ChannelLock
{
    private static final int SPINS = 200;
    private static final int YIELDS = 200;
    private static final long PARK_NS = 10_000L;

    private final AtomicReference<Thread> owner = new AtomicReference<>();
    private int holds;

    /**
     * Takes the lock if it is free or already the caller's.
     *
     * @return false if another thread holds it.
     */
    boolean tryLock()
    {
        final Thread current = Thread.currentThread();
        if (owner.get() == current)
        {
            holds++;
            return true;
        }
        if (owner.compareAndSet(null, current))
        {
            holds = 1;
            return true;
        }
        return false;
    }

    /**
     * Takes the lock, waiting for it.
     */
    void lock()
    {
        int spins = 0;
        while (!tryLock())
        {
            if (++spins < SPINS)
            {
                Thread.onSpinWait();
            }
            else if (spins < SPINS + YIELDS)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(PARK_NS);
            }
        }
    }

    /**
     * Releases one hold; the last one frees the lock.
     */
    void unlock()
    {
        if (--holds == 0)
        {
            owner.setRelease(null);
        }
    }
}
