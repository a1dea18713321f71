package org.viadsm.via.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Where a thread waiting on a queue says it may be parked, so that a completer in the same JVM can unpark it. The
 * waiter arms the slot only after its spin phase, so a completer pays one volatile load per completion while the
 * waiter spins or nobody waits.
 */
final class WaitSlot
{
    private volatile Thread thread;

    void arm()
    {
        thread = Thread.currentThread();
    }

    void disarm()
    {
        thread = null;
    }

    void wake()
    {
        final Thread waiter = thread;
        if (null != waiter)
        {
            LockSupport.unpark(waiter);
        }
    }
}
