package org.viadsm.examples.lu;

import java.io.PrintStream;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.ProcessorsOption;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.SplashReport;
import org.viadsm.examples.runtime.Team;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * SPLASH-2 LU, contiguous blocks: blocked dense LU factorization without pivoting, each processor's blocks stored
 * contiguously. See the package documentation for the flags, the self-check and how the port follows the C program.
 */
@Command(name = "lu", mixinStandardHelpOptions = true,
    description = "SPLASH-2 LU (contiguous blocks): blocked dense LU factorization.")
public final class LuApp extends App
{
    /** Lock guarding the id counter, as {@code Global->idlock}. */
    static final int ID_LOCK = 0;

    private static final int GLOBAL_STARTTIME = 0;
    private static final int GLOBAL_RF = 1;
    private static final int GLOBAL_RS = 2;
    private static final int GLOBAL_DONE = 3;
    private static final int GLOBAL_ID = 4;
    private static final int GLOBAL_LENGTH = 5;

    @Mixin
    private ProcessorsOption processors = new ProcessorsOption();

    @Option(names = "-n", paramLabel = "N", description = "Decompose NxN matrix (default: ${DEFAULT-VALUE}).")
    private int n = 512;

    @Option(names = "-b", paramLabel = "B", description = "Use a block size of B. BxB elements should fit in cache "
        + "for good performance. Small block sizes (B=8, B=16) work well (default: ${DEFAULT-VALUE}).")
    private int blockSize = 16;

    @Option(names = "-c", description = "Accepted and ignored, as the C program does (its copying is not "
        + "implemented).")
    private boolean copy;

    @Option(names = "-s", description = "Print individual processor timing statistics.")
    private boolean dostats;

    @Option(names = "-t", description = "Test output.")
    private boolean testResult;

    @Option(names = "-o", description = "Print out matrix values.")
    private boolean doprint;

    /** What {@code TouchA} read, stored so that the reads are not optimized away. */
    private double touched;

    /**
     * Creates the application with the C program's defaults; picocli sets the flags given.
     * It checks its result only with {@code -t}, as the C program.
     */
    public LuApp()
    {
        super("-t");
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void validate(final int teamSize)
    {
        processors.check(teamSize);
        new LuLayout(n, blockSize, teamSize);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void run(final Team team)
    {
        final long startUs = SplashClock.micros();
        processors.check(team.size());
        final LuLayout layout = new LuLayout(n, blockSize, team.size());
        final int p = layout.processors;
        final int myNum = team.id();
        final PrintStream out = team.out();

        if (0 == myNum)
        {
            out.print("\n");
            out.print("Blocked Dense LU Factorization\n");
            out.print(CFormat.format("     %ld by %ld Matrix\n", n, n));
            out.print(CFormat.format("     %ld Processors\n", p));
            out.print(CFormat.format("     %ld by %ld Element Blocks\n", blockSize, blockSize));
            out.print("\n");
            out.print("\n");
        }

        final DoubleArray[] procArrays = new DoubleArray[p];
        for (int i = 0; i < p; i++)
        {
            // A processor that owns no block still gets its (page-sized in C) allocation. Its blocks live with it.
            procArrays[i] = team.doubles("lu.a." + i, Math.max(1, layout.procLength[i]), Placement.onNode(i));
        }
        // The right-hand side and the globals are the master's: it writes and checks them.
        final DoubleArray rhs = team.doubles("lu.rhs", n, Placement.onNode(0));
        final LongArray global = team.longs("lu.global", GLOBAL_LENGTH, Placement.onNode(0));
        final LuStats stats = new LuStats(team, p);

        final LuMatrix matrix = new LuMatrix(layout, procArrays);
        if (0 == myNum)
        {
            global.set(GLOBAL_ID, 0);
        }
        // The C program's master initializes the whole matrix before creating the workers; here each member stores
        // its own blocks (the same values), so that no member writes another's array, and all wait for the others.
        matrix.initA(myNum, 0 == myNum ? rhs : null);
        team.barrier();
        if (0 == myNum && doprint)
        {
            out.print("Matrix before decomposition:\n");
            matrix.printA(out);
        }

        // The C program numbers its processes from this counter; the port keeps the lock but uses the team id.
        team.lock(ID_LOCK);
        global.set(GLOBAL_ID, global.get(GLOBAL_ID) + 1);
        team.unlock(ID_LOCK);

        oneSolve(team, layout, procArrays, global, stats);

        if (dostats)
        {
            // WAIT_FOR_END: the master reads every member's statistics.
            team.barrier();
        }
        if (0 == myNum)
        {
            if (doprint)
            {
                out.print("\nMatrix after decomposition:\n");
                matrix.printA(out);
            }
            stats.print(out, dostats);
            out.print("\n");
            global.set(GLOBAL_STARTTIME, startUs);
            out.print("                            TIMING INFORMATION\n");
            SplashReport.timing(out, global.get(GLOBAL_STARTTIME), global.get(GLOBAL_RS), global.get(GLOBAL_RF));
            out.print("\n");
            if (testResult)
            {
                out.print("                             TESTING RESULTS\n");
                matrix.checkResult(rhs, out);
            }
        }
    }

    private void oneSolve(
        final Team team,
        final LuLayout layout,
        final DoubleArray[] procArrays,
        final LongArray global,
        final LuStats stats)
    {
        final int myNum = team.id();
        final boolean timed = 0 == myNum || dostats;
        final LuKernel kernel = new LuKernel(team, layout, procArrays, dostats);

        team.barrier();
        touched = kernel.touchA();
        team.barrier();

        long myrs = 0;
        long mydone = 0;
        team.beginTimedPhase();
        if (timed)
        {
            myrs = SplashClock.micros();
        }
        kernel.lu();
        if (timed)
        {
            mydone = SplashClock.micros();
        }
        team.barrier();
        team.endTimedPhase();

        if (timed)
        {
            stats.record(myNum, kernel, mydone - myrs);
        }
        if (0 == myNum)
        {
            final long myrf = SplashClock.micros();
            global.set(GLOBAL_RS, myrs);
            global.set(GLOBAL_DONE, mydone);
            global.set(GLOBAL_RF, myrf);
        }
    }
}
