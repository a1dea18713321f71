package org.viadsm.examples.waterspatial;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
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
    void shouldPrintTheCProgramsEnergiesOnAnUnevenlySplitGrid() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck216", String.format(DECK_216, 4));
        final String output = WaterRuns.run(WaterSpatial::new, 4, deck.toString());
        assertTrue(output.contains("xprocs = 1\typrocs = 2\tzprocs = 2\nx_inc = 3\t y_inc = 1\t z_inc = 1\n" +
            "x_left = 0\t y_left = 1\t z_left = 1\n"), output);
        assertEquals(ENERGIES_216_P4, WaterRuns.energyLines(output));
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
