package org.viadsm.testsupport;

import java.util.concurrent.TimeUnit;

/**
 * Interrupts a thread from another one a little later, while it waits in the call under test; {@link #join()} waits
 * for the interrupting thread, so its interrupt cannot reach the waiter after the test moved on.
 * <pre>{@code
 * final Interrupter interrupter = Interrupter.interruptLater(Thread.currentThread(), 30, TimeUnit.MILLISECONDS);
 * assertThrows(InterruptedException.class, lock::lockInterruptibly);
 * interrupter.join();
 * }</pre>
 * An interrupt that comes before the wait begins finds the thread interrupted on entry, which every JUC-style wait
 * also answers with {@link InterruptedException}.
 */
public final class Interrupter
{
    private final Thread interrupting;

    private Interrupter(final Thread interrupting)
    {
        this.interrupting = interrupting;
    }

    /**
     * Starts a thread that interrupts {@code target} after {@code delay}.
     *
     * @param target the thread to interrupt, usually the caller.
     * @param delay  how long to wait first.
     * @param unit   the unit of {@code delay}.
     * @return the interrupter, to join once the interrupted call returned.
     */
    public static Interrupter interruptLater(final Thread target, final long delay, final TimeUnit unit)
    {
        final Thread interrupting = new Thread(() ->
        {
            try
            {
                unit.sleep(delay);
            }
            catch (final InterruptedException ignore)
            {
                // the delay cut short: interrupt now
            }
            target.interrupt();
        }, "interrupter of " + target.getName());
        interrupting.setDaemon(true);
        interrupting.start();
        return new Interrupter(interrupting);
    }

    /**
     * Waits for the interrupt to have been delivered.
     *
     * @throws InterruptedException if the closing thread is interrupted meanwhile.
     */
    public void join() throws InterruptedException
    {
        interrupting.join();
    }
}
