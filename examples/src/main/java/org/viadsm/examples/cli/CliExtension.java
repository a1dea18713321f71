package org.viadsm.examples.cli;

import picocli.CommandLine;

/**
 * Lets a module that depends on the examples add subcommands to {@code viadsm} (the bench module adds
 * {@code bench}); found with {@link java.util.ServiceLoader}.
 */
public interface CliExtension
{
    /**
     * Adds subcommands.
     *
     * @param commandLine the top-level command line.
     */
    void register(CommandLine commandLine);
}
