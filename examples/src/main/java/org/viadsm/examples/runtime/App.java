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
     * Runs the application as one team member. Member 0 prints the C program's output to {@link Team#out()}.
     *
     * @param team this member's view of the team.
     * @throws VerificationException if the application's self-check fails.
     * @throws Exception             on any other failure.
     */
    public abstract void run(Team team) throws Exception;
}
