package org.viadsm.examples.waternsq;

import java.nio.file.Files;
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
import org.viadsm.examples.water.MoleculeLayout;
import org.viadsm.examples.water.WaterProgram;
import org.viadsm.examples.water.WaterRuns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expected lines come from the C program (Splash-3 WATER-NSQUARED, gcc -O2) run on the same deck with the port's
 * generated velocities written as its random.in ({@code --write-velocities}).
 */
@Timeout(60)
class WaterNsquaredTest
{
    private static final String DECK_27 = "1.5e-16 27 6 6 -1 3000 3 0 %d 0\n";

    private static final List<String> ENERGIES_27_P2 = List.of(
        "         3        1.49856      0.04639      2.68598                       2.29084",
        "            6.522        296.26798        -10.61452",
        "         6        1.60635      0.17508      2.64515                       2.09231",
        "            6.519        303.33193        -11.21453");

    @TempDir
    static Path dir;

    @BeforeAll
    static void noRandomInHere()
    {
        WaterRuns.assumeNoRandomIn();
    }

    @Test
    void shouldPrintTheCProgramsEnergiesForAnOddMoleculeCount() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck27", String.format(DECK_27, 2));
        assertEquals(ENERGIES_27_P2, WaterRuns.energyLines(WaterRuns.run(WaterNsquared::new, 2, deck.toString())));
    }

    @Test
    void shouldRunOnTheTeamSizeWhenTheDeckGivesAnother() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-8", String.format(WaterRuns.DECK_64, 8));
        final String output = WaterRuns.run(WaterNsquared::new, 2, deck.toString());
        assertTrue(output.contains("NUMBER OF PROCESSORS       =        2\n"), output);
        assertEquals(WaterProgram.NSQUARED.energies64(), WaterRuns.energyLines(output));
    }

    @Test
    void shouldReadBackTheVelocitiesItWrites() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-w", String.format(WaterRuns.DECK_64, 1));
        final Path velocities = dir.resolve("written-random.in");
        WaterRuns.run(WaterNsquared::new, 1, deck.toString(), "--write-velocities", velocities.toString());
        assertEquals(1 + 64 * 3, Files.readAllLines(velocities).size());
        final String output = WaterRuns.run(
            WaterNsquared::new, 2, deck.toString(), "--velocities", velocities.toString());
        assertEquals(WaterProgram.NSQUARED.energies64(), WaterRuns.energyLines(output));
    }

    @Test
    void validateNamesTheLineAndFieldOfAMalformedDeck() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "malformed", "1.5e-16 64 6 6\n-1 3000 two 0\n1 0\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AppHarness.parse(WaterNsquared::new, deck.toString()).validate(1));
        assertEquals("parameter file " + deck + " line 2: expected an integer for NPRINT, found 'two'",
            ex.getMessage());
    }

    @Test
    void validateNamesTheFieldMissingFromAShortDeck() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "short", "1.5e-16 64 6 6\n-1 3000 2 0\n1\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AppHarness.parse(WaterNsquared::new, deck.toString()).validate(1));
        assertEquals("parameter file " + deck + ": expected a number for CUTOFF, " +
            "found the end of the input after line 3", ex.getMessage());
    }

    @Test
    void validateRejectsAMoleculeCountThatIsNotACube() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "cube", "1.5e-16 100 6 6 -1 3000 2 0 1 0\n");
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AppHarness.parse(WaterNsquared::new, deck.toString()).validate(1));
        assertTrue(ex.getMessage().startsWith("Lattice init error: total mol 125 != NMOL 100"), ex.getMessage());
    }

    @Test
    void runNamesAnUnreadableVelocitiesFile() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-v", String.format(WaterRuns.DECK_64, 1));
        final Path velocities = dir.resolve("missing-random.in");
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> WaterRuns.run(
            WaterNsquared::new, 1, deck.toString(), "--velocities", velocities.toString()));
        final IllegalArgumentException ex = assertInstanceOf(IllegalArgumentException.class, failure.getCause());
        assertTrue(ex.getMessage().startsWith("cannot read velocities file " + velocities), ex.getMessage());
    }

    @Test
    void runNamesTheLineOfABadVelocity() throws Exception
    {
        final Path deck = WaterRuns.deck(dir, "deck64-b", String.format(WaterRuns.DECK_64, 1));
        final Path velocities = WaterRuns.deck(dir, "bad-random.in", "0.5\n0.1 0.2 0.3\n0.4 x.5 0.6\n");
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> WaterRuns.run(
            WaterNsquared::new, 1, deck.toString(), "--velocities", velocities.toString()));
        final IllegalArgumentException ex = assertInstanceOf(IllegalArgumentException.class, failure.getCause());
        assertEquals("velocities file " + velocities + " line 3: expected a number for number 6 of 577, found 'x.5'",
            ex.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsMoleculesAndForcesAtThatProcessor(final int members) throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, members);
        AppHomes.check(WaterNsquared::new, members, (nodes, homes) ->
        {
            final int[] startMol = NsquaredSimulation.startMol(64, nodes);
            final int forces = homes.length(NsquaredLayout.PFORCES_NAME) / nodes;
            for (int p = 0; p < nodes; p++)
            {
                homes.expect(NsquaredLayout.VAR_NAME, startMol[p] * MoleculeLayout.LENGTH,
                    startMol[p + 1] * MoleculeLayout.LENGTH, p);
                homes.expect(NsquaredLayout.PFORCES_NAME, p * forces, (p + 1) * forces, p);
            }
            homes.expectAll(NsquaredLayout.GL_NAME, 0);
        }, deck.toString());
    }
}
