package org.viadsm.bench.cli;

import org.viadsm.examples.cli.CliExtension;
import picocli.CommandLine;

/**
 * Adds {@code viadsm bench} to the command line.
 */
public final class BenchCliExtension implements CliExtension
{
    /**
     * Found by {@link java.util.ServiceLoader}.
     */
    public BenchCliExtension()
    {
    }

    @Override
    public void register(final CommandLine commandLine)
    {
        commandLine.addSubcommand(new BenchCommand());
    }
}
