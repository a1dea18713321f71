package org.viadsm.via.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the calls inside a NIC that may touch its shared area or mapped memory, so that closing the NIC releases
 * that memory only once the last call has left, whichever thread that is. Each work queue and completion queue
 * counts its own calls in a {@link Counter} on cache lines of its own, and control calls share one: a thread calling
 * into its queue writes no line a thread of another queue writes.
 * <p>
 * A call enters by incrementing its counter, then reads the closed flag; closing sets the flag, then reads the
 * counters. Both are sequentially consistent, so either the call sees the NIC closed (and leaves at once) or the
 * closer sees the call inside (and waits for it, or leaves the release to it). The counter of a work queue, which
 * one thread at a time calls, counts with a volatile store to enter and a release store to leave: a late store on
 * leaving only makes the closer wait a little longer; the other counters count with atomic increments.
 * <p>
 * <b>Note:</b> thread-safe. Counters are made under the NIC's lock, before any call can use them.
 */
final class CallGate
{
    private final String nicAddress;
    private final Counter[] counters;
    private final AtomicBoolean released = new AtomicBoolean();
    private final Runnable release;
    private volatile boolean closed;

    /**
     * A gate for a NIC's queues.
     *
     * @param nicAddress the NIC's address, for the message of a call into a closed NIC.
     * @param maxVis     the NIC's VI limit: two counters each.
     * @param maxCqs     its completion-queue limit: one each.
     * @param release    what releases the NIC's memory, run once, by the last call to leave after the gate closed.
     */
    CallGate(final String nicAddress, final int maxVis, final int maxCqs, final Runnable release)
    {
        this.nicAddress = nicAddress;
        this.counters = new Counter[1 + 2 * maxVis + maxCqs];
        this.counters[0] = new Counter(false);
        this.release = release;
    }

    /**
     * The counter of a VI's send queue, made on first need.
     *
     * @param viId the VI id.
     * @return the counter, for one thread at a time.
     */
    Counter sendQueue(final int viId)
    {
        return counter(1 + 2 * viId, true);
    }

    /**
     * The counter of a VI's receive queue, made on first need.
     *
     * @param viId the VI id.
     * @return the counter, for one thread at a time.
     */
    Counter recvQueue(final int viId)
    {
        return counter(2 + 2 * viId, true);
    }

    /**
     * The counter of a completion queue, made on first need.
     *
     * @param cqId the completion-queue id.
     * @return the counter, for any thread.
     */
    Counter cq(final int cqId)
    {
        return counter(counters.length - cqId - 1, false);
    }

    /**
     * The counter of control calls.
     *
     * @return the counter, for any thread.
     */
    Counter control()
    {
        return counters[0];
    }

    /**
     * Whether the gate is closed.
     *
     * @return true once closed.
     */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * Enters a call if the gate is open; pair a true return with {@link #exit} in a finally.
     *
     * @param counter the calling queue's counter.
     * @return false if the gate is closed: the call must touch nothing, and must not {@link #exit} (it left).
     */
    boolean tryEnter(final Counter counter)
    {
        counter.increment();
        if (closed)
        {
            exit(counter);
            return false;
        }
        return true;
    }

    /**
     * Enters a call; pair with {@link #exit} in a finally.
     *
     * @param counter the calling queue's counter.
     * @throws IllegalStateException if the gate is closed.
     */
    void enter(final Counter counter)
    {
        if (!tryEnter(counter))
        {
            throw new IllegalStateException("NIC " + nicAddress + " is closed");
        }
    }

    /**
     * Leaves a call; the last call to leave a closed gate releases the NIC's memory.
     *
     * @param counter the calling queue's counter.
     */
    void exit(final Counter counter)
    {
        if (0 == counter.decrement() && closed)
        {
            releaseIfIdle();
        }
    }

    /**
     * Closes the gate, from inside a control call; the memory is released when the last call (that one, at the
     * latest) leaves.
     */
    void close()
    {
        closed = true;
    }

    /**
     * After {@link #close()}: gives the calls still inside (waits end within a park once the NIC is closed) a grace
     * period to leave, until only {@code own} remain. Calls still inside afterwards keep the memory mapped; the last
     * of them releases it.
     *
     * @param own     the calls of the closing thread: the closing call, and the call that ran the error handler
     *                closing the NIC, if it did.
     * @param graceNs the longest wait.
     */
    void awaitOthers(final int own, final long graceNs)
    {
        final long deadlineNs = System.nanoTime() + graceNs;
        while (inside() > own && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(100_000L);
        }
    }

    private int inside()
    {
        int inside = 0;
        for (final Counter counter : counters)
        {
            if (null != counter)
            {
                inside += counter.get();
            }
        }
        return inside;
    }

    private void releaseIfIdle()
    {
        if (0 == inside() && released.compareAndSet(false, true))
        {
            release.run();
        }
    }

    private Counter counter(final int slot, final boolean alone)
    {
        Counter counter = counters[slot];
        if (null == counter)
        {
            counter = new Counter(alone);
            counters[slot] = counter;
        }
        return counter;
    }

    /**
     * A counter's value.
     */
    abstract static class Value extends LinePadding
    {
        volatile int inside;
    }

    /**
     * The calls inside one queue, on cache lines no other counter shares.
     */
    static final class Counter extends Value
    {
        private static final VarHandle INSIDE;

        static
        {
            try
            {
                INSIDE = MethodHandles.lookup().findVarHandle(Value.class, "inside", int.class);
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new ExceptionInInitializerError(ex);
            }
        }

        private final boolean alone;
        long p16;
        long p17;
        long p18;
        long p19;
        long p20;
        long p21;
        long p22;
        long p23;
        long p24;
        long p25;
        long p26;
        long p27;
        long p28;
        long p29;
        long p30;

        /**
         * A counter.
         *
         * @param alone true if one thread at a time writes it (a work queue's), which then counts with plain
         *              arithmetic and ordered stores instead of atomic read-modify-writes.
         */
        Counter(final boolean alone)
        {
            this.alone = alone;
        }

        void increment()
        {
            if (alone)
            {
                INSIDE.setVolatile(this, inside + 1);
            }
            else
            {
                INSIDE.getAndAdd(this, 1);
            }
        }

        int decrement()
        {
            if (alone)
            {
                final int value = inside - 1;
                INSIDE.setRelease(this, value);
                return value;
            }
            return (int)INSIDE.getAndAdd(this, -1) - 1;
        }

        int get()
        {
            return inside;
        }
    }
}
