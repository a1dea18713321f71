package org.viadsm.examples.ocean;

import java.io.PrintStream;

import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * SPLASH-2 OCEAN with contiguous partitions: eddy and boundary currents in a two-layer ocean basin, on a square
 * grid split into one contiguous block per member, with a W-cycle multigrid solver for the elliptic equations of
 * each time step. Options, output and self-check are described in the package documentation.
 */
@Command(
    name = "ocean",
    description = "SPLASH-2 OCEAN (contiguous partitions): ocean currents with a multigrid solver",
    mixinStandardHelpOptions = true)
public final class Ocean extends App
{
    /** The C {@code idlock}. */
    static final int ID_LOCK = 0;
    /** The C {@code psiailock}. */
    static final int PSIAI_LOCK = 1;
    /** The C {@code psibilock}. */
    static final int PSIBI_LOCK = 2;
    /** The C {@code error_lock} (the C {@code donelock}, 3, is declared but never taken). */
    static final int ERROR_LOCK = 4;

    private static final long EPOCH_BASE_US = System.currentTimeMillis() * 1000L;
    private static final long NANO_BASE = System.nanoTime();

    @Option(names = "-n", defaultValue = "258", paramLabel = "N",
        description = "Simulate an NxN ocean; N must be (power of 2)+2 (default ${DEFAULT-VALUE}).")
    private int gridSize;

    @Option(names = "-e", defaultValue = "1e-7", paramLabel = "E",
        description = "Error tolerance of the multigrid relaxation (default ${DEFAULT-VALUE}).")
    private double tolerance;

    @Option(names = "-r", defaultValue = "20000.0", paramLabel = "R",
        description = "Distance between grid points in metres (default ${DEFAULT-VALUE}).")
    private double res;

    @Option(names = "-t", defaultValue = "28800.0", paramLabel = "T",
        description = "Time step in seconds (default ${DEFAULT-VALUE}).")
    private double dtau;

    @Option(names = "-s", description = "Print timing statistics of every member.")
    private boolean doStats;

    @Option(names = "-o", description = "Print the multigrid iterations and residual of every solve.")
    private boolean doOutput;

    /**
     * Creates the application with the C program's defaults; picocli sets the flags given.
     */
    public Ocean()
    {
    }

    /**
     * Checks the options as the C program does, with the team size as its {@code -p}.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming {@code -n} if the grid is not (power of 2)+2 or too small for the
     *                                  team, {@code -p} if the team size is not a power of 2, {@code -t} if the
     *                                  time step is not positive.
     */
    @Override
    public void validate(final int teamSize)
    {
        OceanGeometry.check(gridSize, teamSize);
        if (!(dtau > 0))
        {
            throw new IllegalArgumentException("-t: time step must be positive: t=" + dtau);
        }
    }

    /**
     * Runs OCEAN as one member.
     *
     * @param team this member's view of the team.
     * @throws VerificationException if a multigrid solve did not converge or a value is not finite.
     */
    @Override
    public void run(final Team team)
    {
        validate(team.size());
        final long startUs = clockUs();
        final int nprocs = team.size();
        final boolean master = 0 == team.id();
        final PrintStream out = team.out();
        final OceanGeometry geometry = OceanGeometry.of(gridSize, nprocs, res);
        final OceanConstants constants = new OceanConstants(gridSize, res, dtau, doStats);
        if (master)
        {
            printHeader(out, nprocs);
        }
        final OceanGrids grids = new OceanGrids(team, geometry);
        final OceanSlave slave = new OceanSlave(team, geometry, grids, constants, tolerance, doOutput);
        slave.run();
        if (doStats)
        {
            // The C master joins the workers before printing their times.
            team.barrier();
        }
        slave.checkFinite();
        final long computeendUs = clockUs();
        team.endTimedPhase();
        if (master)
        {
            printStatistics(out, grids, nprocs);
            out.println();
            out.println("                       TIMING INFORMATION");
            out.println(CFormat.format("Start time                        : %16lu", startUs));
            out.println(CFormat.format("Initialization finish time        : %16lu", slave.trackstartUs()));
            out.println(CFormat.format("Overall finish time               : %16lu", computeendUs));
            out.println(CFormat.format("Total time with initialization    : %16lu", computeendUs - startUs));
            out.println(CFormat.format("Total time without initialization : %16lu",
                computeendUs - slave.trackstartUs()));
            out.println("    (excludes first timestep)");
            out.println();
        }
    }

    /**
     * The C {@code CLOCK} of the POSIX macros: microseconds since the epoch, from a monotonic clock.
     *
     * @return the time.
     */
    static long clockUs()
    {
        return EPOCH_BASE_US + (System.nanoTime() - NANO_BASE) / 1000L;
    }

    private void printHeader(final PrintStream out, final int nprocs)
    {
        out.println();
        out.println("Ocean simulation with W-cycle multigrid solver");
        out.println(CFormat.format("    Processors                         : %1ld", nprocs));
        out.println(CFormat.format("    Grid size                          : %1ld x %1ld", gridSize, gridSize));
        out.println(CFormat.format("    Grid resolution (meters)           : %0.2f", res));
        out.println(CFormat.format("    Time between relaxations (seconds) : %0.0f", dtau));
        out.println(CFormat.format("    Error tolerance                    : %0.7g", tolerance));
        out.println();
        if (doOutput)
        {
            out.println("                       MULTIGRID OUTPUTS");
        }
    }

    private void printStatistics(final PrintStream out, final OceanGrids grids, final int nprocs)
    {
        final String line = "%3ld   %15.0f    %15.0f        %10.3f";
        out.println();
        out.println("                       PROCESS STATISTICS");
        out.println("                  Total          Multigrid         Multigrid");
        out.println(" Proc             Time             Time            Fraction");
        final double total0 = grids.times.get(0);
        final double multi0 = grids.times.get(1);
        out.println(CFormat.format("    0   %15.0f    %15.0f        %10.3f", total0, multi0, multi0 / total0));
        if (doStats)
        {
            double minTotal = total0;
            double maxTotal = total0;
            double avgTotal = total0;
            double minMulti = multi0;
            double maxMulti = multi0;
            double avgMulti = multi0;
            double minFrac = multi0 / total0;
            double maxFrac = minFrac;
            double avgFrac = minFrac;
            for (int i = 1; i < nprocs; i++)
            {
                final double total = grids.times.get(2 * i);
                final double multi = grids.times.get(2 * i + 1);
                maxTotal = Math.max(maxTotal, total);
                minTotal = Math.min(minTotal, total);
                maxMulti = Math.max(maxMulti, multi);
                minMulti = Math.min(minMulti, multi);
                maxFrac = Math.max(maxFrac, multi / total);
                minFrac = Math.min(minFrac, multi / total);
                avgTotal += total;
                avgMulti += multi;
                avgFrac += multi / total;
            }
            avgTotal = avgTotal / nprocs;
            avgMulti = avgMulti / nprocs;
            avgFrac = avgFrac / nprocs;
            for (int i = 1; i < nprocs; i++)
            {
                final double total = grids.times.get(2 * i);
                final double multi = grids.times.get(2 * i + 1);
                out.println("  " + CFormat.format(line, i, total, multi, multi / total));
            }
            out.println(CFormat.format("  Avg   %15.0f    %15.0f        %10.3f", avgTotal, avgMulti, avgFrac));
            out.println(CFormat.format("  Min   %15.0f    %15.0f        %10.3f", minTotal, minMulti, minFrac));
            out.println(CFormat.format("  Max   %15.0f    %15.0f        %10.3f", maxTotal, maxMulti, maxFrac));
        }
    }
}
