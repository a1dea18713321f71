package org.viadsm.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.viadsm.examples.cli.ViadsmCommand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code viadsm bench jmh --help} shows JMH's help, as {@code -h} does, instead of JMH's parse error.
 */
class JmhCommandTest
{
    @Test
    void shouldShowJmhsHelpForHelp()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try
        {
            assertEquals(0, ViadsmCommand.execute("bench", "jmh", "--help"));
        }
        finally
        {
            System.setOut(saved);
        }
        final String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("Usage: java -jar ... [regexp*] [options]"), help);
    }
}
