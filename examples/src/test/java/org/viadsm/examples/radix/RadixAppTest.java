package org.viadsm.examples.radix;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.DsmTeam;
import org.viadsm.examples.runtime.TeamProbe;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.ParameterException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expected lines are what the C program (Splash-3, built with gcc -O2 -pthread) printed for the same arguments.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RadixAppTest
{
    /** Overwritten ranges a page not fetched keeps apart (the protocol's page table), before it is fetched. */
    private static final int RANGES_KEPT_APART = 4;
    private static final String PASSED = "\n                  TESTING RESULTS\nPASSED: All keys in place.\n\n";
    private static final String N1024_FIRST_KEYS = "\n                 SORTED KEY VALUES\n" +
        " 5675425  6185596  6842636  7150241 10310978 \n" +
        "11265318 11522910 12101086 12307865 12718068 \n";
    private static final String N1024_LAST_KEYS = "\n" +
        "55975818 56383853 56862497 56871667 57059970 \n" +
        "57215754 57290114 58435235 58783468 58963591 \n" +
        "59425354 60042809 62044902 63758019 \n" + PASSED;
    private static final String N10_KEYS = "\n                 SORTED KEY VALUES\n" +
        "      10       18       18       20       20 \n" +
        "      23       25       26       32       38 \n\n" + PASSED;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldSortTheKeysOfTheCProgram(final int members)
    {
        final String output = AppHarness.run(RadixApp::new, members, "-n1024", "-t", "-o");

        assertTrue(output.startsWith("\nInteger Radix Sort\n     1024 Keys\n     " + members + " Processors\n" +
            "     Radix = 1024\n     Max key = 67108864\n\n\n                 PROCESS STATISTICS\n"), output);
        assertTrue(output.matches("(?s).*\nTotal time without initialization : +\\d+\n.*"), output);
        assertTrue(output.contains(N1024_FIRST_KEYS), output);
        assertTrue(output.endsWith(N1024_LAST_KEYS), output);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldSortWithASmallRadixAndMaximum(final int members)
    {
        final String small = AppHarness.run(RadixApp::new, members, "-n10", "-r4", "-m50", "-t", "-o");
        final String many = AppHarness.run(RadixApp::new, members, "-n65536", "-r16", "-t");

        assertTrue(small.endsWith(N10_KEYS), small);
        assertTrue(many.endsWith(PASSED), many);
    }

    @Test
    void shouldDetectACorruptedResult()
    {
        final TeamProbe probe = new TeamProbe().onOutput("TIMING INFORMATION", arrays ->
        {
            ((LongArray)arrays.get("radix.key.0")).set(0, Long.MAX_VALUE);
            ((LongArray)arrays.get("radix.key.1")).set(0, Long.MAX_VALUE);
        });

        final AppHarness.Result result = AppHarness.attempt(RadixApp::new, 2, probe::wrap, "-n1024", "-t");

        assertTrue(result.output().endsWith("\n                  TESTING RESULTS\nFAILED: 1 keys out of place.\n\n"),
            result.output());
        final VerificationException failure =
            assertInstanceOf(VerificationException.class, result.failure().getCause());
        assertTrue(failure.getMessage().contains("first at index 0: " + Long.MAX_VALUE + " > 6185596"),
            failure.getMessage());
    }

    @Test
    void shouldSynchronizeAsOftenAsTheCProgram()
    {
        final TeamProbe probe = new TeamProbe();

        final AppHarness.Result result = AppHarness.attempt(RadixApp::new, 4, probe::wrap, "-n4096", "-t");

        assertNull(result.failure());
        final int digits = 3;
        final int[] setPauses = {1, 2, 1, 3};
        final int[] waitPauses = {1, 2, 1, 2};
        for (int id = 0; id < 4; id++)
        {
            // One start barrier, two after generating the keys, four per digit, one at the end.
            assertEquals(1 + 2 + 4 * digits + 1, probe.barriers(id));
            assertEquals(1, probe.locks(id));
            assertEquals(setPauses[id] * digits, probe.setPauses(id), "member " + id);
            assertEquals(waitPauses[id] * digits, probe.waitPauses(id), "member " + id);
        }
    }

    @Test
    void shouldPrintEveryProcessorsStatisticsWithS()
    {
        final String output = AppHarness.run(RadixApp::new, 2, "-n1024", "-s");

        assertTrue(output.matches("(?s).*\n    1 +\\d+ +\\d+ +\\d+\n  Avg +\\d+ +\\d+ +\\d+\n" +
            "  Min +\\d+ +\\d+ +\\d+\n  Max +\\d+ +\\d+ +\\d+\n\n\n                 TIMING INFORMATION\n.*"), output);
    }

    @Test
    void shouldRejectARadixThatIsNotAPowerOfTwo()
    {
        final String message = AppHarness.rejection(RadixApp::new, 1, "-r1000");
        assertTrue(message.contains("-r 1000"), message);
    }

    @Test
    void shouldRejectARadixTheCProgramCannotHandle()
    {
        final String one = AppHarness.rejection(RadixApp::new, 1, "-r1");
        assertTrue(one.contains("-r 1"), one);
        final String large = AppHarness.rejection(RadixApp::new, 1, "-r8192");
        assertTrue(large.contains("-r 8192"), large);
    }

    @Test
    void shouldRejectATeamSizeThatIsNotAPowerOfTwo()
    {
        final String message = AppHarness.rejection(RadixApp::new, 3);
        assertTrue(message.contains("team size 3"), message);
    }

    @Test
    void shouldRejectNoKeysOrNoMaximum()
    {
        final String keys = AppHarness.rejection(RadixApp::new, 1, "-n0");
        assertTrue(keys.contains("-n 0"), keys);
        final String max = AppHarness.rejection(RadixApp::new, 1, "-m0");
        assertTrue(max.contains("-m 0"), max);
    }

    @Test
    void shouldRejectAPThatDiffersFromTheTeamSize()
    {
        final String message = AppHarness.rejection(RadixApp::new, 2, "-p1");
        assertTrue(message.contains("-p 1"), message);
    }

    @Test
    void shouldRejectANonNumericRadix()
    {
        final ParameterException ex =
            assertThrows(ParameterException.class, () -> AppHarness.parse(RadixApp::new, "-r", "big"));
        assertTrue(ex.getMessage().contains("-r"), ex.getMessage());
    }

    @Test
    void productMod46MatchesTheDoubleArithmeticOfTheCProgram()
    {
        final SplittableRandom random = new SplittableRandom(46);
        for (int i = 0; i < 100_000; i++)
        {
            final long t1 = random.nextLong(1L << 46);
            final long t2 = random.nextLong(1L << 46);
            assertEquals(cProductMod46(t1, t2), (double)RadixKeys.productMod46(t1, t2), t1 + " * " + t2);
        }
    }

    @Test
    void ranNumInitJumpsAheadLikeStepping()
    {
        long stepped = RadixKeys.SEED;
        for (int k = 1; k <= 1000; k++)
        {
            stepped = RadixKeys.productMod46(stepped, RadixKeys.RATIO);
            assertEquals(stepped, RadixKeys.ranNumInit(k, RadixKeys.SEED, RadixKeys.RATIO), "k=" + k);
        }
    }

    @Test
    void maxDigitsCountsTheRadixDigitsOfTheMaximumKey()
    {
        assertEquals(3, RadixApp.maxDigits(67108864, 1024));
        assertEquals(1, RadixApp.maxDigits(1023, 1024));
        assertEquals(2, RadixApp.maxDigits(1024, 1024));
        assertEquals(31, RadixApp.maxDigits(Integer.MAX_VALUE, 2));
    }

    /**
     * The C program's product_mod_46, in doubles.
     */
    private static double cProductMod46(final double t1, final double t2)
    {
        final double radixS = 8388608.0;
        final double radix = 70368744177664.0;
        final double a1 = (double)(long)(t1 / radixS);
        final double a2 = t1 - a1 * radixS;
        final double b1 = (double)(long)(t2 / radixS);
        final double b2 = t2 - b1 * radixS;
        final double s = a1 * b2 + a2 * b1;
        double t = (double)(long)(s / radixS);
        t = s - t * radixS;
        final double u = t * radixS + a2 * b2;
        final double v = (double)(long)(u / radix);
        return u - v * radix;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachKeyPartitionAtItsSorter(final int nodes)
    {
        AppHomes.check(RadixApp::new, nodes, (members, homes) ->
        {
            final long[] bounds = RadixShared.bounds(members, 65536);
            for (int p = 0; p < members; p++)
            {
                homes.expect("radix.key.0", (int)bounds[p], (int)bounds[p + 1], p);
                homes.expect("radix.key.1", (int)bounds[p], (int)bounds[p + 1], p);
                homes.expect("radix.rank_me", members + p * 1024, members + (p + 1) * 1024, p);
                homes.expectAll("radix.rank_ff." + p, p);
                homes.expectAll("radix.key_density." + p, p);
            }
            homes.expectAll("radix.key_partition", 0);
            homes.expectAll("radix.totaltime", 0);
        }, "-n65536", "-r1024");
    }

    /**
     * The permutation writes each processor's keys of each digit value to a range of the other key array that only
     * it writes, through overwrite views, so a page of the other processor's partition is neither fetched nor
     * twinned: per digit, a processor sends home exactly its keys that land in the other's partition, one diff per
     * page of that partition it writes. A page is fetched and twinned only where a processor's ranges on it are
     * more than a page keeps apart (the first and last pages in the last digit, whose values are rare: the keys
     * are sums of four uniform numbers), and then its diff carries the keys that differ from the home's copy. The
     * one other page written across partitions is {@code rank_me}'s third, node 1's, on which node 0's row ends
     * with its counts of the last two digit values (as in C, where the rows are contiguous): a twin and a diff per
     * digit. Every count here is the sort's own, computed from the C program's keys.
     */
    @Test
    void shouldSendOnlyTheKeysThatLandInTheOtherProcessorsPartition()
    {
        final int numKeys = 262144;
        final int radix = 1024;
        final int nodes = 2;
        final long maxKey = 67108864;
        final int pageKeys = 4096 / Long.BYTES;
        final long[] bounds = RadixShared.bounds(nodes, numKeys);
        final LongArray generated = LongArray.allocate(numKeys);
        RadixKeys.init(generated, 0, numKeys, maxKey);
        final long[][] key = new long[2][numKeys];
        generated.get(0, key[0], 0, numKeys);
        final long[] overwrites = new long[nodes];
        final long[] twins = new long[nodes];
        final long[] diffBytes = new long[nodes];
        final int digits = RadixApp.maxDigits(maxKey, radix);
        final int log2Radix = Integer.numberOfTrailingZeros(radix);
        long[] lastCounts = new long[2];
        for (int digit = 0; digit < digits; digit++)
        {
            final long[] from = key[digit & 1];
            final long[] to = key[(digit + 1) & 1];
            final int shift = digit * log2Radix;
            final int[][] counts = histograms(from, bounds, shift, radix);
            final int[][] ranks = new int[nodes][radix];
            int rank = 0;
            for (int v = 0; v < radix; v++)
            {
                for (int p = 0; p < nodes; p++)
                {
                    ranks[p][v] = rank;
                    rank += counts[p][v];
                }
            }
            final long[] sorted = new long[numKeys];
            for (int p = 0; p < nodes; p++)
            {
                final int[] next = ranks[p].clone();
                for (int i = (int)bounds[p]; i < bounds[p + 1]; i++)
                {
                    sorted[next[(int)((from[i] >> shift) & (radix - 1))]++] = from[i];
                }
            }
            for (int p = 0; p < nodes; p++)
            {
                // this processor's elements of the other partition's pages, and its runs of them on each page
                final int[] elements = new int[numKeys / pageKeys];
                final int[] changed = new int[numKeys / pageKeys];
                final int[] runs = new int[numKeys / pageKeys];
                int runEnd = -1;
                for (int v = 0; v < radix; v++)
                {
                    for (int e = ranks[p][v]; e < ranks[p][v] + counts[p][v]; e++)
                    {
                        if (RadixShared.owner(bounds, e) != p)
                        {
                            elements[e / pageKeys]++;
                            changed[e / pageKeys] += sorted[e] != to[e] ? 1 : 0;
                            runs[e / pageKeys] += e != runEnd || 0 == e % pageKeys ? 1 : 0;
                            runEnd = e + 1;
                        }
                    }
                }
                for (int page = 0; page < elements.length; page++)
                {
                    if (elements[page] > 0)
                    {
                        overwrites[p]++;
                        final boolean fetched = runs[page] > RANGES_KEPT_APART;
                        twins[p] += fetched ? 1 : 0;
                        diffBytes[p] += (long)Long.BYTES * (fetched ? changed[page] : elements[page]);
                    }
                }
            }
            // node 0's counts of the last two digit values, on node 1's page of rank_me, against the last digit's
            twins[0]++;
            for (int v = radix - 2; v < radix; v++)
            {
                diffBytes[0] += counts[0][v] != lastCounts[v - (radix - 2)] ? Long.BYTES : 0;
            }
            lastCounts = new long[] {counts[0][radix - 2], counts[0][radix - 1]};
            System.arraycopy(sorted, 0, to, 0, numKeys);
        }

        final List<DsmStats> stats = LocalCluster.run(nodes, "jvm", context -> { }, dsm ->
            AppHarness.parse(RadixApp::new, "-n" + numKeys, "-r" + radix, "-t")
                .run(new DsmTeam(dsm, new PrintStream(OutputStream.nullOutputStream()))));

        for (int node = 0; node < nodes; node++)
        {
            final DsmStats s = stats.get(node);
            assertTrue(overwrites[node] > 600, "most pages of the other partition, every digit: " + overwrites[node]);
            assertEquals(overwrites[node], s.get(Statistic.OVERWRITES), "pages overwritten by node " + node);
            assertEquals(twins[node], s.get(Statistic.TWINS), "twins of node " + node);
            assertEquals(overwrites[node] + (0 == node ? digits : 0), s.get(Statistic.DIFFS), "diffs of node " + node);
            assertEquals(diffBytes[node], s.get(Statistic.DIFF_BYTES), "diff bytes of node " + node);
            // the fetched and twinned key pages, and a few pages of the prefix tree and the counts per digit
            assertTrue(s.get(Statistic.PAGES_FETCHED) <= twins[node] + 8L * digits,
                "pages fetched by node " + node + ": " + s.get(Statistic.PAGES_FETCHED));
        }
    }

    /**
     * Each processor's count of its keys of each digit value.
     */
    private static int[][] histograms(final long[] keys, final long[] bounds, final int shift, final int radix)
    {
        final int[][] counts = new int[bounds.length - 1][radix];
        for (int p = 0; p < counts.length; p++)
        {
            for (int i = (int)bounds[p]; i < bounds[p + 1]; i++)
            {
                counts[p][(int)((keys[i] >> shift) & (radix - 1))]++;
            }
        }
        return counts;
    }
}
