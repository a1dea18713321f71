package org.viadsm.examples.water;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What both WATER programs must do alike: print what the C program prints, on 1, 2 and 4 members, synchronize as
 * often as it does, and name a missing input. What only one of them does is tested beside it.
 */
@Timeout(60)
@ParameterizedClass
@EnumSource(WaterProgram.class)
class WaterProgramsTest
{
    @TempDir
    static Path dir;

    private final WaterProgram program;

    WaterProgramsTest(final WaterProgram program)
    {
        this.program = program;
    }

    @BeforeAll
    static void noRandomInHere()
    {
        WaterRuns.assumeNoRandomIn();
    }

    @Test
    void shouldPrintWhatTheCProgramPrintsOnOneMember() throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, 1);
        final String output = WaterRuns.run(program.factory(), 1, deck.toString());
        assertEquals(program.output64OnOne(), WaterRuns.withoutClock(output));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheCProgramsEnergies(final int members) throws Exception
    {
        final Path deck = WaterRuns.deck64(dir, members);
        final String output = WaterRuns.run(program.factory(), members, deck.toString());
        assertEquals(program.energies64(), WaterRuns.energyLines(output));
        assertTrue(output.contains(program.membersLine(members)), output);
    }

    /**
     * Barriers counted in the C program (its BARRIER macro instrumented) on the 64-molecule deck, the same for both
     * programs; the port adds one barrier per member, after member 0's initialization.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldSynchronizeAsTheCProgramDoes(final int members) throws Exception
    {
        final long cBarriers = 39L * members;
        final Path deck = WaterRuns.deck(dir, "deck64-sync" + members, String.format(WaterRuns.DECK_64, members));
        final AtomicIntegerArray barriers = new AtomicIntegerArray(members);
        final AtomicIntegerArray locks = new AtomicIntegerArray(members);
        WaterRuns.run(program.factory(), members, barriers, locks, deck.toString());
        assertEquals(cBarriers + members, sum(barriers));
        assertEquals(program.locks64(members), sum(locks));
    }

    @Test
    void validateNamesAMissingInputFile()
    {
        final Path missing = dir.resolve("no-such-deck");
        final String message = WaterRuns.missingDeckMessage(program.factory(), missing);
        assertEquals("cannot read parameter file " + missing + ": no such file", message);
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
}
