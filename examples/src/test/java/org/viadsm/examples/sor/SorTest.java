package org.viadsm.examples.sor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.CountingTeam;
import org.viadsm.examples.runtime.DelegatingTeam;
import org.viadsm.examples.runtime.Team;
import org.viadsm.examples.runtime.TeamBody;
import org.viadsm.examples.runtime.TeamFailure;
import org.viadsm.examples.runtime.ThreadTeam;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class SorTest
{
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheSameChecksumOnAnyTeamAndPassItsCheck(final int members)
    {
        final AtomicIntegerArray barriers = new AtomicIntegerArray(members);
        final AtomicIntegerArray locks = new AtomicIntegerArray(members);
        final List<String> lines = run(members, team ->
        {
            final Sor sor = parse("-m64", "-n64", "-i10", "-t");
            sor.run(new CountingTeam(team, barriers, locks));
        });

        assertEquals("Red-black SOR: 64 x 64 interior points, 10 iterations, omega 1, team of " + members,
            lines.get(0));
        assertEquals("Checksum: 1.896034160269915e+02", lines.get(1));
        assertTrue(lines.get(2).startsWith("Iteration time (us): "), lines.get(2));
        assertEquals("TEST PASSED: checksum equals the sequential run's", lines.get(3));
        for (int id = 0; id < members; id++)
        {
            assertEquals(2 * 10 + 2, barriers.get(id), "barriers of member " + id);
            assertEquals(0, locks.get(id), "locks of member " + id);
        }
    }

    @Test
    void shouldOverRelaxWithUnevenBands()
    {
        final List<String> lines = run(3, team -> parse("-m64", "-n48", "-i10", "-w1.5", "-t").run(team));

        assertEquals("Checksum: 2.836312494636290e+02", lines.get(1));
        assertEquals("TEST PASSED: checksum equals the sequential run's", lines.get(3));
    }

    @Test
    void shouldFailTheCheckWhenMembersDoNotShareTheGrid()
    {
        // Each member gets a private grid: its neighbours' rows never arrive, as with a broken DSM.
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> run(2, team ->
            parse("-m16", "-n16", "-i3", "-t").run(new PrivateGridTeam(team))));

        assertEquals(0, failure.member());
        assertInstanceOf(VerificationException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().startsWith("SOR checksum "), failure.getCause().getMessage());
    }

    @Test
    void validateRefusesAnEmptyGrid()
    {
        assertEquals("-m: rows must be at least 1: m=0",
            assertThrows(IllegalArgumentException.class, () -> parse("-m0").validate(1)).getMessage());
        assertEquals("-n: columns must be at least 1: n=0",
            assertThrows(IllegalArgumentException.class, () -> parse("-n0").validate(1)).getMessage());
    }

    @Test
    void validateRefusesMoreMembersThanRows()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-m2").validate(4));

        assertEquals("-m: every member needs a row: m=2, teamSize=4", ex.getMessage());
    }

    @Test
    void validateRefusesANegativeIterationCount()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-i", "-1").validate(1));

        assertEquals("-i: iterations must not be negative: i=-1", ex.getMessage());
    }

    private static Sor parse(final String... args)
    {
        final Sor sor = new Sor();
        new CommandLine(sor).parseArgs(args);
        return sor;
    }

    private static List<String> run(final int members, final TeamBody body)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ThreadTeam.run(members, new PrintStream(bytes, true, StandardCharsets.UTF_8), body);
        return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n", -1));
    }

    /** Shares everything but the grid, which every member gets a private copy of. */
    private static final class PrivateGridTeam extends DelegatingTeam
    {
        PrivateGridTeam(final Team team)
        {
            super(team);
        }

        @Override
        public DoubleArray doubles(final String name, final int length, final Placement placement)
        {
            return "sor.grid".equals(name) ? DoubleArray.allocate(length) : super.doubles(name, length, placement);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachBandOfRowsAtItsMember(final int nodes)
    {
        AppHomes.check(Sor::new, nodes, (members, homes) ->
        {
            final int stride = 200 + 2;
            for (int m = 0; m < members; m++)
            {
                final int first = RedBlackGrid.firstRow(100, m, members);
                final int end = RedBlackGrid.firstRow(100, m + 1, members);
                homes.expect("sor.grid", first * stride, end * stride, m);
                homes.expect("sor.rowSums", first - 1, end - 1, m);
            }
            assertEquals(0, homes.of("sor.grid", 0), "the top boundary row goes with the first band");
            assertEquals(members - 1, homes.of("sor.grid", 101 * stride + 1), "the bottom one with the last");
        }, "-m100", "-n200", "-i2");
    }
}
