package org.viadsm.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.internal.JavaProcess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node JVMs' own options: the DSM port is compiled out of line, the command names the port's class as it is,
 * a JVM started with the options prints nothing of its own on standard output, which is the application's, and the
 * {@code viadsm} script gives a node that a launcher started (its {@code node} command) the same options.
 */
@Timeout(120)
class NodeSettingsTest
{
    private static final String PREFIX = "-XX:CompileCommand=dontinline,";

    @Test
    void shouldCompileTheDsmPortOutOfLineQuietly()
    {
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:CompileCommand=quiet", NodeSettings.PORT_OUT_OF_LINE),
            NodeSettings.JVM_OPTIONS);
        assertEquals(PREFIX + "org.viadsm.dsm.ViaProtocolPort::*", NodeSettings.PORT_OUT_OF_LINE);
    }

    @Test
    void shouldNameThePortClassAsItIs() throws ClassNotFoundException
    {
        final String pattern = NodeSettings.PORT_OUT_OF_LINE.substring(PREFIX.length());
        final String className = pattern.substring(0, pattern.indexOf("::"));
        assertEquals("ViaProtocolPort", Class.forName(className).getSimpleName());
    }

    @Test
    void shouldLeaveStandardOutputToTheProgram() throws Exception
    {
        final Process process = JavaProcess.start(Echo.class, NodeSettings.JVM_OPTIONS, List.of("node output"));
        process.getOutputStream().close();
        final String out;
        try (InputStream in = process.getInputStream())
        {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue());
        assertEquals("node output" + System.lineSeparator(), out);
    }

    @Test
    void shouldGiveANodeALauncherStartedTheSameOptions() throws IOException
    {
        final List<String> lines = Files.readAllLines(script());
        final Pattern assignment = Pattern.compile("^\\s*node_options=\\((.+)\\)$");
        final List<String> options = new ArrayList<>();
        for (final String line : lines)
        {
            final Matcher matcher = assignment.matcher(line);
            if (matcher.matches())
            {
                for (final String word : matcher.group(1).split(" "))
                {
                    options.add(word.replace("\"", ""));
                }
            }
        }
        assertEquals(NodeSettings.JVM_OPTIONS, options, "the node options of the viadsm script");
    }

    /** The {@code viadsm} script at the top of the source tree, above the working directory. */
    private static Path script()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (null != dir && !Files.isRegularFile(dir.resolve("viadsm")))
        {
            dir = dir.getParent();
        }
        assertTrue(null != dir, "no viadsm script above " + Path.of("").toAbsolutePath());
        return dir.resolve("viadsm");
    }

    /**
     * Prints its argument.
     */
    static final class Echo
    {
        private Echo()
        {
        }

        /**
         * Prints the first argument.
         *
         * @param args the line to print.
         */
        public static void main(final String[] args)
        {
            System.out.println(args[0]);
        }
    }
}
