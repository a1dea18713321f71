package org.viadsm.examples.waterspatial;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.TeamFailure;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.water.WaterParameters;
import org.viadsm.examples.water.WaterRuns;
import org.viadsm.examples.water.WaterSystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expected lines come from the C program (Splash-3 WATER-SPATIAL with its lattice coordinates declared double, as
 * in SPLASH-2; gcc -O2) run on the same deck with the port's generated velocities written as its random.in.
 */
@Timeout(60)
class WaterSpatialTest
{
    private static final String DECK_216 = "1.5e-16 216 4 6 -1 3000 2 0 %d 6.0\n";

    private static final String OUTPUT_64_P1 =
        "Using 1 procs on 6 steps of 64 mols\n" +
        "Other parameters:\n" +
        "\tTSTEP = 1.50e-16\n" +
        "\tNORDER = 6\n" +
        "\tNSAVE = -1\n" +
        "\tNRST = 3000\n" +
        "\tNPRINT = 2\n" +
        "\tNFMC = 0\n" +
        "\tCUTOFF = 0.000000\n" +
        "\n" +
        "8 boxes with 1 processors\n" +
        "\n" +
        "\n" +
        "TEMPERATURE                =   298.00 K\n" +
        "DENSITY                    =  0.99800 G/C.C.\n" +
        "NUMBER OF MOLECULES        =       64\n" +
        "NUMBER OF PROCESSORS       =        1\n" +
        "TIME STEP                  = 1.50e-01 SEC\n" +
        "ORDER USED TO SOLVE F=MA   =        6 \n" +
        "NO. OF TIME STEPS          =        6 \n" +
        "FREQUENCY OF DATA SAVING   =       -1 \n" +
        "FREQUENCY TO WRITE RST FILE=     3000 \n" +
        "xprocs = 1\typrocs = 1\tzprocs = 1\n" +
        "x_inc = 2\t y_inc = 2\t z_inc = 2\n" +
        "x_left = 0\t y_left = 0\t z_left = 0\n" +
        "SPHERICAL CUTOFF RADIUS    =   6.2128 ANGSTROM\n" +
        "\n" +
        "NS = 3.9999999999999893\n" +
        "BOXL =  12.425505\n" +
        "CUTOFF =   6.212752\n" +
        "BOX_LENGTH =   6.212752\n" +
        "BOX_PER_SIDE = 2\n" +
        "XS =   3.106376\n" +
        "ZERO = 1.55319\n" +
        "WCOS = 0.585882\n" +
        "WSIN = 0.756950\n" +
        "***** NEW RUN STARTING FROM REGULAR LATTICE *****\n" +
        "         2        1.52756      0.02153     10.63691     -2.16188 \n" +
        "           10.024        301.37723        -19.27240\n" +
        "         4        1.62484      0.08681     10.50767     -2.19454 \n" +
        "           10.025        309.30167        -19.76770\n" +
        "         6        1.77748      0.19920     10.24175     -2.19360 \n" +
        "           10.025        321.18979        -20.52297\n" +
        "\n" +
        "Exited Happily with XTT = 10.0248 (note: XTT value is garbage if NPRINT > NSTEP)\n";

    /**
     * The C program prints these same lines on 1, 2 and 4 processors (8 boxes).
     */
    private static final List<String> ENERGIES_64 = List.of(
        "         2        1.52756      0.02153     10.63691     -2.16188 ",
        "           10.024        301.37723        -19.27240",
        "         4        1.62484      0.08681     10.50767     -2.19454 ",
        "           10.025        309.30167        -19.76770",
        "         6        1.77748      0.19920     10.24175     -2.19360 ",
        "           10.025        321.18979        -20.52297");

    /**
     * 27 boxes on 4 processors (1 x 2 x 2, uneven slabs), wrapping neighbours.
     */
    private static final List<String> ENERGIES_216_P4 = List.of(
        "         2        1.51086      0.02374     14.75035     -6.77042 ",
        "            9.515        299.06737        -25.95329",
        "         4        1.57974      0.09476     14.57021     -6.72945 ",
        "            9.515        304.43877        -26.37961");

    @TempDir
    static Path dir;

    @BeforeAll
    static void noRandomInHere()
    {
        WaterRuns.assumeNoRandomIn();
    }

    @Test
    void shouldPrintWhatTheCProgramPrintsOnOneMember() throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, 1);
        final String output = WaterRuns.run(WaterSpatial::new, 1, deck.toString());
        assertEquals(OUTPUT_64_P1, WaterRuns.withoutClock(output));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheCProgramsEnergies(final int members) throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, members);
        final String output = WaterRuns.run(WaterSpatial::new, members, deck.toString());
        assertEquals(ENERGIES_64, WaterRuns.energyLines(output));
        assertTrue(output.contains("8 boxes with " + members + " processors\n"), output);
    }

    @Test
    void shouldPrintTheCProgramsEnergiesOnAnUnevenlySplitGrid() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck216", String.format(DECK_216, 4));
        final String output = WaterRuns.run(WaterSpatial::new, 4, deck.toString());
        assertTrue(output.contains("xprocs = 1\typrocs = 2\tzprocs = 2\nx_inc = 3\t y_inc = 1\t z_inc = 1\n" +
            "x_left = 0\t y_left = 1\t z_left = 1\n"), output);
        assertEquals(ENERGIES_216_P4, WaterRuns.energyLines(output));
    }

    /**
     * Totals over all processors counted in the C program (its LOCK, ALOCK and BARRIER macros instrumented) on the
     * 64-molecule deck; the port adds one barrier per member, after member 0's initialization.
     */
    @ParameterizedTest
    @CsvSource({"1, 39, 39", "2, 78, 75", "4, 156, 147"})
    void shouldSynchronizeAsTheCProgramDoes(final int members, final long cBarriers, final long cLocks)
        throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-sync" + members, String.format(WaterRuns.DECK_64, members));
        final AtomicIntegerArray barriers = new AtomicIntegerArray(members);
        final AtomicIntegerArray locks = new AtomicIntegerArray(members);
        WaterRuns.run(WaterSpatial::new, members, barriers, locks, deck.toString());
        assertEquals(cBarriers + members, sum(barriers));
        assertEquals(cLocks, sum(locks));
    }

    @Test
    void validateRejectsMoreMembersThanBoxes() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-9", String.format(WaterRuns.DECK_64, 9));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AppHarness.parse(WaterSpatial::new, deck.toString()).validate(9));
        assertTrue(ex.getMessage().startsWith("ERROR: less boxes (8) than processors (9)"), ex.getMessage());
    }

    @Test
    void validateNamesAMissingInputFile()
    {
        final Path missing = dir.resolve("no-such-deck");
        final String message = WaterRuns.missingDeckMessage(WaterSpatial::new, missing);
        assertTrue(message.startsWith("cannot read parameter file " + missing), message);
    }

    @Test
    void runNamesAVelocitiesFileWithTooFewNumbers() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-v", String.format(WaterRuns.DECK_64, 1));
        final Path velocities = WaterRuns.deck(dir, "short-random.in", "0.5\n0.1 0.2 0.3\n");
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> WaterRuns.run(
            WaterSpatial::new, 1, deck.toString(), "--velocities", velocities.toString()));
        final IllegalArgumentException ex = assertInstanceOf(IllegalArgumentException.class, failure.getCause());
        assertEquals("velocities file " + velocities + ": expected a number for number 5 of 577, " +
            "found the end of the input after line 2", ex.getMessage());
    }

    private static long sum(final AtomicIntegerArray counts)
    {
        long total = 0;
        for (int i = 0; i < counts.length(); i++)
        {
            total += counts.get(i);
        }
        return total;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsBoxesAndTheirMoleculesAtThatProcessor(final int members) throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, members);
        AppHomes.check(WaterSpatial::new, members, (nodes, homes) ->
        {
            final WaterSystem system = new WaterSystem(WaterParameters.read(deck));
            final SpatialGrid grid = new SpatialGrid(system);
            final int[] bounds = Partition.compute(nodes, grid.boxPerSide(),
                new PrintStream(OutputStream.nullOutputStream()));
            final int[] owners = WaterSpatial.initialOwners(system, grid, bounds);
            for (int mol = 0; mol < owners.length; mol++)
            {
                homes.expect(SpatialLayout.LINKS_NAME, mol * SpatialLayout.LINK_LENGTH,
                    (mol + 1) * SpatialLayout.LINK_LENGTH, owners[mol]);
            }
            for (int box = 0; box < grid.numBoxes(); box++)
            {
                homes.expect(SpatialLayout.BOX_NAME, box, box + 1, Partition.owner(bounds, box, grid.boxPerSide()));
            }
            for (int p = 0; p < nodes; p++)
            {
                homes.expect(SpatialLayout.START_END_NAME, p * SpatialLayout.START_END_LENGTH,
                    (p + 1) * SpatialLayout.START_END_LENGTH, p);
            }
            homes.expectAll(SpatialLayout.GL_NAME, 0);
        }, deck.toString());
    }
}
