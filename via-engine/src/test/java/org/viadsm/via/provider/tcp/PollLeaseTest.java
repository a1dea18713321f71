package org.viadsm.via.provider.tcp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class PollLeaseTest
{
    /** A lease, and engine sleeps, far longer than the test: the engine thread wakes only when it is woken. */
    private static final long LONG_NS = TimeUnit.MINUTES.toNanos(10);

    @Test
    void shouldLeaveTheEngineAsleepWhenABlockedWaitEnds() throws InterruptedException
    {
        final PollLease lease = new PollLease(LONG_NS, LONG_NS);
        lease.hold(System.nanoTime() + LONG_NS);
        final AtomicInteger sleeps = new AtomicInteger();
        final Thread engine = startEngine(lease, sleeps);
        awaitSleeping(engine);

        lease.onBlockedWaitEnd();
        lease.onBlockedWaitEnd();
        awaitSleeping(engine);
        lease.release();
        engine.join();

        assertEquals(1, sleeps.get(), "the engine thread slept once, until the lease was released");
    }

    @Test
    void shouldLetTheEngineGoOnOnceTheLeaseIsReleased() throws InterruptedException
    {
        final PollLease lease = new PollLease(LONG_NS, LONG_NS);
        assertFalse(lease.sleepIfHeld(System.nanoTime()), "nobody holds the lease");
        lease.hold(System.nanoTime() + LONG_NS);
        final AtomicInteger sleeps = new AtomicInteger();
        final Thread engine = startEngine(lease, sleeps);
        awaitSleeping(engine);

        lease.release();
        engine.join();

        assertEquals(1, sleeps.get());
        assertFalse(lease.sleepIfHeld(System.nanoTime()));
    }

    private static Thread startEngine(final PollLease lease, final AtomicInteger sleeps)
    {
        final Thread engine = new Thread(() ->
        {
            while (lease.sleepIfHeld(System.nanoTime()))
            {
                sleeps.incrementAndGet();
            }
        }, "poll-lease-engine");
        lease.engine(engine);
        engine.setDaemon(true);
        engine.start();
        return engine;
    }

    private static void awaitSleeping(final Thread engine)
    {
        while (Thread.State.TIMED_WAITING != engine.getState())
        {
            assertTrue(engine.isAlive(), "the engine thread ended without being released");
            Thread.onSpinWait();
        }
    }
}
