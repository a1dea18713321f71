package org.viadsm.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
        "dsm --rounds 0            | viadsm: --rounds, --iterations and --max-run-ms must be at least 1",
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
        final String[] words = args.trim().split(" +");
        final String[] command = new String[words.length + 1];
        command[0] = "bench";
        System.arraycopy(words, 0, command, 1, words.length);

        assertEquals(2, ViadsmCommand.execute(command));
        final String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith(expected), message);
        assertTrue(message.contains("Try 'viadsm bench " + words[0] + " --help'."), message);
    }
}
