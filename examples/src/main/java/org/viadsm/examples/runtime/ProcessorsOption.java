package org.viadsm.examples.runtime;

import picocli.CommandLine.Option;

/**
 * The SPLASH programs' {@code -pP} option, as a picocli mixin ({@code @Mixin}). In a port the team decides the
 * processor count, so {@code -p} is optional: when given it must equal the team size, which lets a C command line
 * run unchanged and catches a command line meant for another team size.
 */
public final class ProcessorsOption
{
    @Option(names = "-p", paramLabel = "P",
        description = "Number of processors; must equal the team size (default: the team size).")
    private Integer processors;

    /**
     * Creates the option with its default; picocli sets it if given.
     */
    public ProcessorsOption()
    {
    }

    /**
     * Checks {@code -p} against the team size.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming {@code -p} if it was given and is below 1 or differs from
     *                                  {@code teamSize}.
     */
    public void check(final int teamSize)
    {
        if (null == processors)
        {
            return;
        }
        if (processors < 1)
        {
            throw new IllegalArgumentException("-p " + processors + ": P must be >= 1");
        }
        if (processors != teamSize)
        {
            throw new IllegalArgumentException(
                "-p " + processors + " differs from the team size " + teamSize + " (omit -p to use the team size)");
        }
    }
}
