package org.viadsm.examples.barnes;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * SPLASH-2 BARNES (Splash-3 {@code codes/apps/barnes}): a Barnes-Hut simulation of two Plummer spheres of bodies.
 * See the package documentation for the input format, output and self-check.
 */
@Command(name = "barnes", description = "Barnes-Hut N-body simulation (SPLASH-2 BARNES); reads the C program's " +
    "12-line parameter input.")
public final class BarnesApp extends App
{
    @Parameters(index = "0", arity = "0..1", paramLabel = "INPUT",
        description = "Parameter file in the C program's format ('-' for standard input); without it, the " +
            "SPLASH input n16384 (16384 bodies, 4 steps).")
    private String input;

    @Option(names = "--no-optional-locks",
        description = "Leave out Splash-3's optional per-interaction locks, as the C built with " +
            "-DWITH_NO_OPTIONAL_LOCKS.")
    private boolean noOptionalLocks;

    private BarnesParameters parameters;

    /**
     * Creates an application instance; picocli sets its options.
     */
    public BarnesApp()
    {
    }

    /**
     * Reads standard input when the input is given as {@code -}.
     *
     * @return true for {@code -}.
     */
    @Override
    public boolean readsStandardInput()
    {
        return "-".equals(input);
    }

    /**
     * Reads the parameter input and checks that its tables fit the team.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming the input file and line of a malformed parameter, or the input file
     *                                  if it cannot be read.
     */
    @Override
    public void validate(final int teamSize)
    {
        BarnesShared.checkSizes(parameters(), teamSize);
    }

    /**
     * Runs the simulation as one member; member 0 generates the bodies, prints and checks.
     *
     * @param team this member's view of the team.
     * @throws org.viadsm.examples.runtime.VerificationException if the self-check fails.
     */
    @Override
    public void run(final Team team)
    {
        final BarnesParameters params = parameters();
        BarnesShared.checkSizes(params, team.size());
        final BarnesShared shared = BarnesShared.allocate(team, params);
        final BarnesCheck check = new BarnesCheck(params.nbody);
        if (0 == team.id())
        {
            final PrintStream out = team.out();
            if (params.nproc != team.size())
            {
                out.print(CFormat.format("%s: NPROC %ld ignored: running on %ld processors\n", params.source,
                    params.nproc, team.size()));
            }
            new PlummerModel(shared, params.seed).testdata();
            PlummerModel.setbound(shared);
            initoutput(out, params, team.size());
        }
        team.barrier();

        final BarnesMember member = new BarnesMember(team, params, shared, !noOptionalLocks, check);
        team.beginTimedPhase();
        final long computestartNs = System.nanoTime();
        member.run(params.nbody);
        final long computeNs = System.nanoTime() - computestartNs;
        team.endTimedPhase();
        if (0 == team.id())
        {
            printTimes(team.out(), member, computeNs);
            check.verify();
        }
    }

    private BarnesParameters parameters()
    {
        if (null == parameters)
        {
            parameters = null == input ? BarnesParameters.builtIn() : BarnesParameters.read(input);
        }
        return parameters;
    }

    private static void initoutput(final PrintStream out, final BarnesParameters params, final int nproc)
    {
        out.print(CFormat.format("\n\t\t%s\n\n", "Hack code: Plummer model"));
        out.print(CFormat.format("%10s%10s%10s%10s%10s%10s%10s%10s\n",
            "nbody", "dtime", "eps", "tol", "dtout", "tstop", "fcells", "NPROC"));
        out.print(CFormat.format("%10ld%10.5f%10.4f%10.2f%10.3f%10.3f%10.2f%10ld\n\n",
            params.nbody, params.dtime, params.eps, params.tol, params.dtout, params.tstop, params.fcells, nproc));
        Diagnostics.printHeader(out);
    }

    private static void printTimes(final PrintStream out, final BarnesMember member, final long computetimeNs)
    {
        final long track = TimeUnit.NANOSECONDS.toMillis(member.tracktimeNs);
        final long partition = TimeUnit.NANOSECONDS.toMillis(member.partitiontimeNs);
        final long treebuild = TimeUnit.NANOSECONDS.toMillis(member.treebuildtimeNs);
        final long forcecalc = TimeUnit.NANOSECONDS.toMillis(member.forcecalctimeNs);
        final long rest = track - partition - treebuild - forcecalc;
        out.print(CFormat.format("COMPUTETIME   = %12ld ms\n", TimeUnit.NANOSECONDS.toMillis(computetimeNs)));
        out.print(CFormat.format("TRACKTIME     = %12ld ms\n", track));
        out.print(CFormat.format("PARTITIONTIME = %12ld ms\t%5.2f\n", partition, fraction(partition, track)));
        out.print(CFormat.format("TREEBUILDTIME = %12ld ms\t%5.2f\n", treebuild, fraction(treebuild, track)));
        out.print(CFormat.format("FORCECALCTIME = %12ld ms\t%5.2f\n", forcecalc, fraction(forcecalc, track)));
        out.print(CFormat.format("RESTTIME      = %12ld ms\t%5.2f\n", rest, fraction(rest, track)));
    }

    private static double fraction(final long part, final long whole)
    {
        return 0 == whole ? 0.0 : (double)part / whole;
    }
}
