package org.viadsm.consistency.sync;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.StubPort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyncStateTest
{
    @Test
    void shouldCountANodeThatLeftAndThenFailedOnce()
    {
        final SyncState sync = new SyncState(new StubPort(0, 4), new Counters(), Long.MAX_VALUE);
        sync.onNotification(1, Notifications.of(Notifications.LEAVE, 0));
        sync.onPeerFailure(1, "disconnected");
        sync.onPeerFailure(1, "disconnected");
        sync.onNotification(2, Notifications.of(Notifications.LEAVE, 0));
        assertFalse(sync.awaitAllLeft(TimeUnit.MILLISECONDS.toNanos(50)), "node 3 has neither left nor failed");
        sync.onNotification(3, Notifications.of(Notifications.LEAVE, 0));
        assertTrue(sync.awaitAllLeft(TimeUnit.MILLISECONDS.toNanos(50)));
    }

    @Test
    void shouldNotFailABarrierTheLeaverTookPartIn()
    {
        final SyncState sync = new SyncState(new StubPort(0, 3), new Counters(), Long.MAX_VALUE);
        sync.onNotification(2, Notifications.of(Notifications.LEAVE, SyncState.leaveArgument(5)));
        sync.onNotification(1, Notifications.of(Notifications.BARRIER, BarrierMailbox.barrierArgument(0, 1, 1)));
        assertEquals(SyncWait.PENDING, sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 1, 1, 5, untimed()));
    }

    @Test
    void shouldFailABarrierTheLeaverNeverReachedAndStayBroken()
    {
        final SyncState sync = new SyncState(new StubPort(0, 3), new Counters(), Long.MAX_VALUE);
        sync.onNotification(2, Notifications.of(Notifications.LEAVE, SyncState.leaveArgument(4)));
        final ProtocolException ex = assertThrows(ProtocolException.class,
            () -> sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 2, 5, untimed()));
        assertEquals("node 0: node 2 left the cluster while this node waited for barrier 5", ex.getMessage());
        final ProtocolException later = assertThrows(ProtocolException.class, sync::ensureUsable);
        assertEquals("node 0: unusable after an earlier failure: node 2 left the cluster while this node waited " +
            "for barrier 5", later.getMessage());
    }

    @Test
    void shouldFailWhenPeersMakeDifferentCollectiveCalls()
    {
        final SyncState sync = new SyncState(new StubPort(0, 2), new Counters(), Long.MAX_VALUE);
        sync.onNotification(1, Notifications.of(Notifications.BARRIER, BarrierMailbox.barrierArgument(1, 1, 0)));
        final ProtocolException ex = assertThrows(ProtocolException.class,
            () -> sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 1, 1, untimed()));
        assertTrue(ex.getMessage().contains("node 1 is in an allocation or another collective while this node is " +
            "in a barrier"), ex.getMessage());
    }

    @Test
    void shouldTimeOutAWaitForAGrantThatNeverComes()
    {
        final SyncState sync = new SyncState(new StubPort(0, 2), new Counters(), TimeUnit.MILLISECONDS.toNanos(30));
        final SyncWait wait = untimed();
        final ProtocolException ex = assertThrows(ProtocolException.class, () ->
        {
            while (!sync.takeGrant(3))
            {
                sync.awaitStep(wait, "lock ", 3);
            }
        });
        assertEquals("node 0: timed out after 30 ms waiting for lock 3", ex.getMessage());
    }

    @Test
    void shouldEndABoundedBarrierWaitByTimeoutOrInterruptAndWhenBroken()
    {
        final SyncState sync = new SyncState(new StubPort(0, 2), new Counters(), Long.MAX_VALUE);
        assertEquals(SyncWait.TIMED_OUT, sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 1, 1,
            new SyncWait().start(TimeUnit.MILLISECONDS.toNanos(5), true)));
        Thread.currentThread().interrupt();
        assertEquals(SyncWait.INTERRUPTED, sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 1, 1,
            new SyncWait().start(SyncWait.NO_TIMEOUT, true)));
        assertFalse(Thread.currentThread().isInterrupted(), "an interrupt that ends a wait is consumed");
        sync.onNotification(1, Notifications.of(Notifications.BROKEN,
            BarrierMailbox.brokenArgument(SyncState.BROKEN_BY_TIMEOUT, 2)));
        assertEquals("node 1 timed out in it", sync.barrierBroken());
        sync.onNotification(1, Notifications.of(Notifications.BARRIER, BarrierMailbox.barrierArgument(0, 1, 0)));
        assertEquals(SyncWait.PENDING, sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 1, 1, untimed()),
            "a barrier before the broken one completes");
        assertEquals(SyncState.BROKEN, sync.awaitBarrier(SyncState.FULL_BARRIER, 0, 0, 1, 2, untimed()));
        assertEquals(SyncState.BROKEN, sync.awaitBarrier(SyncState.FULL_BARRIER, 1, 0, 1, 3, untimed()));
    }

    private static SyncWait untimed()
    {
        return new SyncWait().start(SyncWait.NO_TIMEOUT, false);
    }
}
