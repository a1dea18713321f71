package org.viadsm.testsupport;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An interrupter ends the wait of the thread it targets, once.
 */
class InterrupterTest
{
    @Test
    @Timeout(60)
    void shouldInterruptAWaitingThreadAndBeDoneOnceClosed() throws Exception
    {
        final CountDownLatch never = new CountDownLatch(1);
        final Interrupter interrupter = Interrupter.interruptLater(Thread.currentThread(), 10, TimeUnit.MILLISECONDS);
        assertThrows(InterruptedException.class, never::await);
        interrupter.join();
        assertFalse(Thread.interrupted(), "one interrupt, taken by the wait");
    }
}
