package org.viadsm.consistency.sync;

/**
 * The bounds of one wait, as java.util.concurrent waits have them: an optional timeout, and whether an interrupt
 * ends the wait. An interrupt that may not end it is taken off the thread for the wait (the engine's waits return
 * at once while the thread is interrupted) and put back by {@link #finish()}.
 * <p>
 * <b>Note:</b> not thread-safe; each protocol keeps one for its waits, which its node's thread makes one at a time.
 */
public final class SyncWait
{
    /** A timeout that means none. */
    public static final long NO_TIMEOUT = Long.MAX_VALUE;
    /** The wait goes on. */
    public static final int PENDING = 0;
    /** The timeout passed. */
    public static final int TIMED_OUT = -1;
    /** The thread was interrupted and the wait is interruptible. */
    public static final int INTERRUPTED = -2;

    private long startNs;
    private long deadlineNs;
    private boolean hasDeadline;
    private boolean timed;
    private boolean interruptible;
    private boolean swallowed;

    /**
     * Creates a wait, started by {@link #start(long, boolean)}.
     */
    public SyncWait()
    {
    }

    /**
     * Starts a wait.
     *
     * @param timeoutNs     longest wait, {@link #NO_TIMEOUT} for none; 0 or less gives up at the first check.
     * @param interruptible whether an interrupt ends it.
     * @return this.
     */
    public SyncWait start(final long timeoutNs, final boolean interruptible)
    {
        return start(timeoutNs, interruptible, System.nanoTime());
    }

    /**
     * Starts a wait at a time the caller has just read (a clock read costs about as much as a poll of the port).
     *
     * @param timeoutNs     longest wait, {@link #NO_TIMEOUT} for none; 0 or less gives up at the first check.
     * @param interruptible whether an interrupt ends it.
     * @param nowNs         {@link System#nanoTime()} now.
     * @return this.
     */
    public SyncWait start(final long timeoutNs, final boolean interruptible, final long nowNs)
    {
        this.startNs = nowNs;
        this.hasDeadline = NO_TIMEOUT != timeoutNs;
        this.timed = hasDeadline;
        this.deadlineNs = hasDeadline ? startNs + Math.max(0, timeoutNs) : Long.MAX_VALUE;
        this.interruptible = interruptible;
        this.swallowed = false;
        return this;
    }

    /**
     * From now on neither the timeout nor an interrupt ends the wait: what it waits for is on its way (a grant
     * already decided, say) and must be taken.
     */
    void mustFinish()
    {
        timed = false;
        interruptible = false;
    }

    /**
     * When the wait started, for the failure detectors' bound.
     *
     * @return {@link System#nanoTime()} at the start.
     */
    long startNs()
    {
        return startNs;
    }

    /**
     * Whether the wait must end now.
     *
     * @param nowNs the time.
     * @return {@link #PENDING}, {@link #TIMED_OUT} or {@link #INTERRUPTED}.
     */
    int check(final long nowNs)
    {
        if (Thread.interrupted())
        {
            if (interruptible)
            {
                return INTERRUPTED;
            }
            swallowed = true;
        }
        return timed && nowNs - deadlineNs >= 0 ? TIMED_OUT : PENDING;
    }

    /**
     * How long the next sleep may be.
     *
     * @param nowNs   the time.
     * @param sliceNs the longest sleep between checks.
     * @return at most the time left.
     */
    long sleepNs(final long nowNs, final long sliceNs)
    {
        return timed ? Math.max(0, Math.min(sliceNs, deadlineNs - nowNs)) : sliceNs;
    }

    /**
     * Time left before the timeout the wait started with.
     *
     * @return nanoseconds left, negative once past; {@link #NO_TIMEOUT} if untimed.
     */
    public long remainingNs()
    {
        return hasDeadline ? deadlineNs - System.nanoTime() : NO_TIMEOUT;
    }

    /**
     * Ends the wait: puts back an interrupt taken off the thread.
     */
    public void finish()
    {
        if (swallowed)
        {
            swallowed = false;
            Thread.currentThread().interrupt();
        }
    }
}
