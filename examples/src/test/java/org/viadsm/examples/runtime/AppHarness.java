package org.viadsm.examples.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Assertions;
import picocli.CommandLine;

/**
 * Runs an application on a {@link ThreadTeam} the way a launcher does: every member parses its own instance from
 * the same arguments; the options are validated against the team size first.
 */
public final class AppHarness
{
    private AppHarness()
    {
    }

    /**
     * Parses {@code args} into a fresh instance.
     *
     * @param factory makes the instance.
     * @param args    the C-style arguments.
     * @return the parsed application.
     */
    public static App parse(final Supplier<? extends App> factory, final String... args)
    {
        final App app = factory.get();
        new CommandLine(app).parseArgs(args);
        return app;
    }

    /**
     * Expects {@code args} to be refused for a team of {@code teamSize}.
     *
     * @param factory  makes the instance.
     * @param teamSize the team size to validate against.
     * @param args     the arguments.
     * @return the exception's message.
     */
    public static String rejection(final Supplier<? extends App> factory, final int teamSize, final String... args)
    {
        final App app = parse(factory, args);
        return Assertions.assertThrows(IllegalArgumentException.class, () -> app.validate(teamSize)).getMessage();
    }

    /**
     * Validates and runs, failing on any exception.
     *
     * @param factory makes the instances.
     * @param members team size.
     * @param args    the arguments.
     * @return what member 0 printed.
     */
    public static String run(final Supplier<? extends App> factory, final int members, final String... args)
    {
        final Result result = attempt(factory, members, UnaryOperator.identity(), args);
        if (null != result.failure())
        {
            throw result.failure();
        }
        return result.output();
    }

    /**
     * Validates and runs, catching a failure of the run.
     *
     * @param factory   makes the instances.
     * @param members   team size.
     * @param decorator wraps each member's team, e.g. to count its calls.
     * @param args      the arguments.
     * @return the output and the failure, if any.
     */
    public static Result attempt(
        final Supplier<? extends App> factory,
        final int members,
        final UnaryOperator<Team> decorator,
        final String... args)
    {
        parse(factory, args).validate(members);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TeamFailure failure = null;
        try
        {
            ThreadTeam.run(members, out, team -> parse(factory, args).run(decorator.apply(team)));
        }
        catch (final TeamFailure ex)
        {
            failure = ex;
        }
        out.flush();
        return new Result(bytes.toString(StandardCharsets.UTF_8), failure);
    }

    /**
     * The lines of an output, the last possibly empty.
     *
     * @param output what a run printed.
     * @return its lines.
     */
    public static List<String> lines(final String output)
    {
        return Arrays.asList(output.split("\n", -1));
    }

    /**
     * An output without its timing lines and per-processor timing tables: what two runs of the same input print
     * alike, whatever the team.
     *
     * @param output what a run printed.
     * @return the remaining lines, blank ones dropped.
     */
    public static List<String> withoutTimings(final String output)
    {
        final List<String> lines = new ArrayList<>();
        boolean inStatistics = false;
        for (final String line : output.split("\\R"))
        {
            if (line.contains("PROCESS STATISTICS"))
            {
                inStatistics = true;
                continue;
            }
            if (inStatistics && (line.contains("TIMING") || line.contains("TEST") || line.contains("time")))
            {
                inStatistics = false;
            }
            if (inStatistics || line.isBlank() || line.matches("(?i).*(time|compute|fraction|step [0-9]+:).*"))
            {
                continue;
            }
            lines.add(line);
        }
        return lines;
    }

    /**
     * What a run printed and how it failed.
     */
    public static final class Result
    {
        private final String output;
        private final TeamFailure failure;

        Result(final String output, final TeamFailure failure)
        {
            this.output = output;
            this.failure = failure;
        }

        /**
         * What member 0 printed.
         *
         * @return the output.
         */
        public String output()
        {
            return output;
        }

        /**
         * The failure of the run.
         *
         * @return the failure, or null if the run succeeded.
         */
        public TeamFailure failure()
        {
            return failure;
        }
    }
}
