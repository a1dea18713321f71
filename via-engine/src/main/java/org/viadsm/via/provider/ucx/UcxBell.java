package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.via.engine.Bell;

/**
 * What a thread of a ucx NIC sleeps on past its spin phase: the UCX worker's event file descriptor, armed, which
 * becomes readable when a peer's message, an answer or a completion reaches the worker, and an event file
 * descriptor of its own, which the threads of this process write to wake it ({@link #wakeup()}: a completion they
 * made for its queue). It blocks in {@code ppoll} on both, then makes progress, so that what woke it is taken
 * before its queue is checked again.
 * <p>
 * A wake-up is never lost: {@link #wakeup()} marks the bell rung, fences, and writes to the descriptor only if the
 * owner is asleep; {@link #await(long)} marks the owner asleep, fences, and blocks only if the bell was not rung;
 * one of the two sees the other (an eventcount, as {@link org.viadsm.via.engine.WaitSlot}).
 * <p>
 * <b>Note:</b> {@link #await(long)} is called by the one thread the NIC lent the bell to, {@link #wakeup()} by any
 * thread, {@link #close()} by the thread closing the NIC.
 */
final class UcxBell implements Bell, AutoCloseable
{
    private static final long MAX_SLEEP_NS = 1_000_000_000L;

    private final int id;
    private final UcxTransport nic;
    private final long worker;
    private final int eventFd;
    private final MemorySegment fds;
    private final MemorySegment timeout;
    private final MemorySegment counter;
    private final MemorySegment one;
    private volatile boolean sleeping;
    private volatile boolean rung;
    private volatile Thread owner;
    private volatile boolean blocking;
    private volatile boolean closed;

    private UcxBell(final int id, final UcxTransport nic, final long worker, final int workerFd, final int eventFd)
    {
        this.id = id;
        this.nic = nic;
        this.worker = worker;
        this.eventFd = eventFd;
        // freed by the garbage collector: a thread may still be leaving a call with these addresses as it closes
        final Arena arena = Arena.ofAuto();
        this.fds = arena.allocate(2 * Posix.POLL_FD_LENGTH, 8);
        this.timeout = arena.allocate(Posix.TIMESPEC_LENGTH, 8);
        this.counter = arena.allocate(8, 8);
        this.one = arena.allocate(8, 8);
        one.set(ValueLayout.JAVA_LONG, 0, 1L);
        fds.set(ValueLayout.JAVA_INT, 0, workerFd);
        fds.set(ValueLayout.JAVA_SHORT, 4, Posix.POLL_IN);
        fds.set(ValueLayout.JAVA_INT, Posix.POLL_FD_LENGTH, eventFd);
        fds.set(ValueLayout.JAVA_SHORT, Posix.POLL_FD_LENGTH + 4, Posix.POLL_IN);
    }

    /**
     * Makes a bell on a worker's event file descriptor.
     *
     * @return the bell, or null if no event file descriptor could be made (out of descriptors).
     */
    static UcxBell open(final int id, final UcxTransport nic, final long worker, final int workerFd)
    {
        final int eventFd = Posix.eventFd();
        return eventFd < 0 ? null : new UcxBell(id, nic, worker, workerFd, eventFd);
    }

    @Override
    public int id()
    {
        return id;
    }

    /**
     * Lends the bell to the calling thread; a ring for its previous owner is forgotten.
     *
     * @param blocks true if the thread blocks in the transport (a wait nobody fences for), so that progress by
     *               other threads wakes it ({@link UcxBells#wakeBlocked()}).
     */
    void lend(final boolean blocks)
    {
        rung = false;
        blocking = blocks;
        owner = Thread.currentThread();
    }

    void giveBack()
    {
        owner = null;
        blocking = false;
    }

    boolean isBlocking()
    {
        return blocking;
    }

    Thread owner()
    {
        return owner;
    }

    /**
     * Makes progress; if there was none to make and nobody rang, arms the worker and blocks until it has an event,
     * the bell rings or the timeout passes; then makes progress again. An interrupt does not end the block: the
     * callers' sleeps are short ({@link org.viadsm.via.WaitSettings#sleepMaxNs()}) and check for it between them.
     */
    @Override
    public void await(final long timeoutNs)
    {
        sleeping = true;
        VarHandle.fullFence();
        if (!rung && 0 == nic.progress(false))
        {
            final long ns = Math.max(1, Math.min(timeoutNs, MAX_SLEEP_NS));
            final int armed = Ucp.armWorker(worker);
            if (Ucp.OK == armed)
            {
                timeout.set(ValueLayout.JAVA_LONG, 0, ns / 1_000_000_000L);
                timeout.set(ValueLayout.JAVA_LONG, 8, ns % 1_000_000_000L);
                if (Posix.ppoll(fds.address(), 2, timeout.address()) > 0 &&
                    0 != (fds.get(ValueLayout.JAVA_SHORT, Posix.POLL_FD_LENGTH + 6) & Posix.POLL_IN))
                {
                    Posix.read(eventFd, counter.address(), 8);
                }
            }
            else if (Ucp.ERR_BUSY != armed)
            {
                // the worker cannot signal (an interface without events): poll at the sleep's pace, never spin
                LockSupport.parkNanos(ns);
            }
        }
        sleeping = false;
        rung = false;
        nic.progress(false);
    }

    @Override
    public void wakeup()
    {
        rung = true;
        VarHandle.fullFence();
        if (sleeping && !closed)
        {
            Posix.write(eventFd, one.address(), 8);
        }
    }

    @Override
    public void close()
    {
        closed = true;
        Posix.close(eventFd);
    }
}
