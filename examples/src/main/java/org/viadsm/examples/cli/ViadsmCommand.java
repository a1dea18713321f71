package org.viadsm.examples.cli;

import java.util.ServiceLoader;

import org.viadsm.via.internal.AgronaAccess;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code viadsm} command line: the entry point of the runnable jar.
 */
@Command(
    name = "viadsm",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Software distributed shared memory for Java over an emulated VIA NIC.",
    subcommands = {DemoCommand.class, RunCommand.class, ListCommand.class, LaunchCommand.class, NodeCommand.class,
        AotCacheCommand.class, AotTrainingCommand.class,
        CommandLine.HelpCommand.class})
public final class ViadsmCommand implements Runnable
{
    /** Exit code of a run that failed (a node's error or a failed self-check). */
    public static final int FAILURE = 1;
    /** Exit code of bad usage: an unknown application, a bad option, a missing input file. */
    public static final int USAGE_ERROR = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Creates the command; picocli sets its subcommands.
     */
    public ViadsmCommand()
    {
    }

    /**
     * Runs the command line and exits with its exit code.
     *
     * @param args the arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(execute(args));
    }

    /**
     * Runs the command line.
     *
     * @param args the arguments.
     * @return the exit code: 0 on success, 1 on failure, 2 on bad usage.
     */
    public static int execute(final String... args)
    {
        try
        {
            AgronaAccess.check();
        }
        catch (final IllegalStateException ex)
        {
            System.err.println("viadsm: " + ex.getMessage());
            return 1;
        }
        return commandLine().execute(args);
    }

    /**
     * The command line with every subcommand, including those other modules contribute.
     *
     * @return a new command line.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new ViadsmCommand());
        for (final CliExtension extension : ServiceLoader.load(CliExtension.class))
        {
            extension.register(commandLine);
        }
        commandLine.setParameterExceptionHandler((ex, args) ->
        {
            final CommandLine command = ex.getCommandLine();
            command.getErr().println("viadsm: " + ex.getMessage());
            command.getErr().println("Try 'viadsm " + qualifiedName(command) + " --help'.");
            return USAGE_ERROR;
        });
        commandLine.setExecutionExceptionHandler((ex, command, parseResult) ->
        {
            command.getErr().println("viadsm " + qualifiedName(command) + ": " + ex);
            if (null != System.getenv("VIADSM_DEBUG"))
            {
                ex.printStackTrace(command.getErr());
            }
            return FAILURE;
        });
        return commandLine;
    }

    private static String qualifiedName(final CommandLine command)
    {
        final String name = command.getCommandSpec().qualifiedName(" ");
        return name.startsWith("viadsm ") ? name.substring("viadsm ".length()) : name;
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(System.out);
    }
}
