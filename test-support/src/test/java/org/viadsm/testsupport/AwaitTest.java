package org.viadsm.testsupport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AwaitTest
{
    @Test
    void shouldReturnOnceTheConditionHolds() throws Exception
    {
        final AtomicInteger checks = new AtomicInteger();
        Await.until(() -> checks.incrementAndGet() == 3, "the third check");
        assertEquals(3, checks.get());
    }

    @Test
    void shouldFailNamingWhatNeverHappened()
    {
        final AssertionError error = assertThrows(AssertionError.class,
            () -> Await.until(() -> false, 20, TimeUnit.MILLISECONDS, "node 2 reached its hang"));
        assertEquals("not within 20 milliseconds: node 2 reached its hang", error.getMessage());
    }
}
