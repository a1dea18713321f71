package org.viadsm.via.engine;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.internal.AgronaAccess;

/**
 * Where a thread waiting on a queue says it may be asleep, so that a completer can wake it: an eventcount. The
 * waiter arms the slot only after its spin phase (and, for a bell, its doze: see {@link Idler}), so a completer pays
 * a fence and one load per completion while the waiter spins or dozes, or nobody waits.
 * <p>
 * A slot of a queue that completers in other processes feed (a receive queue, a completion queue) has a sleeper
 * word in the NIC's shared area. A waiter that sleeps on a {@link Bell} arms the slot with it, which stores the
 * bell's id (plus 1) in the word with volatile semantics, then checks its queue once more before it blocks; a
 * completer publishes its completion, issues a full fence, and only then reads the word (in this process: the armed
 * thread), so that one of the two sees the other: either the waiter's check finds the completion, or the completer
 * finds the sleeper and wakes it (a thread of this process by unpark and {@link Bell#wakeup()}, one of another
 * process by taking the word with {@link #takeSleeper(AtomicBuffer, int)} and ringing the bell). No wake-up is
 * lost that way; a ring that fails (the bell closed, a socket error) leaves the waiter to its bounded sleep.
 * <p>
 * A slot without a sleeper word (a send queue, completed on the posting thread or by the provider's engine) keeps
 * the completer's check unfenced, so a completion racing the arming can miss the waiter: such waits poll with a
 * bounded park ({@link org.viadsm.via.WaitSettings#parkMaxNs()}), so the completion is late, never lost.
 */
final class WaitSlot extends WaitSlotFields
{
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
     * A slot without a sleeper word: its waits poll.
     */
    WaitSlot()
    {
        this(null, 0);
    }

    /**
     * A slot whose waits may sleep, announcing their bell in a sleeper word.
     *
     * @param sleeperBuffer the NIC's shared area, or null for a slot without a sleeper word.
     * @param sleeperOffset offset of the sleeper word in it.
     */
    WaitSlot(final AtomicBuffer sleeperBuffer, final int sleeperOffset)
    {
        super(sleeperBuffer, sleeperOffset);
    }

    /**
     * Whether the completers of this slot fence before they look for a sleeper, so that a waiter may sleep long.
     *
     * @return true for a slot with a sleeper word.
     */
    boolean isFenced()
    {
        return null != sleeperBuffer;
    }

    /**
     * Says the calling thread may park, or sleep on a bell, and announces the bell in the sleeper word.
     *
     * @param bell the bell the thread will sleep on, or null if it parks.
     */
    void arm(final Bell bell)
    {
        armedBell = bell;
        thread = Thread.currentThread();
        announce();
    }

    /**
     * Announces the armed bell in the sleeper word again, with volatile semantics, before the waiter checks
     * its queue and sleeps once more (a completer that rang took the word).
     */
    void announce()
    {
        final Bell bell = armedBell;
        if (null != bell && null != sleeperBuffer)
        {
            sleeperBuffer.putIntVolatile(sleeperOffset, bell.id() + 1);
        }
        // the caller's next check of its queue is an acquire load, which may pass a volatile store: this fence
        // pairs with the completer's, so that one of the two sees the other
        VarHandle.fullFence();
    }

    /**
     * Says nobody waits.
     */
    void disarm()
    {
        thread = null;
        if (null != armedBell)
        {
            armedBell = null;
            if (null != sleeperBuffer)
            {
                sleeperBuffer.putIntVolatile(sleeperOffset, 0);
            }
        }
    }

    /**
     * Wakes the armed thread, if any; for a slot with a sleeper word, after a full fence that orders the caller's
     * completion before the check.
     */
    void wake()
    {
        if (null != sleeperBuffer)
        {
            VarHandle.fullFence();
        }
        wakeArmed();
    }

    /**
     * Wakes the armed thread, if any; the caller has fenced its completion already.
     */
    void wakeArmed()
    {
        final Thread waiter = thread;
        if (null != waiter)
        {
            LockSupport.unpark(waiter);
            final Bell bell = armedBell;
            if (null != bell)
            {
                bell.wakeup();
            }
        }
    }

    /**
     * Completer side: takes the bell announced in a sleeper word, so that exactly one completer rings it per
     * announcement. The caller has published its completion and issued a full fence.
     *
     * @param buffer the area holding the word.
     * @param offset the word's offset.
     * @return the bell's id, or -1 if nobody sleeps (or another completer took it).
     */
    static int takeSleeper(final AtomicBuffer buffer, final int offset)
    {
        final int word = buffer.getIntVolatile(offset);
        return 0 != word && buffer.compareAndSetInt(offset, word, 0) ? word - 1 : -1;
    }
}

/**
 * A wait slot's fields, between padding: completers in other threads read them on every completion, while the
 * objects allocated next to the slot (its queue, the queue's descriptor FIFO and idler) are written on every call.
 */
abstract class WaitSlotFields extends LinePadding
{
    final UnsafeBuffer sleeperBuffer;
    final int sleeperOffset;
    volatile Thread thread;
    volatile Bell armedBell;

    WaitSlotFields(final AtomicBuffer sleeperBuffer, final int sleeperOffset)
    {
        this.sleeperBuffer = AgronaAccess.unsafeBuffer(sleeperBuffer);
        this.sleeperOffset = sleeperOffset;
    }
}
