package org.viadsm.examples.barnes;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.AppHomes;
import org.viadsm.examples.runtime.CountingTeam;
import org.viadsm.examples.runtime.TeamFailure;
import org.viadsm.examples.runtime.ThreadTeam;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The expected lines were printed by the C program (Splash-3 BARNES, gcc -O2 -pthread) with the port's diagnostics
 * line added and the cost-zone barrier restored (see BarnesMember), on 1, 2 and 4 processors: the three runs print
 * the same lines for each input.
 */
@Timeout(60)
class BarnesAppTest
{
    private static final String HEADER =
        "  step      tnow             T+U               T               U        |cm pos|        |cm vel|   n2bcalc" +
        "   nbccalc selfint";

    /** 512 bodies, seed 123, tstop 0.1: five steps. */
    private static final List<String> N512 = List.of(
        "     0    0.0000   -0.0387936790    0.0826397741   -0.1214334531    0.0000000000    0.0000000000     20760" +
            "     31193       0",
        "     1    0.0250   -0.0387835967    0.0826031612   -0.1213867579    0.0000000317    0.0000026652     21108" +
            "     30901       0",
        "     2    0.0500   -0.0387798351    0.0825668630   -0.1213466982    0.0000001333    0.0000054954     20978" +
            "     30699       0",
        "     3    0.0750   -0.0387656090    0.0825296781   -0.1212952871    0.0000003048    0.0000082074     21239" +
            "     30582       0",
        "     4    0.1000   -0.0387681790    0.0824880003   -0.1212561794    0.0000005412    0.0000108380     21192" +
            "     30618       0");

    /** 2048 bodies, seed 99, tstop 0.05: three steps. */
    private static final List<String> N2048 = List.of(
        "     0    0.0000   -0.0384353093    0.0824212857   -0.1208565951    0.0000000000    0.0000000000     62397" +
            "    265507       1",
        "     1    0.0250   -0.0384502173    0.0824161458   -0.1208663631    0.0000000200    0.0000015034     62846" +
            "    264926       1",
        "     2    0.0500   -0.0384463639    0.0824081370   -0.1208545009    0.0000000752    0.0000030148     63584" +
            "    264532       1");

    /** The built-in SPLASH input n16384: four steps. */
    private static final List<String> N16384 = List.of(
        "     0    0.0000   -0.0373064788    0.0833628570   -0.1206693358    0.0000000000    0.0000000000    327019" +
            "   3537931       6",
        "     1    0.0250   -0.0373066264    0.0833572879   -0.1206639143    0.0000000042    0.0000002667    327770" +
            "   3538797       6",
        "     2    0.0500   -0.0373040634    0.0833504825   -0.1206545458    0.0000000133    0.0000004718    324804" +
            "   3539238       6",
        "     3    0.0750   -0.0373019998    0.0833425045   -0.1206445043    0.0000000277    0.0000006325    319155" +
            "   3544452       7");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheCProgramsDiagnosticsFor512Bodies(final int members) throws IOException
    {
        final String output = run(members, input("512", "123", "0.1", "1"));
        assertEquals(N512, diagnostics(output));
        assertTrue(output.contains(
            "       512   0.02500    0.0500      1.00     0.250     0.100      2.00" + String.format("%10d", members)),
            output);
        assertTrue(output.contains("\n\t\tHack code: Plummer model\n\n"), output);
        assertTrue(output.contains(HEADER + "\n"), output);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldPrintTheCProgramsDiagnosticsFor2048Bodies(final int members) throws IOException
    {
        assertEquals(N2048, diagnostics(run(members, input("2048", "99", "0.05", String.valueOf(members)))));
    }

    @Test
    void shouldRunTheBuiltInSplashInputWhenGivenNoFile()
    {
        final String output = AppHarness.run(BarnesApp::new, 1);
        assertEquals(N16384, diagnostics(output));
        assertTrue(output.contains(
            "     16384   0.02500    0.0500      1.00     0.250     0.075      2.00         1"), output);
    }

    @Test
    void shouldPrintTheSameLinesWithoutOptionalLocks() throws IOException
    {
        final Path file = input("512", "123", "0.1", "2");
        assertEquals(N512, diagnostics(AppHarness.run(BarnesApp::new, 2, "--no-optional-locks", file.toString())));
    }

    @Test
    void shouldLockAsOftenAsTheCProgramOnOneProcessor() throws IOException
    {
        // The C program counts one more: its processor-id lock at start-up, which a team does not need.
        final Path file = input("512", "123", "0.1", "1");
        assertSynchronisation(1, file, 27, 126843 - 1);
        assertSynchronisation(1, file, 27, 19006 - 1, "--no-optional-locks");
    }

    @Test
    void shouldPassTheCsBarriersPlusDiagnosticsAndStartOnEveryMember() throws IOException
    {
        // 1 start + Barstart before the first step + 5 steps of Barstart, Bartree, Barcom, Baraccel, Barpos.
        final Path file = input("512", "123", "0.1", "4");
        assertSynchronisation(4, file, 27, -1);
    }

    @Test
    void shouldNoteAnNprocThatDiffersFromTheTeamSize() throws IOException
    {
        final Path file = input("512", "123", "0.1", "8");
        final String output = AppHarness.run(BarnesApp::new, 2, file.toString());
        assertTrue(output.startsWith(file + ": NPROC 8 ignored: running on 2 processors\n"), output);
        assertEquals(N512, diagnostics(output));
    }

    @Test
    void shouldReadStandardInputGivenADash() throws IOException
    {
        final InputStream saved = System.in;
        try
        {
            System.setIn(new ByteArrayInputStream(
                Files.readAllBytes(input("2048", "99", "0.05", "1"))));
            assertEquals(N2048, diagnostics(AppHarness.run(BarnesApp::new, 2, "-")));
        }
        finally
        {
            System.setIn(saved);
        }
    }

    @Test
    void shouldNameAMissingInputFile()
    {
        final Path missing = dir.resolve("no-such-input");
        final BarnesApp app = new BarnesApp();
        new CommandLine(app).parseArgs(missing.toString());
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> app.validate(1));
        assertEquals("cannot read BARNES input file " + missing + ": no such file", ex.getMessage());
    }

    @Test
    void shouldFailTheRunWhenTheMastersLeafPoolOverflows() throws IOException
    {
        final Path file = dir.resolve("small-fleaves");
        Files.writeString(file, "\n512\n123\n\n0.025\n0.05\n1.0\n2.0\n0.5\n0.075\n0.25\n1\n", StandardCharsets.UTF_8);
        final TeamFailure failure = assertThrows(TeamFailure.class,
            () -> AppHarness.run(BarnesApp::new, 1, file.toString()));
        final IllegalStateException cause = assertInstanceOf(IllegalStateException.class, failure.getCause());
        assertEquals("makeleaf: Proc 0 needs more than 256 leaves; increase fleaves", cause.getMessage());
    }

    @Test
    void shouldBeInTheCatalogWithTheBuiltInInputAsDefault()
    {
        final AppCatalog.Entry entry = AppCatalog.find("barnes");
        assertEquals("", entry.defaultArgs());
        assertInstanceOf(BarnesApp.class, entry.newInstance());
    }

    private static void assertSynchronisation(
        final int members,
        final Path file,
        final int barriersPerMember,
        final int locksPerMember,
        final String... options)
    {
        final AtomicIntegerArray barriers = new AtomicIntegerArray(members);
        final AtomicIntegerArray locks = new AtomicIntegerArray(members);
        final String[] args = Arrays.copyOf(options, options.length + 1);
        args[options.length] = file.toString();
        ThreadTeam.run(members, new PrintStream(OutputStream.nullOutputStream()), team ->
        {
            final BarnesApp app = new BarnesApp();
            new CommandLine(app).parseArgs(args);
            app.run(new CountingTeam(team, barriers, locks));
        });
        for (int id = 0; id < members; id++)
        {
            assertEquals(barriersPerMember, barriers.get(id), "barriers of member " + id);
            if (locksPerMember >= 0)
            {
                assertEquals(locksPerMember, locks.get(id), "locks of member " + id);
            }
        }
    }

    private String run(final int members, final Path file)
    {
        return AppHarness.run(BarnesApp::new, members, file.toString());
    }

    private Path input(final String nbody, final String seed, final String tstop, final String nproc)
        throws IOException
    {
        final Path file = dir.resolve("n" + nbody + "-p" + nproc);
        Files.writeString(file, String.join("\n", "", nbody, seed, "", "0.025", "0.05", "1.0", "2.0", "5.0", tstop,
            "0.25", nproc) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    private static List<String> diagnostics(final String output)
    {
        return AppHarness.lines(output).stream()
            .filter(line -> line.matches(" +\\d+ +\\d+\\.\\d{4} .*"))
            .collect(Collectors.toList());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void shouldKeepEachProcessorsPoolsAndTablesAtThatProcessor(final int members) throws IOException
    {
        final Path file = input("512", "123", "0.05", String.valueOf(members));
        AppHomes.check(BarnesApp::new, members, (nodes, homes) ->
        {
            for (final String name : new String[] {"barnes.cells", "barnes.cells.ints", "barnes.leaves",
                "barnes.leaves.ints", "barnes.mybodytab", "barnes.mycelltab", "barnes.myleaftab"})
            {
                final int region = homes.length(name) / nodes;
                for (int p = 0; p < nodes; p++)
                {
                    homes.expect(name, p * region, (p + 1) * region, p);
                }
            }
            final int bodies = homes.length("barnes.bodies") / nodes;
            for (int p = 0; p < nodes; p++)
            {
                homes.expect("barnes.bodies", p * bodies, (p + 1) * bodies, p);
            }
            homes.expectAll("barnes.global", 0);
            homes.expectAll("barnes.global.counts", 0);
        }, file.toString());
    }
}
