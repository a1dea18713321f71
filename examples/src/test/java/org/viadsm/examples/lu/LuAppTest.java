package org.viadsm.examples.lu;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.Statistic;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.DelegatingTeam;
import org.viadsm.examples.runtime.Drand48;
import org.viadsm.examples.runtime.DsmTeam;
import org.viadsm.examples.runtime.TeamProbe;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.ParameterException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expected lines are what the C program (Splash-3, built with gcc -O2 -pthread) printed for the same arguments.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LuAppTest
{
    private static final String PASSED = "                             TESTING RESULTS\nTEST PASSED\n";
    private static final String N10_BEFORE = "Matrix before decomposition:\n" +
        " 27283.7  23017.5  40768.5  45548.5  27957.2  44541.8  35402.6  39788.1  17524.8  15860.5 \n" +
        " 29786.5 375758.9  13821.5  14982.2  32830.7   9894.6  42454.2  24617.4  62464.1  32080.6 \n";
    private static final String N10_AFTER_LAST_ROWS =
        " 49186.1  11361.3 -46752.0 -43008.4 -15476.2  -7507.7  -1423.5 -39447.1 512349.7      0.0 \n" +
        " 24004.8 -11045.1  22104.1  -7541.8  29103.3 -31256.7   6933.0  -4892.5   9966.1 246200.6 \n" +
        "                            PROCESS STATISTICS\n";
    private static final String N4_AFTER = "\nMatrix after decomposition:\n" +
        " 27283.7      1.4      1.8      0.3 \n" +
        " 29786.5 -39302.8      0.8      0.1 \n" +
        " 54712.3 -62024.6 178401.7      0.3 \n" +
        " 22019.9  35000.2 -28563.4  97449.9 \n";

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldPassTheResidualTestOfTheCProgram(final int members)
    {
        final String output = AppHarness.run(LuApp::new, members, "-n64", "-b16", "-t");

        assertTrue(output.startsWith("\nBlocked Dense LU Factorization\n     64 by 64 Matrix\n     " + members +
            " Processors\n     16 by 16 Element Blocks\n\n\n                            PROCESS STATISTICS\n"), output);
        assertTrue(output.matches("(?s).*\nTotal time without initialization : +\\d+\n.*"), output);
        assertTrue(output.endsWith(PASSED), output);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldHandleABlockSizeThatDoesNotDivideTheMatrix(final int members)
    {
        final String output = AppHarness.run(LuApp::new, members, "-n37", "-b5", "-t");

        assertTrue(output.endsWith(PASSED), output);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheMatrixOfTheCProgram(final int members)
    {
        final String n10 = AppHarness.run(LuApp::new, members, "-n10", "-b4", "-o", "-t");
        final String n4 = AppHarness.run(LuApp::new, members, "-n4", "-b4", "-o");

        assertTrue(n10.contains(N10_BEFORE), n10);
        assertTrue(n10.contains(N10_AFTER_LAST_ROWS), n10);
        assertTrue(n10.endsWith(PASSED), n10);
        assertTrue(n4.contains(N4_AFTER), n4);
    }

    /**
     * Each member stores its own blocks of the matrix, and the master the right-hand side: together they are the
     * C program's sequential {@code InitA}, bit for bit, whatever the team size (37 x 37 in blocks of 5: the last
     * block row and column are 2 wide).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldInitializeTheSequentialProgramsMatrixBitForBit(final int members)
    {
        final int n = 37;
        final int blockSize = 5;
        final double[][] expected = new double[n][n];
        final Drand48 random = new Drand48(1);
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                expected[i][j] = random.lrand48() / LuMatrix.MAXRAND * (i == j ? 10 : 1);
            }
        }
        final double[] expectedRhs = new double[n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                expectedRhs[i] += expected[i][j];
            }
        }
        final LuLayout layout = new LuLayout(n, blockSize, members);
        final double[][] matrix = new double[n][];
        final double[] rhs = new double[n];
        final TeamProbe probe = new TeamProbe().onOutput("Matrix before decomposition", arrays ->
        {
            copyMatrix(layout, arrays, matrix);
            ((DoubleArray)arrays.get("lu.rhs")).get(0, rhs, 0, n);
        });

        final AppHarness.Result result =
            AppHarness.attempt(LuApp::new, members, probe::wrap, "-n" + n, "-b" + blockSize, "-o", "-t");

        assertNull(result.failure());
        for (int i = 0; i < n; i++)
        {
            assertArrayEquals(expected[i], matrix[i], "row " + i);
        }
        assertArrayEquals(expectedRhs, rhs);
    }

    @Test
    void shouldDetectACorruptedResult()
    {
        final TeamProbe probe = new TeamProbe().onOutput("TIMING INFORMATION",
            arrays -> ((DoubleArray)arrays.get("lu.rhs")).set(0, ((DoubleArray)arrays.get("lu.rhs")).get(0) * 2));

        final AppHarness.Result result = AppHarness.attempt(LuApp::new, 2, probe::wrap, "-n64", "-b16", "-t");

        assertTrue(result.output().matches("(?s).*\nTEST FAILED: \\(-?\\d+\\.\\d{5} diff\\)\n"), result.output());
        final VerificationException failure =
            assertInstanceOf(VerificationException.class, result.failure().getCause());
        assertTrue(failure.getMessage().contains("exceeds 1.0E-5"), failure.getMessage());
    }

    @Test
    void shouldSynchronizeAsOftenAsTheCProgram()
    {
        final TeamProbe probe = new TeamProbe();

        final AppHarness.Result result = AppHarness.attempt(LuApp::new, 3, probe::wrap, "-n64", "-b16", "-t");

        assertNull(result.failure());
        for (int id = 0; id < 3; id++)
        {
            // One start barrier, two before lu, two per block column, one after lu.
            assertEquals(1 + 2 + 2 * 4 + 1, probe.barriers(id));
            assertEquals(1, probe.locks(id));
        }
    }

    @Test
    void shouldPrintEveryProcessorsStatisticsWithS()
    {
        final TeamProbe probe = new TeamProbe();

        final AppHarness.Result result = AppHarness.attempt(LuApp::new, 3, probe::wrap, "-n32", "-b8", "-s");

        assertNull(result.failure());
        assertTrue(result.output().matches("(?s).*\n    2( +\\d+){5}\n  Avg( +\\d+){5}\n  Min( +\\d+){5}\n" +
            "  Max( +\\d+){5}\n\n.*"), result.output());
        assertEquals(1 + 2 + 2 * 4 + 1 + 1, probe.barriers(0));
    }

    @Test
    void shouldRejectABlockSizeLargerThanTheMatrix()
    {
        final String message = AppHarness.rejection(LuApp::new, 1, "-n64", "-b65");
        assertTrue(message.contains("-b 65"), message);
    }

    @Test
    void shouldRejectAZeroBlockSizeOrMatrix()
    {
        final String block = AppHarness.rejection(LuApp::new, 1, "-b0");
        assertTrue(block.contains("-b 0"), block);
        final String matrix = AppHarness.rejection(LuApp::new, 1, "-n0");
        assertTrue(matrix.contains("-n 0"), matrix);
    }

    @Test
    void shouldRejectAPThatDiffersFromTheTeamSize()
    {
        final String message = AppHarness.rejection(LuApp::new, 3, "-p4");
        assertTrue(message.contains("-p 4"), message);
    }

    @Test
    void shouldRejectAnUnknownOption()
    {
        final ParameterException ex =
            assertThrows(ParameterException.class, () -> AppHarness.parse(LuApp::new, "-x"));
        assertTrue(ex.getMessage().contains("-x"), ex.getMessage());
    }

    @Test
    void shouldLayOutEachProcessorsBlocksContiguously()
    {
        final LuLayout layout = new LuLayout(10, 4, 2);

        // Blocks (I, J) with I + 3 J even go to processor 0, in the order I then J: (0,0) (0,2) (1,1) (2,0) (2,2);
        // the last block row and column are 2 wide.
        assertEquals(3, layout.nblocks);
        assertEquals(2, layout.edge);
        assertEquals(16 + 8 + 16 + 8 + 4, layout.procLength[0]);
        assertEquals(16 + 16 + 8 + 8, layout.procLength[1]);
        assertEquals(0, layout.blockOffset[0]);
        assertEquals(16, layout.blockOffset[0 + 2 * 3]);
        assertEquals(24, layout.blockOffset[1 + 3]);
        assertEquals(40, layout.blockOffset[2]);
        // Processor 1: (0,1) (1,0) (1,2) (2,1).
        assertEquals(1, layout.blockProc[1]);
        assertEquals(0, layout.blockOffset[0 + 1 * 3]);
        assertEquals(16, layout.blockOffset[1]);
        // Within a block, column-major with as many rows as the block has.
        assertEquals(2, layout.elementOffset(2, 4));
        assertEquals(1 + 1 * 2, layout.elementOffset(9, 5));
        assertEquals(2 + 3 * 4, layout.elementOffset(6, 3));
    }

    /**
     * Every block is written only by its owner, in the owner's array: initialized, factored, divided (the C program
     * parcels the pivot row's and column's divisions out otherwise) and modified. So the timed phase sends no diff on
     * 2 or 3 nodes, and the whole run sends one per node but the master: its increment of the id counter, which lives
     * at the master, under the id lock (one long, 8 bytes).
     */
    @ParameterizedTest
    @CsvSource({"jvm, 2", "jvm, 3", "shm, 2"})
    void shouldSendNoDiffOfTheMatrix(final String provider, final int nodes)
    {
        final String[] args = {"-n256", "-b16", "-t"};
        final PrintStream out = new PrintStream(OutputStream.nullOutputStream());

        final List<DsmStats> timed = LocalCluster.run(nodes, provider, context -> { }, dsm ->
            AppHarness.parse(LuApp::new, args).run(new DsmTeam(dsm, out)));
        // a team that does not mark the timed phase: the statistics are the whole run's
        final List<DsmStats> whole = LocalCluster.run(nodes, provider, context -> { }, dsm ->
            AppHarness.parse(LuApp::new, args).run(new DelegatingTeam(new DsmTeam(dsm, out))));

        for (int node = 0; node < nodes; node++)
        {
            assertEquals(1, timed.get(node).get(Statistic.MEASURED_PHASES), "timed phases of node " + node);
            assertEquals(0, timed.get(node).get(Statistic.DIFFS), "diffs of node " + node + " in the timed phase");
            assertEquals(0, timed.get(node).get(Statistic.DIFF_BYTES), "diff bytes of node " + node);
            final int expected = 0 == node ? 0 : 1;
            assertEquals(0, whole.get(node).get(Statistic.MEASURED_PHASES), "timed phases of node " + node);
            assertEquals(expected, whole.get(node).get(Statistic.DIFFS), "diffs of node " + node + " in the run");
            assertEquals(expected * Long.BYTES, whole.get(node).get(Statistic.DIFF_BYTES),
                "diff bytes of node " + node + " in the run");
        }
    }

    /**
     * The factors do not depend on which processor divides or modifies a block: bit for bit the same on 1 to 4
     * members (37 x 37 in blocks of 5, so that on 3 members the pivot column's blocks have other owners than the
     * C program's {@code BlockOwnerColumn} gives them the division to).
     */
    @Test
    void shouldFactorBitForBitWhateverTheTeamSize()
    {
        final int n = 37;
        final int blockSize = 5;
        final double[][][] factors = new double[5][n][];
        for (int members = 1; members <= 4; members++)
        {
            final LuLayout layout = new LuLayout(n, blockSize, members);
            final double[][] matrix = factors[members];
            final TeamProbe probe =
                new TeamProbe().onOutput("TIMING INFORMATION", arrays -> copyMatrix(layout, arrays, matrix));

            assertNull(AppHarness.attempt(LuApp::new, members, probe::wrap, "-n" + n, "-b" + blockSize, "-t")
                .failure());
        }

        for (int members = 2; members <= 4; members++)
        {
            for (int i = 0; i < n; i++)
            {
                assertArrayEquals(factors[1][i], factors[members][i], members + " members, row " + i);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsBlocksAtThatProcessor(final int nodes)
    {
        AppHomes.check(LuApp::new, nodes, (members, homes) ->
        {
            for (int p = 0; p < members; p++)
            {
                homes.expectAll("lu.a." + p, p);
            }
            homes.expectAll("lu.rhs", 0);
            homes.expectAll("lu.global", 0);
            homes.expectAll("lu.completion", 0);
        }, "-n128", "-b16");
    }

    /**
     * Copies every element (i, j) of the matrix out of the processors' block arrays into {@code matrix[i][j]}.
     */
    private static void copyMatrix(final LuLayout layout, final Map<String, Object> arrays, final double[][] matrix)
    {
        final int n = layout.n;
        for (int i = 0; i < n; i++)
        {
            matrix[i] = new double[n];
            for (int j = 0; j < n; j++)
            {
                final int block = layout.elementBlock(i, j);
                final DoubleArray array = (DoubleArray)arrays.get("lu.a." + layout.blockProc[block]);
                matrix[i][j] = array.get(layout.blockOffset[block] + layout.elementOffset(i, j));
            }
        }
    }
}
