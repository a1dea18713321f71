package org.viadsm.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.viadsm.examples.cli.ViadsmCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bench commands refuse bad options before anything runs, as usage errors: one line and exit code 2.
 */
class BenchOptionsTest
{
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedErr;

    @BeforeEach
    void capture()
    {
        savedErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore()
    {
        System.setErr(savedErr);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "via --cold-mib 0          | viadsm: --cold-mib must be 1..512, not 0",
        "dsm --cold-mib 513        | viadsm: --cold-mib must be 1..512, not 513",
        "dsm --rounds 0            | viadsm: --rounds must be at least 1, not 0",
        "via --iterations -5       | viadsm: --iterations must be at least 1, not -5",
        "via --max-run-ms 0        | viadsm: --max-run-ms must be at least 1, not 0",
        "dsm --warmup -1           | viadsm: --warmup must be at least 0, not -1",
        "apps --input malformed    | viadsm: --input must be APP=ARGS, e.g. --input 'fft=-m10 -t', not 'malformed'",
        "apps --input =-m10        | viadsm: --input must be APP=ARGS, e.g. --input 'fft=-m10 -t', not '=-m10'",
        "apps --input nosuch=-m10  | viadsm: unknown application 'nosuch'",
        "apps --input fft=-m7      | viadsm: --input fft=-m7: -m 7: M must be even and >= 0 (N=1)",
        "apps --input fft=-x       | viadsm: --input fft=-x: Unknown option: '-x'",
        "apps --input lu=-n7       | viadsm: --input lu=-n7: -b 16: block size must be in [1, n] for -n 7 (N=1)",
        "apps --apps radix --nodes 3 --input radix=-t | viadsm: --input radix=-t: P must be a power of 2 in [1, " +
            "1024] (the prefix tree assumes it): team size 3 (N=3)",
        "via --tcp-wait sometimes  | viadsm: --tcp-wait must be polled or blocking, not 'sometimes'",
        "dsm --sweep-kib 2         | viadsm: --sweep-kib must be 4..1048576, not 2",
        "apps --apps no-such-app   | viadsm: unknown application 'no-such-app'",
        "apps --provider tcp       | viadsm: --provider must be shm or jvm, not 'tcp'",
        "apps --nodes 2,2          | viadsm: --nodes must list distinct counts >= 1, not [2, 2]",
        "apps --repeat 0           | viadsm: --repeat and --timeout-s must be positive, not 0 and",
        "via --only zzz            | viadsm: --only zzz matches no row; the rows are shm.send_recv_64B_oneway, ",
        "dsm --only zzz,yyy        | viadsm: --only zzz,yyy matches no row; the rows are dsm.read_miss, "})
    void shouldRefuseABadOptionWithExitCodeTwoAndOneClearLine(final String args, final String expected)
    {
        assertRefused(expected, args.trim().split(" +"));
    }

    @Test
    void shouldRefuseMoreDsmNodesThanAClusterMayHaveBeforeRunningAnything()
    {
        for (final String nodes : List.of("257", "1,2,300"))
        {
            err.reset();
            assertEquals(2, ViadsmCommand.execute("bench", "apps", "--apps", "sor", "--nodes", nodes));
            assertEquals(List.of(
                "viadsm: --nodes must be at most 256 for DSM nodes, not " + nodes.substring(nodes.lastIndexOf(',') + 1),
                "Try 'viadsm bench apps --help'."), err.toString(StandardCharsets.UTF_8).lines().toList());
        }
    }

    @Test
    void shouldRefuseAnApplicationOnACountItCannotRunWithInItsOwnWordsBeforeRunningAnything()
    {
        assertRefusedExactly("viadsm: fft (quick input: -m14 -t): P must be a power of 2: team size 3 (N=3)",
            "apps", "--nodes", "3");
        assertRefusedExactly("viadsm: radix (quick input: -n262144 -r1024 -t): P must be a power of 2 in [1, 1024] " +
            "(the prefix tree assumes it): team size 3 (N=3)", "apps", "--apps", "sor,radix", "--nodes", "2,3");
        assertRefusedExactly("viadsm: ocean (--full input: -n258 -o): -p (team size) must be a power of 2: " +
            "teamSize=6 (N=6)", "apps", "--apps", "ocean", "--full", "--nodes", "4,6");
        // the suite's input decks are read as the runs would read them
        assertRefusedExactly("viadsm: water-spatial (quick input: 216 molecules, 3 steps): ERROR: less boxes (27) " +
            "than processors (64); a smaller CUTOFF gives more boxes (N=64)", "apps", "--apps", "water-spatial",
            "--nodes", "64");
    }

    @Test
    void shouldRefuseAnOutputFileItCouldNotWriteBeforeMeasuring(@TempDir final Path dir) throws Exception
    {
        final Path file = Files.writeString(dir.resolve("file"), "");
        final Path under = file.resolve("x.json");
        final String notADirectory = ": " + file + " is not a directory";
        assertRefused("viadsm: cannot write --json " + under + notADirectory, "via", "--only", "jvm.", "--json",
            under.toString());
        assertRefused("viadsm: cannot write --json " + under + notADirectory, "dsm", "--only", "lock", "--json",
            under.toString());
        assertRefused("viadsm: cannot write --json " + under + notADirectory, "apps", "--apps", "fft", "--json",
            under.toString());
        assertRefused("viadsm: cannot write --plot " + dir + ": it is a directory", "apps", "--apps", "fft", "--plot",
            dir.toString());
    }

    /** Exit code 2, and standard error holds the line and the hint only: nothing ran. */
    private void assertRefusedExactly(final String expected, final String... words)
    {
        assertRefused(expected, words);
        assertEquals(expected, err.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
    }

    private void assertRefused(final String expected, final String... words)
    {
        err.reset();
        final String[] command = new String[words.length + 1];
        command[0] = "bench";
        System.arraycopy(words, 0, command, 1, words.length);

        assertEquals(2, ViadsmCommand.execute(command));
        final String message = err.toString(StandardCharsets.UTF_8);
        final List<String> lines = message.lines().toList();
        assertEquals(2, lines.size(), message);
        assertTrue(lines.get(0).startsWith(expected), message);
        assertEquals("Try 'viadsm bench " + words[0] + " --help'.", lines.get(1), message);
    }
}
