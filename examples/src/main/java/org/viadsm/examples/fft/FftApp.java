package org.viadsm.examples.fft;

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
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * SPLASH-2 FFT: a complex 1D FFT of 2^M points by the six-step method with blocked transposes. See the package
 * documentation for the flags, the self-check and how the port follows the C program.
 */
@Command(name = "fft", mixinStandardHelpOptions = true,
    description = "SPLASH-2 FFT: six-step complex 1D FFT with blocked transposes.")
public final class FftApp extends App
{
    /** Lock guarding the id counter, as {@code Global->idlock}. */
    static final int ID_LOCK = 0;

    private static final int GLOBAL_ID = 0;
    private static final int GLOBAL_STARTTIME = 1;
    private static final int GLOBAL_FINISHTIME = 2;
    private static final int GLOBAL_INITDONETIME = 3;
    private static final int GLOBAL_LENGTH = 4;
    private static final double TOLERANCE = 0.001;

    @Mixin
    private ProcessorsOption processors = new ProcessorsOption();

    @Option(names = "-m", paramLabel = "M", description = "M = even integer; 2**M total complex data points "
        + "transformed (default: ${DEFAULT-VALUE}).")
    private int log2Points = 10;

    @Option(names = "-n", paramLabel = "N", description = "N = number of cache lines (default: ${DEFAULT-VALUE}).")
    private int numCacheLines = 65536;

    @Option(names = "-l", paramLabel = "L",
        description = "L = Log base 2 of cache line length in bytes (default: ${DEFAULT-VALUE}).")
    private int log2LineSize = 4;

    @Option(names = "-s", description = "Print individual processor timing statistics.")
    private boolean dostats;

    @Option(names = "-t", description = "Perform FFT and inverse FFT. Test output by comparing the integral of the "
        + "original data to the integral of the data that results from performing the FFT and inverse FFT.")
    private boolean testResult;

    @Option(names = "-o", description = "Print out complex data points.")
    private boolean doprint;

    /** What {@code TouchArray} read, stored so that the reads are not optimized away. */
    private double touched;

    /**
     * Creates the application with the C program's defaults; picocli sets the flags given.
     * It checks its result only with {@code -t}, as the C program.
     */
    public FftApp()
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
        new FftLayout(log2Points, teamSize, numCacheLines, log2LineSize);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void run(final Team team)
    {
        final long startUs = SplashClock.micros();
        processors.check(team.size());
        final FftLayout layout = new FftLayout(log2Points, team.size(), numCacheLines, log2LineSize);
        final int p = layout.processors;
        final int myNum = team.id();

        // The matrices' rows live at the processor that transforms them; the rest is the master's.
        final Placement master = Placement.onNode(0);
        final Placement rows = Placement.byElement(layout::rowOwner);
        final LongArray global = team.longs("fft.global", GLOBAL_LENGTH, master);
        final DoubleArray x = team.doubles("fft.x", layout.matrixLength, rows);
        final DoubleArray trans = team.doubles("fft.trans", layout.matrixLength, rows);
        final DoubleArray umain = team.doubles("fft.umain", 2 * layout.rootN, master);
        final DoubleArray umain2 = team.doubles("fft.umain2", layout.matrixLength, rows);
        final LongArray transtimes = team.longs("fft.transtimes", p, master);
        final LongArray totaltimes = team.longs("fft.totaltimes", p, master);

        double ck1 = 0.0;
        if (0 == myNum)
        {
            printHeader(team.out(), layout);
            global.set(GLOBAL_ID, 0);
            FftData.initX(layout, x);
            if (testResult)
            {
                ck1 = FftData.checkSum(layout, x);
            }
            if (doprint)
            {
                team.out().print("Original data values:\n");
                FftData.printArray(layout, x, team.out());
            }
            FftData.initU(layout, umain);
            FftData.initU2(layout, umain2);
        }
        // The master initialized before creating the workers: every member waits for it.
        team.barrier();

        slaveStart(team, layout, global, x, trans, umain, umain2, transtimes, totaltimes);

        if (dostats)
        {
            // WAIT_FOR_END: the master reads every member's statistics.
            team.barrier();
        }
        if (0 == myNum)
        {
            global.set(GLOBAL_STARTTIME, startUs);
            report(team.out(), layout, global, x, transtimes, totaltimes, ck1);
        }
    }

    private void slaveStart(
        final Team team,
        final FftLayout layout,
        final LongArray global,
        final DoubleArray x,
        final DoubleArray trans,
        final DoubleArray umain,
        final DoubleArray umain2,
        final LongArray transtimes,
        final LongArray totaltimes)
    {
        final int myNum = team.id();
        // The C program numbers its processes from this counter; the port keeps the lock but uses the team id.
        team.lock(ID_LOCK);
        global.set(GLOBAL_ID, global.get(GLOBAL_ID) + 1);
        team.unlock(ID_LOCK);

        team.barrier();

        final FftKernel kernel = new FftKernel(team, layout, x, trans, umain2, dostats, testResult || doprint);
        kernel.copyRoots(umain);
        touched = kernel.touchArray();

        team.barrier();

        long initdone = 0;
        team.beginTimedPhase();
        if (0 == myNum || dostats)
        {
            initdone = SplashClock.micros();
        }
        kernel.fft1d(1);
        if (testResult)
        {
            kernel.fft1d(-1);
        }
        final long finish = SplashClock.micros();
        team.endTimedPhase();
        if (0 == myNum || dostats)
        {
            transtimes.set(myNum, kernel.transtimeUs());
            totaltimes.set(myNum, finish - initdone);
            if (0 == myNum)
            {
                global.set(GLOBAL_FINISHTIME, finish);
                global.set(GLOBAL_INITDONETIME, initdone);
            }
        }
    }

    private static void printHeader(final PrintStream out, final FftLayout layout)
    {
        if (layout.lineWarning())
        {
            out.print(CFormat.format("WARNING: Each element is a complex double (%ld bytes)\n",
                FftLayout.COMPLEX_BYTES));
            out.print("  => Less than one element per cache line\n");
            out.print("     Computing transpose blocking factor\n");
        }
        out.print("\n");
        out.print("FFT with Blocking Transpose\n");
        out.print(CFormat.format("   %ld Complex Doubles\n", layout.points));
        out.print(CFormat.format("   %ld Processors\n", layout.processors));
        if (layout.numCacheLines != layout.origNumLines)
        {
            out.print(CFormat.format("   %ld Cache lines\n", layout.origNumLines));
            out.print(CFormat.format("   %ld Cache lines for blocking transpose\n", layout.numCacheLines));
        }
        else
        {
            out.print(CFormat.format("   %ld Cache lines\n", layout.numCacheLines));
        }
        out.print(CFormat.format("   %d Byte line size\n", layout.lineSize));
        out.print(CFormat.format("   %d Bytes per page\n", FftLayout.PAGE_SIZE));
        out.print("\n");
    }

    private void report(
        final PrintStream out,
        final FftLayout layout,
        final LongArray global,
        final DoubleArray x,
        final LongArray transtimes,
        final LongArray totaltimes,
        final double ck1)
    {
        if (doprint)
        {
            out.print(testResult ? "Data values after inverse FFT:\n" : "Data values after FFT:\n");
            FftData.printArray(layout, x, out);
        }
        long transtime = transtimes.get(0);
        out.print("\n");
        out.print("                 PROCESS STATISTICS\n");
        out.print("            Computation      Transpose     Transpose\n");
        out.print(" Proc          Time            Time        Fraction\n");
        out.print(CFormat.format("    0        %10ld     %10ld      %8.5f\n", totaltimes.get(0), transtimes.get(0),
            (double)transtimes.get(0) / totaltimes.get(0)));
        if (dostats)
        {
            transtime = printStats(out, layout.processors, transtimes, totaltimes);
        }
        final long initdone = global.get(GLOBAL_INITDONETIME);
        final long finish = global.get(GLOBAL_FINISHTIME);
        out.print("\n");
        out.print("                 TIMING INFORMATION\n");
        SplashReport.timing(out, global.get(GLOBAL_STARTTIME), initdone, finish);
        out.print(CFormat.format("Overall transpose time            : %16ld\n", transtime));
        out.print(CFormat.format("Overall transpose fraction        : %16.5f\n",
            (double)transtime / (finish - initdone)));
        out.print("\n");

        if (testResult)
        {
            final double ck3 = FftData.checkSum(layout, x);
            check(out, ck1, ck3);
        }
    }

    /**
     * Prints the inverse-FFT test result, as the C program does, and fails if the checksums differ by 0.001 or
     * more.
     *
     * @param out where to print.
     * @param ck1 checksum of the input.
     * @param ck3 checksum after the forward and inverse FFT.
     * @throws VerificationException if the test failed.
     */
    static void check(final PrintStream out, final double ck1, final double ck3)
    {
        out.print("              INVERSE FFT TEST RESULTS\n");
        out.print(CFormat.format("Checksum difference is %.3f (%.3f, %.3f)\n", ck1 - ck3, ck1, ck3));
        if (Math.abs(ck1 - ck3) < TOLERANCE)
        {
            out.print("TEST PASSED\n");
        }
        else
        {
            out.print("TEST FAILED\n");
            throw new VerificationException("FFT inverse test failed: checksum difference " + (ck1 - ck3) +
                " (" + ck1 + " before, " + ck3 + " after forward and inverse FFT), tolerance " + TOLERANCE);
        }
    }

    private static long printStats(
        final PrintStream out, final int p, final LongArray transtimes, final LongArray totaltimes)
    {
        long transtime = transtimes.get(0);
        long transtime2 = transtimes.get(0);
        long avgtranstime = transtimes.get(0);
        long avgcomptime = totaltimes.get(0);
        long maxtotal = totaltimes.get(0);
        long mintotal = totaltimes.get(0);
        double maxfrac = (double)transtimes.get(0) / totaltimes.get(0);
        double minfrac = maxfrac;
        double avgfractime = maxfrac;
        for (int i = 1; i < p; i++)
        {
            final long trans = transtimes.get(i);
            final long total = totaltimes.get(i);
            final double frac = (double)trans / total;
            transtime = Math.max(transtime, trans);
            transtime2 = Math.min(transtime2, trans);
            maxtotal = Math.max(maxtotal, total);
            mintotal = Math.min(mintotal, total);
            if (frac > maxfrac)
            {
                maxfrac = frac;
            }
            if (frac < minfrac)
            {
                minfrac = frac;
            }
            out.print(CFormat.format("  %3ld        %10ld     %10ld      %8.5f\n", i, total, trans, frac));
            avgtranstime += trans;
            avgcomptime += total;
            avgfractime += frac;
        }
        out.print(CFormat.format("  Avg        %10.0f     %10.0f      %8.5f\n",
            (double)avgcomptime / p, (double)avgtranstime / p, avgfractime / p));
        out.print(CFormat.format("  Max        %10ld     %10ld      %8.5f\n", maxtotal, transtime, maxfrac));
        out.print(CFormat.format("  Min        %10ld     %10ld      %8.5f\n", mintotal, transtime2, minfrac));
        return transtime;
    }
}
