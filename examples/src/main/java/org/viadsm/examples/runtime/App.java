package org.viadsm.examples.runtime;

/**
 * A SPLASH-style application. Subclasses are picocli {@code @Command} classes whose {@code @Option} fields mirror
 * the C program's flags (same letters, same defaults); every team member gets its own instance, parsed from the
 * same arguments, and runs {@link #run(Team)}.
 */
public abstract class App
{
    /**
     * Creates the application; picocli sets its options.
     */
    protected App()
    {
    }

    /**
     * Checks the parsed options against the team size before anything starts, e.g. that the processor count
     * divides the problem as the C program requires.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming the offending option and value.
     */
    public void validate(final int teamSize)
    {
    }

    /**
     * Whether the application, as parsed, reads its input from standard input; a launcher that runs members as
     * separate processes then gives each of them a copy.
     *
     * @return false unless the application reads standard input.
     */
    public boolean readsStandardInput()
    {
        return false;
    }

    /**
     * Whether a run, as parsed, checks its result (and throws {@link VerificationException} when it is wrong); a
     * launcher says a run was verified only then. An application whose check is an option, as the C program's
     * {@code -t}, returns whether that option was given.
     *
     * @return true unless the application's self-check is off for these options.
     */
    public boolean checksResult()
    {
        return true;
    }

    /**
     * The option that turns the self-check on, for a launcher to name when a run did not check its result.
     *
     * @return the option, e.g. {@code -t}; null if the application always checks its result.
     */
    public String checkOption()
    {
        return null;
    }

    /**
     * Runs the application as one team member. Member 0 prints the C program's output to {@link Team#out()}.
     *
     * @param team this member's view of the team.
     * @throws VerificationException if the application's self-check fails.
     * @throws Exception             on any other failure.
     */
    public abstract void run(Team team) throws Exception;
}
