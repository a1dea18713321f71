package org.viadsm.examples.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs {@code viadsm} command lines in the test's JVM with standard output and error captured, and standard input
 * restored after each test (a test may give a command a deck there). Register it with {@code @RegisterExtension}.
 */
final class CommandConsole implements BeforeEachCallback, AfterEachCallback
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;
    private InputStream savedIn;

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        savedOut = System.out;
        savedErr = System.err;
        savedIn = System.in;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        System.setOut(savedOut);
        System.setErr(savedErr);
        System.setIn(savedIn);
    }

    /**
     * Runs a command line, with what earlier ones printed cleared.
     *
     * @param args the arguments after {@code viadsm}.
     * @return the exit code.
     */
    int execute(final String... args)
    {
        out.reset();
        err.reset();
        return ViadsmCommand.commandLine().execute(args);
    }

    /**
     * What the last command printed to standard output.
     *
     * @return the text.
     */
    String out()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * What the last command printed to standard error.
     *
     * @return the text.
     */
    String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }
}
