package org.viadsm.examples.sor;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Red-black successive over-relaxation on a grid in shared memory, the classic page-based DSM benchmark (the
 * TreadMarks and JIAJIA "SOR"): each member relaxes a contiguous band of rows, red points then black points, with
 * a barrier after each colour. Options, output and self-check are described in the package documentation.
 */
@Command(
    name = "sor",
    description = "Red-black successive over-relaxation on a grid, banded by rows",
    mixinStandardHelpOptions = true)
public final class Sor extends App
{
    @Option(names = "-m", defaultValue = "2000", paramLabel = "M",
        description = "Interior rows of the grid (default ${DEFAULT-VALUE}).")
    private int rows;

    @Option(names = "-n", defaultValue = "1000", paramLabel = "N",
        description = "Interior columns of the grid (default ${DEFAULT-VALUE}).")
    private int cols;

    @Option(names = "-i", defaultValue = "50", paramLabel = "I",
        description = "Iterations, each a red and a black sweep (default ${DEFAULT-VALUE}).")
    private int iterations;

    @Option(names = "-w", defaultValue = "1.0", paramLabel = "W",
        description = "Relaxation factor; 1 makes each point the average of its neighbours (default " +
            "${DEFAULT-VALUE}).")
    private double omega;

    @Option(names = "-t", description = "Check the checksum against a sequential run on plain arrays.")
    private boolean test;

    /**
     * Creates the application with its defaults; picocli sets the flags given.
     * It checks its result only with {@code -t}.
     */
    public Sor()
    {
        super("-t");
    }

    /**
     * Checks the options against the team size.
     *
     * @param teamSize number of members that will run.
     * @throws IllegalArgumentException naming {@code -m} or {@code -n} if the grid is empty, too large for one
     *                                  array, or has fewer rows than the team has members; {@code -i} if the
     *                                  iteration count is negative; {@code -w} if the factor is not finite.
     */
    @Override
    public void validate(final int teamSize)
    {
        if (rows < 1)
        {
            throw new IllegalArgumentException("-m: rows must be at least 1: m=" + rows);
        }
        if (cols < 1)
        {
            throw new IllegalArgumentException("-n: columns must be at least 1: n=" + cols);
        }
        if ((long)(rows + 2) * (cols + 2) > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("-m, -n: grid too large for one array: m=" + rows + ", n=" + cols);
        }
        if (rows < teamSize)
        {
            throw new IllegalArgumentException(
                "-m: every member needs a row: m=" + rows + ", teamSize=" + teamSize);
        }
        if (iterations < 0)
        {
            throw new IllegalArgumentException("-i: iterations must not be negative: i=" + iterations);
        }
        if (!Double.isFinite(omega))
        {
            throw new IllegalArgumentException("-w: relaxation factor must be finite: w=" + omega);
        }
    }

    /**
     * Runs SOR as one member.
     *
     * @param team this member's view of the team.
     * @throws VerificationException with {@code -t}, if the checksum differs from the sequential run's.
     */
    @Override
    public void run(final Team team)
    {
        validate(team.size());
        final boolean master = 0 == team.id();
        final PrintStream out = team.out();
        // Each member's band of rows lives with it; so does its share of the row sums.
        final int members = team.size();
        final DoubleArray shared = team.doubles("sor.grid", (rows + 2) * (cols + 2),
            Placement.byElement(element -> RedBlackGrid.owner(rows, element / (cols + 2), members)));
        final DoubleArray rowSums = team.doubles("sor.rowSums", rows,
            Placement.byElement(row -> RedBlackGrid.owner(rows, row + 1, members)));
        final RedBlackGrid grid = new RedBlackGrid(shared, rows, cols, omega, team.id(), team.size());
        if (master)
        {
            grid.initialiseBoundary(rows);
        }
        // The one barrier the C-style master/worker start needs: the boundary is written before anyone reads it.
        team.barrier();

        team.beginTimedPhase();
        final long startNs = System.nanoTime();
        for (int iter = 0; iter < iterations; iter++)
        {
            grid.sweep(RedBlackGrid.RED);
            team.barrier();
            grid.sweep(RedBlackGrid.BLACK);
            team.barrier();
        }
        final long elapsedNs = System.nanoTime() - startNs;
        team.endTimedPhase();
        final double[] scratch = new double[Math.max(rows, cols)];
        grid.sumRows(rowSums, scratch);
        team.barrier();

        if (master)
        {
            final double checksum = RedBlackGrid.checksum(rowSums, scratch);
            out.println(CFormat.format("Red-black SOR: %d x %d interior points, %d iterations, omega %g, team of %d",
                rows, cols, iterations, omega, team.size()));
            out.println(CFormat.format("Checksum: %.15e", checksum));
            out.println(CFormat.format("Iteration time (us): %ld", elapsedNs / 1000));
            if (test)
            {
                final double expected = SequentialSor.checksum(rows, cols, iterations, omega);
                if (Double.doubleToLongBits(expected) != Double.doubleToLongBits(checksum))
                {
                    throw new VerificationException(CFormat.format(
                        "SOR checksum %.17e differs from the sequential run's %.17e", checksum, expected));
                }
                out.println("TEST PASSED: checksum equals the sequential run's");
            }
        }
    }
}
