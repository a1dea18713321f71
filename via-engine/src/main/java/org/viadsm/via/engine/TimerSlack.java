package org.viadsm.via.engine;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Makes the timed parks of a waiting thread end when asked: Linux lets a timer of a thread expire up to its timer
 * slack late, 50 us by default, so that a park of 10 us lasts about 60 us. A wait that parks instead of announcing
 * itself (a doze, a poll) resumes only at the end of a park, so the slack would be its latency. The first park of a
 * thread sets its slack to {@value #SLACK_NS} ns with {@code prctl(PR_SET_TIMERSLACK)}, once.
 * <p>
 * Where the call cannot be made (not Linux, no C library binding, native access not enabled for this code, so that
 * the JVM would warn) nothing is changed: parks keep the system's slack.
 * <p>
 * <b>Note:</b> thread-safe; each thread sets its own slack.
 */
@SuppressWarnings("restricted") // binding prctl through the FFM API is the point of this class
final class TimerSlack
{
    /** The slack a waiting thread's timers get, in ns. */
    static final long SLACK_NS = 1_000L;

    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle PRCTL = bind();
    private static final ThreadLocal<Boolean> SET = new ThreadLocal<>();

    private TimerSlack()
    {
    }

    /**
     * Sets the calling thread's timer slack, if not done already.
     *
     * @return true if the slack is set (now or before), false if it cannot be here.
     */
    static boolean ensure()
    {
        if (null == PRCTL)
        {
            return false;
        }
        final Boolean set = SET.get();
        if (null != set)
        {
            return set;
        }
        boolean done;
        try
        {
            done = 0 == (int)PRCTL.invokeExact(PR_SET_TIMERSLACK, SLACK_NS, 0L, 0L, 0L);
        }
        catch (final Throwable ex)
        {
            done = false;
        }
        SET.set(done);
        return done;
    }

    /**
     * The calling thread's timer slack, for tests.
     *
     * @return ns, or -1 if it cannot be read here.
     */
    static long current()
    {
        if (null == PRCTL)
        {
            return -1;
        }
        try
        {
            return (int)PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L, 0L, 0L, 0L);
        }
        catch (final Throwable ex)
        {
            return -1;
        }
    }

    private static MethodHandle bind()
    {
        if (!System.getProperty("os.name", "").startsWith("Linux") ||
            !TimerSlack.class.getModule().isNativeAccessEnabled())
        {
            return null;
        }
        try
        {
            final Linker linker = Linker.nativeLinker();
            // prctl(int option, ...) is variadic: its four arguments after the option are passed as such
            return linker.downcallHandle(linker.defaultLookup().findOrThrow("prctl"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null;
        }
    }
}
