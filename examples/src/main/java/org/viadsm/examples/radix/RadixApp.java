package org.viadsm.examples.radix;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
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
 * SPLASH-2 RADIX: integer radix sort with a parallel prefix tree. See the package documentation for the flags, the
 * self-check and how the port follows the C program.
 */
@Command(name = "radix", mixinStandardHelpOptions = true,
    description = "SPLASH-2 RADIX: parallel integer radix sort.")
public final class RadixApp extends App
{
    /** {@code MAX_PROCESSORS}. */
    static final int MAX_PROCESSORS = 1024;
    /** {@code MAX_RADIX}: the size of the C program's prefix-tree nodes. */
    static final int MAX_RADIX = 4096;

    @Mixin
    private ProcessorsOption processors = new ProcessorsOption();

    @Option(names = "-r", paramLabel = "R", description = "R = radix for sorting. Must be power of 2 "
        + "(default: ${DEFAULT-VALUE}).")
    private int radix = 1024;

    @Option(names = "-n", paramLabel = "N", description = "N = number of keys to sort (default: ${DEFAULT-VALUE}).")
    private int numKeys = 262144;

    @Option(names = "-m", paramLabel = "M", description = "M = maximum key value. Integer keys k will be generated "
        + "such that 0 <= k <= M (default: ${DEFAULT-VALUE}).")
    private int maxKey = 67108864;

    @Option(names = "-s", description = "Print individual processor timing statistics.")
    private boolean dostats;

    @Option(names = "-t", description = "Check to make sure all keys are sorted correctly.")
    private boolean testResult;

    @Option(names = "-o", description = "Print out sorted keys.")
    private boolean doprint;

    /**
     * Creates the application with the C program's defaults; picocli sets the flags given.
     * It checks its result only with {@code -t}, as the C program.
     */
    public RadixApp()
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
        if (teamSize < 1 || teamSize > MAX_PROCESSORS || Integer.bitCount(teamSize) != 1)
        {
            throw new IllegalArgumentException("P must be a power of 2 in [1, " + MAX_PROCESSORS +
                "] (the prefix tree assumes it): team size " + teamSize);
        }
        if (radix < 2 || Integer.bitCount(radix) != 1 || radix > MAX_RADIX)
        {
            throw new IllegalArgumentException("-r " + radix + ": radix must be a power of 2 in [2, " + MAX_RADIX +
                "]");
        }
        if (numKeys < 1)
        {
            throw new IllegalArgumentException("-n " + numKeys + ": number of keys must be >= 1");
        }
        if (maxKey < 1)
        {
            throw new IllegalArgumentException("-m " + maxKey + ": maximum key must be >= 1");
        }
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void run(final Team team)
    {
        final long startUs = SplashClock.micros();
        validate(team.size());
        final int p = team.size();
        final int myNum = team.id();
        final PrintStream out = team.out();
        final int log2Radix = Integer.numberOfTrailingZeros(radix);
        final int maxNumDigits = maxDigits(maxKey, radix);

        final RadixShared shared = new RadixShared(team, numKeys, radix);
        if (0 == myNum)
        {
            shared.initialize(numKeys);
            out.print("\n");
            out.print("Integer Radix Sort\n");
            out.print(CFormat.format("     %ld Keys\n", numKeys));
            out.print(CFormat.format("     %ld Processors\n", p));
            out.print(CFormat.format("     Radix = %ld\n", radix));
            out.print(CFormat.format("     Max key = %ld\n", maxKey));
            out.print("\n");
        }
        // The master initialized before creating the workers: every member waits for it.
        team.barrier();

        new RadixKernel(team, shared, log2Radix, maxNumDigits, dostats).slaveSort(maxKey);

        if (dostats)
        {
            // WAIT_FOR_END: the master reads every member's statistics.
            team.barrier();
        }
        if (0 == myNum)
        {
            printStats(out, shared, p);
            out.print("\n");
            shared.global.set(RadixShared.GLOBAL_STARTTIME, startUs);
            out.print("                 TIMING INFORMATION\n");
            SplashReport.timing(out, shared.global.get(RadixShared.GLOBAL_STARTTIME),
                shared.global.get(RadixShared.GLOBAL_RS), shared.global.get(RadixShared.GLOBAL_RF));
            out.print("\n");
            final int finalKeys = (int)shared.global.get(RadixShared.GLOBAL_FINAL);
            if (doprint)
            {
                RadixKeys.printout(shared.key[finalKeys], numKeys, out);
            }
            if (testResult)
            {
                RadixKeys.testSort(shared.key[finalKeys], numKeys, out);
            }
        }
    }

    /**
     * {@code get_max_digits}: the number of radix digits of {@code maxKey}.
     */
    static int maxDigits(final long maxKey, final int radix)
    {
        int digits = 1;
        long keyVal = maxKey / radix;
        while (0 != keyVal)
        {
            digits++;
            keyVal = keyVal / radix;
        }
        return digits;
    }

    private void printStats(final PrintStream out, final RadixShared shared, final int p)
    {
        final DoubleArray total = shared.totaltime;
        final DoubleArray rank = shared.ranktime;
        final DoubleArray sort = shared.sorttime;
        out.print("\n");
        out.print("                 PROCESS STATISTICS\n");
        out.print("               Total            Rank            Sort\n");
        out.print(" Proc          Time             Time            Time\n");
        out.print(CFormat.format("    0     %10.0f      %10.0f      %10.0f\n", total.get(0), rank.get(0), sort.get(0)));
        if (!dostats)
        {
            return;
        }
        double maxt = total.get(0);
        double mint = maxt;
        double avgt = maxt;
        double maxrank = rank.get(0);
        double minrank = maxrank;
        double avgrank = maxrank;
        double maxsort = sort.get(0);
        double minsort = maxsort;
        double avgsort = maxsort;
        for (int i = 1; i < p; i++)
        {
            maxt = Math.max(maxt, total.get(i));
            mint = Math.min(mint, total.get(i));
            maxrank = Math.max(maxrank, rank.get(i));
            minrank = Math.min(minrank, rank.get(i));
            maxsort = Math.max(maxsort, sort.get(i));
            minsort = Math.min(minsort, sort.get(i));
            avgt += total.get(i);
            avgrank += rank.get(i);
            avgsort += sort.get(i);
        }
        avgt = avgt / p;
        avgrank = avgrank / p;
        avgsort = avgsort / p;
        for (int i = 1; i < p; i++)
        {
            out.print(CFormat.format("  %3ld     %10.0f      %10.0f      %10.0f\n",
                i, total.get(i), rank.get(i), sort.get(i)));
        }
        out.print(CFormat.format("  Avg     %10.0f      %10.0f      %10.0f\n", avgt, avgrank, avgsort));
        out.print(CFormat.format("  Min     %10.0f      %10.0f      %10.0f\n", mint, minrank, minsort));
        out.print(CFormat.format("  Max     %10.0f      %10.0f      %10.0f\n", maxt, maxrank, maxsort));
        out.print("\n");
    }
}
