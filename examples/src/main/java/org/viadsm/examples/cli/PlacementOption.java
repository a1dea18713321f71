package org.viadsm.examples.cli;

import java.util.Locale;

import org.viadsm.dsm.Placement;
import picocli.CommandLine;

/**
 * The {@code --placement} check of run and node: the forms {@link Placement#parse(String)} takes, and a
 * {@code node:<n>} that names a node of the cluster, made before any node starts, so that a bad value is one usage
 * error rather than every node failing at its first allocation.
 */
final class PlacementOption
{
    private PlacementOption()
    {
    }

    /**
     * Refuses a placement {@link Placement#parse(String)} would refuse, or one that puts every page on a node the
     * cluster lacks.
     *
     * @param commandLine the command given the option.
     * @param placement   the value given, or null if the option was not given.
     * @param nodes       the number of nodes of the cluster.
     * @return the placement, or null if the option was not given.
     * @throws CommandLine.ParameterException naming the value and what is wrong with it.
     */
    static Placement check(final CommandLine commandLine, final String placement, final int nodes)
    {
        if (null == placement)
        {
            return null;
        }
        final Placement parsed;
        try
        {
            parsed = Placement.parse(placement);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(commandLine, ex.getMessage());
        }
        // parse took it, so a node:<n> here is a number that is not negative
        final String name = placement.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("node:") && Integer.parseInt(name.substring(5)) >= nodes)
        {
            throw new CommandLine.ParameterException(commandLine, "--placement " + placement + " names no node of " +
                nodes + " (nodes are 0.." + (nodes - 1) + ")");
        }
        return parsed;
    }
}
