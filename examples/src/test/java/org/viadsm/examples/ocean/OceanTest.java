package org.viadsm.examples.ocean;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.CountingTeam;
import org.viadsm.examples.runtime.TeamFailure;
import org.viadsm.examples.runtime.ThreadTeam;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class OceanTest
{
    /** {@code OCEAN -n34 -p1 -o} of Splash-3, built with gcc -O2; the level is 3 from 2 processors on. */
    private static final String[] N34 = {
        "iter 60, level %d, residual norm 5.60402854e-08, work =  32.062",
        "iter 36, level %d, residual norm 5.37895700e-08, work =  17.062",
        "iter 28, level %d, residual norm 7.34589419e-08, work =  13.188",
        "iter 18, level %d, residual norm 8.50573203e-08, work =   9.000",
        "iter 10, level %d, residual norm 7.45038450e-08, work =   5.125",
        "iter 11, level %d, residual norm 5.08933911e-08, work =   8.750",
        "iter 6, level %d, residual norm 6.88626089e-08, work =   6.000",
        "iter 18, level %d, residual norm 8.18672857e-08, work =   9.000",
        "iter 11, level %d, residual norm 4.41297281e-08, work =   6.125",
        "iter 10, level %d, residual norm 6.09007035e-08, work =   7.750",
        "iter 5, level %d, residual norm 8.98968016e-08, work =   5.000",
        "iter 18, level %d, residual norm 6.28246051e-08, work =  10.125",
        "iter 12, level %d, residual norm 4.82803563e-08, work =   7.125",
    };

    /** {@code OCEAN -n66 -e1e-9 -p1 -o} (level 4 on 2 processors); Java's own sines change the last digits. */
    private static final String[] N66_TIGHT = {
        "iter 81, level %d, residual norm 6.41939057e-10, work =  42.188",
        "iter 57, level %d, residual norm 6.75319385e-10, work =  25.875",
        "iter 48, level %d, residual norm 8.59940839e-10, work =  21.750",
        "iter 39, level %d, residual norm 4.24186856e-10, work =  18.562",
        "iter 30, level %d, residual norm 5.64606105e-10, work =  14.438",
        "iter 29, level %d, residual norm 4.72955513e-10, work =  17.000",
        "iter 20, level %d, residual norm 6.61867040e-10, work =  12.875",
        "iter 39, level %d, residual norm 4.18503793e-10, work =  18.562",
        "iter 30, level %d, residual norm 5.57348584e-10, work =  14.438",
        "iter 28, level %d, residual norm 6.56407832e-10, work =  16.000",
        "iter 19, level %d, residual norm 8.96308735e-10, work =  11.875",
        "iter 39, level %d, residual norm 7.85670838e-10, work =  18.562",
        "iter 31, level %d, residual norm 4.41166299e-10, work =  15.438",
    };

    /** The C program's header for {@code -n34 -p1 -o}. */
    private static final String[] HEADER = {
        "",
        "Ocean simulation with W-cycle multigrid solver",
        "    Processors                         : 1",
        "    Grid size                          : 34 x 34",
        "    Grid resolution (meters)           : 20000.00",
        "    Time between relaxations (seconds) : 28800",
        "    Error tolerance                    : 1e-07",
        "",
        "                       MULTIGRID OUTPUTS",
    };

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheResidualsOfTheCProgramAndTakeItsBarriersAndLocks(final int members)
    {
        final AtomicIntegerArray barriers = new AtomicIntegerArray(members);
        final AtomicIntegerArray locks = new AtomicIntegerArray(members);
        final List<String> lines = run(members, barriers, locks, "-n34", "-o");

        assertEquals(expected(N34, 1 == members ? 4 : 3), iterLines(lines));
        for (int id = 0; id < members; id++)
        {
            // Counted in the C program with instrumented BARRIER and LOCK macros: 1080 and 251 per processor.
            assertEquals(1080, barriers.get(id), "barriers of member " + id);
            assertEquals(251, locks.get(id), "locks of member " + id);
        }
    }

    @Test
    void shouldPrintTheHeaderOfTheCProgram()
    {
        final List<String> lines = run(1, null, null, "-n34", "-o");

        assertEquals(Arrays.asList(HEADER), lines.subList(0, HEADER.length));
        assertTrue(lines.contains("                       PROCESS STATISTICS"), lines.toString());
        assertTrue(lines.contains("    (excludes first timestep)"), lines.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldMatchTheCProgramToTheLastPrintedDigitAtATightTolerance(final int members)
    {
        final List<String> lines = run(members, null, null, "-n66", "-e1e-9", "-o");

        assertEquals(expected(N66_TIGHT, 1 == members ? 5 : 4), iterLines(lines));
    }

    @Test
    void shouldPrintStatisticsOfEveryMemberWithDashS()
    {
        final List<String> lines = run(2, null, null, "-n18", "-s");

        assertTrue(lines.stream().anyMatch(line -> line.startsWith("    1   ")), lines.toString());
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("  Avg   ")), lines.toString());
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("iter ")), lines.toString());
    }

    @Test
    void validateRefusesAGridThatIsNotAPowerOfTwoPlusTwo()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-n35").validate(1));

        assertEquals("-n: grid must be ((power of 2)+2) in each dimension: n=35", ex.getMessage());
    }

    @Test
    void validateRefusesATeamSizeThatIsNotAPowerOfTwo()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-n34").validate(3));

        assertEquals("-p (team size) must be a power of 2: teamSize=3", ex.getMessage());
    }

    @Test
    void validateRefusesAGridTooSmallForTheTeam()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-n6").validate(16));

        assertEquals("-n: must have at least 2 grid points per processor in each dimension: n=6, teamSize=16",
            ex.getMessage());
    }

    @Test
    void validateRefusesATimeStepThatIsNotPositive()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> parse("-t0").validate(1));

        assertEquals("-t: time step must be positive: t=0.0", ex.getMessage());
    }

    @Test
    void shouldFailVerificationWhenTheSolutionIsNotFinite()
    {
        // A zero grid spacing divides by zero; the C program prints zero residuals and carries on with NaNs.
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> run(1, null, null, "-n18", "-r0"));

        assertInstanceOf(VerificationException.class, failure.getCause());
        assertEquals("OCEAN: psi1 of member 0 is NaN at block point (0, 0)", failure.getCause().getMessage());
    }

    @Test
    void shouldFailVerificationWhenTheSolverExceedsTheWorkLimit()
    {
        final TeamFailure failure = assertThrows(TeamFailure.class, () -> run(2, null, null, "-n18", "-e0"));

        assertInstanceOf(VerificationException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().startsWith("Maximum work limit 10000.00000 exceeded"),
            failure.getCause().getMessage());
    }

    private static Ocean parse(final String... args)
    {
        final Ocean ocean = new Ocean();
        new CommandLine(ocean).parseArgs(args);
        return ocean;
    }

    private static List<String> run(
        final int members,
        final AtomicIntegerArray barriers,
        final AtomicIntegerArray locks,
        final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ThreadTeam.run(members, out, team ->
        {
            final Ocean ocean = parse(args);
            ocean.validate(team.size());
            if (null == barriers)
            {
                ocean.run(team);
            }
            else
            {
                ocean.run(new CountingTeam(team, barriers, locks));
            }
        });
        return Arrays.asList(bytes.toString(StandardCharsets.UTF_8).split("\n", -1));
    }

    private static List<String> iterLines(final List<String> lines)
    {
        final List<String> iter = new ArrayList<>();
        for (final String line : lines)
        {
            if (line.startsWith("iter "))
            {
                iter.add(line);
            }
        }
        return iter;
    }

    private static List<String> expected(final String[] templates, final int level)
    {
        final List<String> lines = new ArrayList<>();
        for (final String template : templates)
        {
            lines.add(String.format(template, level));
        }
        return lines;
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsBlocksAtThatProcessor(final int nodes)
    {
        AppHomes.check(Ocean::new, nodes, (members, homes) ->
        {
            final OceanGeometry geometry = OceanGeometry.of(130, members, 20000.0);
            final int finest = geometry.numlev - 1;
            final int block = geometry.blockRows(finest) * geometry.blockCols(finest);
            final int blockStride = OceanGrids.pageAligned(block);
            int multigrid = 0;
            for (int level = 0; level < geometry.numlev; level++)
            {
                multigrid += geometry.blockRows(level) * geometry.blockCols(level);
            }
            final int multigridStride = OceanGrids.pageAligned(multigrid);
            for (int p = 0; p < members; p++)
            {
                for (final String name : new String[] {"ocean.psi0", "ocean.ga", "ocean.work7_1", "ocean.oldgb"})
                {
                    homes.expect(name, p * blockStride, p * blockStride + block, p);
                    // the pages at both ends of the block hold only this processor's points
                    assertEquals(p, homes.of(name, p * blockStride));
                    assertEquals(p, homes.of(name, p * blockStride + block - 1));
                }
                homes.expect("ocean.q_multi", p * multigridStride, p * multigridStride + multigrid, p);
                assertEquals(p, homes.of("ocean.q_multi", p * multigridStride + multigrid - 1));
                homes.expect("ocean.rhs_multi", p * multigridStride, p * multigridStride + multigrid, p);
            }
            homes.expectAll("ocean.global", 0);
            homes.expectAll("ocean.times", 0);
        }, "-n130");
    }
}
