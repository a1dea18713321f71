package org.viadsm.examples.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import picocli.CommandLine;

/**
 * Runs an application on a {@link ThreadTeam} as the launcher would: one instance per member, each parsed from the
 * same arguments; returns what member 0 printed.
 */
public final class ThreadTeamApps
{
    private ThreadTeamApps()
    {
    }

    public static String run(final Supplier<? extends App> factory, final int members, final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            ThreadTeam.run(members, out, team ->
            {
                final App app = factory.get();
                new CommandLine(app).parseArgs(args);
                app.validate(team.size());
                app.run(team);
            });
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    public static List<String> lines(final String output)
    {
        return Arrays.stream(output.split("\n", -1)).collect(Collectors.toList());
    }
}
