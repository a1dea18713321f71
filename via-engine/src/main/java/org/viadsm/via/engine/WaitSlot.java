package org.viadsm.via.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Where a thread waiting on a queue says it may be parked, so that a completer in the same JVM can unpark it. The
 * waiter arms the slot only after its spin phase, so a completer pays one volatile load per completion while the
 * waiter spins or nobody waits.
 * <p>
 * The completer's release store of a status and its load of the slot are not fenced against the waiter's arming
 * and re-check (that fence would cost every completion), so a completion racing the arming can miss the waiter:
 * the waiter then wakes at the end of its bounded park, so the completion is late, never lost.
 */
public final class WaitSlot
{
    private volatile Thread thread;

    /**
     * Says the calling thread may park.
     */
    public void arm()
    {
        thread = Thread.currentThread();
    }

    /**
     * Says nobody waits.
     */
    public void disarm()
    {
        thread = null;
    }

    /**
     * Unparks the armed thread, if any.
     */
    public void wake()
    {
        final Thread waiter = thread;
        if (null != waiter)
        {
            LockSupport.unpark(waiter);
        }
    }
}
