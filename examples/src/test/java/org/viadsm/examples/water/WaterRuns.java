package org.viadsm.examples.water;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.AppHarness;
import org.viadsm.examples.runtime.CountingTeam;

/**
 * Runs the WATER ports on a thread team and picks their output apart, for the tests of both ports.
 */
public final class WaterRuns
{
    /**
     * A 64-molecule deck, 6 steps, energies every 2, cutoff 0 (half the box); format with the processor count.
     */
    public static final String DECK_64 = "  1.5e-16   64  6   6\n -1      3000     2  0\n%d 0\n";

    private static final Pattern ENERGY_LINE = Pattern.compile("^ +[0-9]+ +-?[0-9.]+ +-?[0-9.]+ +-?[0-9.]+ .*");

    private WaterRuns()
    {
    }

    /**
     * Runs an application on {@code members} threads, each with its own instance parsed from {@code args}, as the
     * launcher does.
     *
     * @param factory  makes instances.
     * @param members  team size.
     * @param args     the command line.
     * @return what member 0 printed.
     */
    public static String run(final Supplier<App> factory, final int members, final String... args)
    {
        return run(factory, members, new AtomicIntegerArray(members), new AtomicIntegerArray(members), args);
    }

    /**
     * Runs an application as {@link #run(Supplier, int, String...)} does, counting the barriers and lock
     * acquisitions of all members.
     *
     * @param factory  makes instances.
     * @param members  team size.
     * @param barriers each member's barrier count, by member id.
     * @param locks    each member's lock acquisitions, by member id.
     * @param args     the command line.
     * @return what member 0 printed.
     */
    public static String run(
        final Supplier<App> factory,
        final int members,
        final AtomicIntegerArray barriers,
        final AtomicIntegerArray locks,
        final String... args)
    {
        final AppHarness.Result result = AppHarness.attempt(
            factory, members, member -> new CountingTeam(member, barriers, locks), args);
        if (null != result.failure())
        {
            throw result.failure();
        }
        return result.output();
    }

    /**
     * The energy lines: each print step's first line and the line after it.
     *
     * @param output a run's output.
     * @return the lines, in order.
     */
    public static List<String> energyLines(final String output)
    {
        final String[] lines = output.split("\n", -1);
        final List<String> energies = new ArrayList<>();
        for (int i = 0; i < lines.length - 1; i++)
        {
            if (ENERGY_LINE.matcher(lines[i]).matches())
            {
                energies.add(lines[i]);
                energies.add(lines[i + 1]);
                i++;
            }
        }
        return energies;
    }

    /**
     * The output without the lines that report clock readings, which differ from run to run.
     *
     * @param output a run's output.
     * @return the other lines, each ending in a line break.
     */
    public static String withoutClock(final String output)
    {
        final StringBuilder kept = new StringBuilder();
        for (final String line : output.split("\n"))
        {
            if (!line.startsWith("COMPUTE") && !line.contains("(2nd timestep onward)"))
            {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    /**
     * Skips the calling test class when the working directory holds a {@code random.in}: without
     * {@code --velocities} the ports read it, and the tests expect the generated numbers.
     */
    public static void assumeNoRandomIn()
    {
        Assumptions.assumeFalse(Files.exists(Path.of("random.in")),
            "a random.in in the working directory would be used");
    }

    /**
     * Writes {@link #DECK_64} for {@code members} processors.
     *
     * @param dir     the directory.
     * @param members the processor count written in the deck.
     * @return the file.
     * @throws IOException if it cannot be written.
     */
    public static Path deck64(final Path dir, final int members) throws IOException
    {
        return deck(dir, "deck64-" + members, String.format(DECK_64, members));
    }

    /**
     * The message {@link App#validate(int)} gives for a missing input deck.
     *
     * @param factory makes instances.
     * @param missing a path that does not exist.
     * @return the message.
     */
    public static String missingDeckMessage(final Supplier<App> factory, final Path missing)
    {
        return Assertions.assertThrows(IllegalArgumentException.class,
            () -> AppHarness.parse(factory, missing.toString()).validate(1)).getMessage();
    }

    /**
     * Writes an input deck.
     *
     * @param dir  the directory.
     * @param name the file name.
     * @param text the deck.
     * @return the file.
     * @throws IOException if it cannot be written.
     */
    public static Path deck(final Path dir, final String name, final String text) throws IOException
    {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
    }
}
