package org.viadsm.examples.runtime;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A SPLASH-style application. Subclasses are picocli {@code @Command} classes whose {@code @Option} fields mirror
 * the C program's flags (same letters, same defaults); every team member gets its own instance, parsed from the
 * same arguments, and runs {@link #run(Team)}.
 */
public abstract class App
{
    /** Set by picocli as it parses this application's options: where {@link #checksResult()} reads its option. */
    @Spec
    private CommandSpec spec;
    private final String checkOption;

    /**
     * Creates an application that always checks its result; picocli sets its options.
     */
    protected App()
    {
        this(null);
    }

    /**
     * Creates an application whose self-check is an option, as the C program's {@code -t}, on only when given;
     * picocli sets its options.
     *
     * @param checkOption the boolean option that turns the check on, e.g. {@code -t}; null if it always checks.
     */
    protected App(final String checkOption)
    {
        this.checkOption = checkOption;
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
     * launcher says a run was verified only then.
     *
     * @return true unless the application's self-check is an option that was not given.
     * @throws IllegalStateException if the check is an option and picocli has not parsed this application.
     */
    public final boolean checksResult()
    {
        if (null == checkOption)
        {
            return true;
        }
        if (null == spec)
        {
            throw new IllegalStateException(getClass().getSimpleName() + "'s options were not parsed");
        }
        return Boolean.TRUE.equals(spec.findOption(checkOption).getValue());
    }

    /**
     * The option that turns the self-check on, for a launcher to name when a run did not check its result.
     *
     * @return the option, e.g. {@code -t}; null if the application always checks its result.
     */
    public final String checkOption()
    {
        return checkOption;
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
