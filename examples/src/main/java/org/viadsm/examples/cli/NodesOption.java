package org.viadsm.examples.cli;

import org.viadsm.dsm.DsmContext;
import picocli.CommandLine;

/**
 * The {@code --nodes} check of run, launch and demo (and of {@code bench apps}, for each count it lists): a cluster
 * of DSM nodes has 1 to {@link DsmContext#MAX_NODES}, refused before any node starts, so that too many is one usage
 * error rather than as many processes started, each to fail.
 */
public final class NodesOption
{
    private NodesOption()
    {
    }

    /**
     * Refuses a node count below 1, or above {@link DsmContext#MAX_NODES} for DSM nodes.
     *
     * @param commandLine the command given the option.
     * @param nodes       the value given.
     * @param dsmNodes    whether the nodes are DSM nodes (not run's threads over plain arrays, which have no bound).
     * @return {@code nodes}.
     * @throws CommandLine.ParameterException naming the option, the bound and the value.
     */
    public static int check(final CommandLine commandLine, final int nodes, final boolean dsmNodes)
    {
        if (nodes < 1)
        {
            throw new CommandLine.ParameterException(commandLine, "--nodes must be at least 1, not " + nodes);
        }
        if (dsmNodes && nodes > DsmContext.MAX_NODES)
        {
            throw new CommandLine.ParameterException(commandLine,
                "--nodes must be at most " + DsmContext.MAX_NODES + " for DSM nodes, not " + nodes);
        }
        return nodes;
    }
}
