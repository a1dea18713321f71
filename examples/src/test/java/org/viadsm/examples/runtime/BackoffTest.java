package org.viadsm.examples.runtime;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class BackoffTest
{
    @Test
    void shouldSpinThenParkUntilTheTimeout()
    {
        final Backoff backoff = new Backoff(TimeUnit.MILLISECONDS.toNanos(20));
        for (int i = 0; i < Backoff.SPIN_TRIES; i++)
        {
            assertTrue(backoff.idle());
        }
        int parks = 0;
        while (backoff.idle())
        {
            parks++;
        }
        assertTrue(parks >= 1, "parks=" + parks);
        assertFalse(backoff.idle());
    }

    @Test
    void shouldStartAFreshWaitOnReset()
    {
        final Backoff backoff = new Backoff(0);
        while (backoff.idle())
        {
            Thread.onSpinWait();
        }
        backoff.reset();
        assertTrue(backoff.idle());
    }
}
