package org.viadsm.examples.cli;

import java.io.PrintStream;
import java.util.List;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.AllocationScope;
import org.viadsm.dsm.Dsm;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.DsmTeam;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.ThreadTeam;

/**
 * Runs an application one or more times in the same JVMs: the first run is cold (it pays class loading and JIT
 * compilation), the following ones warm. Every run is a whole run of the program (a fresh instance parsed from the
 * same arguments, its own allocations, its own self-check) and prints its whole output; warm runs are announced
 * by a line of their own, so a single run prints exactly what it always did.
 * <p>
 * On the DSM every run but the last allocates in an {@link AllocationScope}, freed on every node before the next
 * run. A node's statistics cover the program's timed phases ({@link Team#beginTimedPhase()}): the cold run's, or,
 * with warm runs, the sums over the warm runs' (the statistics restart with the first warm run).
 * Threads get a fresh team, with fresh arrays, for every run.
 */
final class AppRuns
{
    private AppRuns()
    {
    }

    /**
     * Runs a DSM node's member {@code runs} times on the same node.
     *
     * @return how long each run took on this node, in ns.
     * @throws Exception if a run fails; later runs do not happen.
     */
    static long[] onNode(
        final Dsm dsm, final AppCatalog.Entry entry, final List<String> args, final Placement placement,
        final PrintStream out, final int runs) throws Exception
    {
        final long[] runNs = new long[runs];
        final DsmTeam team = new DsmTeam(dsm, placement, out);
        for (int run = 0; run < runs; run++)
        {
            announce(team.out(), run, runs);
            if (1 == run)
            {
                // The statistics sum the warm runs' timed phases.
                dsm.resetStats();
            }
            if (run < runs - 1)
            {
                try (AllocationScope _ = dsm.allocationScope())
                {
                    runNs[run] = timed(AppArguments.parse(entry, args), team);
                }
            }
            else
            {
                runNs[run] = timed(AppArguments.parse(entry, args), team);
            }
        }
        return runNs;
    }

    /**
     * Runs the application on a team of {@code members} threads over plain arrays, {@code runs} times in this JVM.
     *
     * @return how long each run took on member 0, in ns.
     */
    static long[] onThreads(
        final int members, final AppCatalog.Entry entry, final List<String> args, final PrintStream out,
        final int runs)
    {
        final long[] runNs = new long[runs];
        for (int run = 0; run < runs; run++)
        {
            final int index = run;
            announce(out, run, runs);
            ThreadTeam.run(members, out, team ->
            {
                final long ns = timed(AppArguments.parse(entry, args), team);
                if (0 == team.id())
                {
                    runNs[index] = ns;
                }
            });
        }
        return runNs;
    }

    /**
     * Runs a member and measures it.
     *
     * @return how long {@code app.run(team)} took, in ns.
     */
    static long timed(final App app, final Team team) throws Exception
    {
        final long startNs = System.nanoTime();
        app.run(team);
        return System.nanoTime() - startNs;
    }

    private static void announce(final PrintStream out, final int run, final int runs)
    {
        if (run > 0)
        {
            out.println();
            out.println("--- warm run " + run + " of " + (runs - 1) + " ---");
        }
    }
}
