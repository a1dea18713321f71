package org.viadsm.examples.runtime;

import java.io.PrintStream;

/**
 * Output lines several SPLASH programs print the same way.
 */
public final class SplashReport
{
    private SplashReport()
    {
    }

    /**
     * Prints the five timing lines of a SPLASH program's {@code TIMING INFORMATION} section, from
     * {@code Start time} to {@code Total time without initialization}, in {@link SplashClock} units.
     *
     * @param out            where to print.
     * @param startUs        the clock when the program started.
     * @param initDoneUs     the clock when initialization finished (the measured phase started).
     * @param finishUs       the clock when the measured phase finished.
     */
    public static void timing(final PrintStream out, final long startUs, final long initDoneUs, final long finishUs)
    {
        out.print(CFormat.format("Start time                        : %16lu\n", startUs));
        out.print(CFormat.format("Initialization finish time        : %16lu\n", initDoneUs));
        out.print(CFormat.format("Overall finish time               : %16lu\n", finishUs));
        out.print(CFormat.format("Total time with initialization    : %16lu\n", finishUs - startUs));
        out.print(CFormat.format("Total time without initialization : %16lu\n", finishUs - initDoneUs));
    }
}
