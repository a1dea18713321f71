package org.viadsm.testsupport;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits for a condition another thread or process brings about, with a bound, so a test that goes wrong fails
 * naming what never happened instead of hanging.
 */
public final class Await
{
    /** How long {@link #until(BooleanSupplier, String)} waits: long enough for the slowest machine. */
    public static final long TIMEOUT_SECONDS = 60;

    private Await()
    {
    }

    /**
     * Returns once the condition holds; fails the test if it does not within {@link #TIMEOUT_SECONDS}.
     *
     * @param condition checked every 10 ms.
     * @param what      what the condition means, for the failure: e.g. "node 2 reached its hang".
     * @throws InterruptedException if the thread is interrupted while it waits.
     */
    public static void until(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        until(condition, TIMEOUT_SECONDS, TimeUnit.SECONDS, what);
    }

    /**
     * Returns once the condition holds; fails the test if it does not within the timeout.
     *
     * @param condition checked every 10 ms.
     * @param timeout   how long to wait.
     * @param unit      the unit of {@code timeout}.
     * @param what      what the condition means, for the failure.
     * @throws InterruptedException if the thread is interrupted while it waits.
     */
    public static void until(final BooleanSupplier condition, final long timeout, final TimeUnit unit,
        final String what) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + unit.toNanos(timeout);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs >= 0)
            {
                fail("not within " + timeout + " " + unit.toString().toLowerCase(Locale.ROOT) + ": " + what);
            }
            Thread.sleep(10);
        }
    }
}
