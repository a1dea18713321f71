package org.viadsm.bench.cli;

import org.viadsm.bench.JmhCommand;
import org.viadsm.bench.apps.AppsBenchCommand;
import org.viadsm.bench.dsm.DsmBenchCommand;
import org.viadsm.bench.via.ViaBenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code viadsm bench}: the benchmarks. Each subcommand measures a layer against a raw baseline taken in the same
 * run ({@code via}: the emulated NIC; {@code dsm}: the shared memory's operations), runs the application suite
 * against sequential and threaded Java ({@code apps}), or runs the JMH micro-benchmarks ({@code jmh}).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks: each row is measured with its baseline in the same run; ratio = value / baseline.",
    subcommands = {ViaBenchCommand.class, DsmBenchCommand.class, AppsBenchCommand.class, JmhCommand.class,
        CommandLine.HelpCommand.class})
public final class BenchCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Creates the command; picocli sets its options and subcommands.
     */
    public BenchCommand()
    {
    }

    /**
     * Prints the usage: {@code bench} needs a subcommand.
     */
    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }
}
