package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bells of a ucx NIC, made on first need and lent to sleeping threads, one each: as many exist as threads
 * ever slept on the NIC at once. If the worker has no event file descriptor, or a bell cannot be made, the NIC
 * lends none from then on and its waits poll.
 * <p>
 * Threads blocked in the transport ({@link UcxTransport#block(long)}: waits on a send queue, a connection) are woken
 * whenever another thread's progress on the NIC did work ({@link #wakeBlocked()}), since such completions (a send
 * acknowledged, a read done) are polled by whoever makes progress and reach no bell of their own.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class UcxBells implements AutoCloseable
{
    private final UcxTransport nic;
    private final long worker;
    private final int workerFd;
    private final int max;
    private final ArrayDeque<UcxBell> free = new ArrayDeque<>();
    private final AtomicInteger blocked = new AtomicInteger();
    private volatile UcxBell[] all = new UcxBell[0];
    private boolean failed;
    private boolean closed;

    /**
     * Makes no bell yet.
     *
     * @param nic    the NIC.
     * @param worker its worker, created with the wake-up feature.
     * @param max    the most bells to make.
     */
    UcxBells(final UcxTransport nic, final long worker, final int max)
    {
        this.nic = nic;
        this.worker = worker;
        this.max = max;
        this.workerFd = workerFd(worker);
        this.failed = workerFd < 0;
    }

    private static int workerFd(final long worker)
    {
        final MemorySegment fd = Arena.ofAuto().allocate(ValueLayout.JAVA_INT);
        return Ucp.OK == Ucp.workerEventFd(worker, fd.address()) ? fd.get(ValueLayout.JAVA_INT, 0) : -1;
    }

    /**
     * Lends a bell to the calling thread.
     *
     * @param blocks whether the thread blocks in the transport, see {@link #wakeBlocked()}.
     * @return the bell, or null if there is none to lend.
     */
    UcxBell acquire(final boolean blocks)
    {
        final UcxBell bell;
        synchronized (this)
        {
            if (closed || failed)
            {
                return null;
            }
            UcxBell next = free.pollFirst();
            if (null == next && all.length < max)
            {
                next = UcxBell.open(all.length, nic, worker, workerFd);
                if (null == next)
                {
                    failed = true;
                    return null;
                }
                final UcxBell[] grown = Arrays.copyOf(all, all.length + 1);
                grown[next.id()] = next;
                all = grown;
            }
            bell = next;
        }
        if (null != bell)
        {
            bell.lend(blocks);
            if (blocks)
            {
                blocked.incrementAndGet();
            }
        }
        return bell;
    }

    void release(final UcxBell bell)
    {
        if (bell.isBlocking())
        {
            blocked.decrementAndGet();
        }
        bell.giveBack();
        synchronized (this)
        {
            if (!closed)
            {
                free.addFirst(bell);
            }
        }
    }

    /**
     * Wakes the threads blocked in the transport, but the caller: the caller's progress did work, which may have
     * completed what they wait for. One volatile load when none is.
     */
    void wakeBlocked()
    {
        if (0 == blocked.get())
        {
            return;
        }
        final Thread current = Thread.currentThread();
        for (final UcxBell bell : all)
        {
            if (bell.isBlocking() && current != bell.owner())
            {
                bell.wakeup();
            }
        }
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        for (final UcxBell bell : all)
        {
            bell.close();
        }
        all = new UcxBell[0];
        free.clear();
    }
}
