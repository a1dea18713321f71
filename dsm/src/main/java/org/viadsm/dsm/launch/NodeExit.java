package org.viadsm.dsm.launch;

/**
 * How one node process of a {@link ProcessCluster} ended.
 *
 * @param node    the node.
 * @param code    its exit code; above 128 for a process ended by signal {@code code - 128}.
 * @param stopped whether the launcher stopped it (after another node failed, or on a timeout or interrupt).
 * @param error   the last lines it wrote to standard error.
 */
public record NodeExit(int node, int code, boolean stopped, String error)
{
    private static final String[] SIGNALS = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
        "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    /**
     * Whether the node failed: it exited with a code other than 0.
     *
     * @return true if it failed.
     */
    public boolean failed()
    {
        return 0 != code;
    }

    /**
     * The signal that ended the process, if one did and the launcher did not send it.
     *
     * @return the signal number, or 0.
     */
    public int signal()
    {
        return !stopped && code > 128 && code < 128 + 65 ? code - 128 : 0;
    }

    /**
     * The signal's name and number, e.g. {@code signal 9 (SIGKILL)}.
     *
     * @param signal a signal number.
     * @return its description.
     */
    public static String describeSignal(final int signal)
    {
        return "signal " + signal + (signal < SIGNALS.length && null != SIGNALS[signal] ? " (" + SIGNALS[signal] + ")" :
            "");
    }
}
