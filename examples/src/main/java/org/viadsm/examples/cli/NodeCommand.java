package org.viadsm.examples.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.Placement;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code viadsm node}: one node of a cluster. Under a launcher ({@code mpirun}, {@code srun}, {@code mpiexec}) the
 * node takes its rank and size from the launcher and finds the others through a rendezvous; node 0 then prints
 * the run's statistics. {@code viadsm run} starts its nodes with this command too, with the addresses in the
 * environment.
 */
@Command(name = "node", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Runs one node of a cluster that a launcher (mpirun, srun, mpiexec) started.",
        "The launcher gives each process its rank and the number of nodes; the nodes find each other through a " +
            "directory keyed by the launcher's job id, or through --rendezvous host:port. Node 0 prints the output " +
            "and the statistics. For example:",
        "  mpirun -np 4 --hostfile hosts ./viadsm node --app lu -n2048",
        "  srun -n 4 ./viadsm node --class my.Main -cp app.jar"})
final class NodeCommand implements Callable<Integer>
{
    /** Exit code of a node whose application failed its self-check. */
    static final int VERIFICATION_FAILED = 3;

    @Option(names = "--app", paramLabel = "APP", description = "An application, as 'viadsm list' names it.")
    private String appName;

    @Option(names = "--class", paramLabel = "MAIN", description = "Your main class, which joins with " +
        "Dsm.join(DsmContext.fromEnvironment()).")
    private String mainClass;

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH", description = "Where your classes are.")
    private String classPath = "";

    @Option(names = "--provider", paramLabel = "NAME", description = "The NIC provider: tcp (default), or shm when " +
        "every node is on one host.")
    private String provider;

    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Where rank 0 listens for the others " +
        "(default: a directory in ~/.viadsm/rendezvous, on a file system the hosts share).")
    private String rendezvous;

    @Option(names = "--interface", paramLabel = "NAME|ADDRESS|NET", description = "The interface, address or " +
        "network (e.g. 10.1.0.0/16) the NIC listens on (default: the address this host uses towards the rendezvous " +
        "host, else the first interface that is up).")
    private String networkInterface;

    @Option(names = "--placement", paramLabel = "PLACEMENT", description = "Home placement of every array of " +
        "the application, overriding the application's own: block, cyclic, first-touch or node:<n>.")
    private String placement;

    @Option(names = "--page-size", defaultValue = "4096", description = "Coherence unit in bytes (default: " +
        "${DEFAULT-VALUE}).")
    private int pageSize;

    // where the node writes how long each run of the application took on it, in ns, comma-separated (viadsm run)
    @Option(names = "--app-time-file", hidden = true)
    private Path appTimeFile;

    // how many times the application runs on this node: once cold, then warm (viadsm run)
    @Option(names = "--runs", defaultValue = "1", hidden = true)
    private int runs;

    // the application's or the program's own arguments, options included
    @CommandLine.Unmatched
    private List<String> args = new ArrayList<>();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if ((null == appName) == (null == mainClass))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "give either --app or --class");
        }
        PageSizeOption.check(spec.commandLine(), pageSize);
        final AppCatalog.Entry entry;
        final App probe;
        try
        {
            // the application, its options and the placement's form, checked before the node looks for its launcher
            // (it parses them again for each run)
            entry = null == appName ? null : AppCatalog.find(appName);
            probe = null == entry ? null : AppArguments.parse(entry, args);
            if (null != entry && null != placement)
            {
                Placement.parse(placement);
            }
        }
        catch (final IllegalArgumentException | CommandLine.ParameterException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
        setProperty("viadsm.provider", null == provider ? null : provider.toLowerCase(Locale.ROOT));
        setProperty("viadsm.rendezvous", rendezvous);
        setProperty("viadsm.interface", networkInterface);
        final JobRun job;
        Placement override = null;
        try
        {
            final DsmContext environment = DsmContext.fromEnvironment().conclude();
            if (null != probe)
            {
                override = PlacementOption.check(spec.commandLine(), placement, environment.nodeCount());
                if (!probe.readsStandardInput())
                {
                    // the checks that need the node count, before the node joins, so that every node says what is
                    // wrong in one line rather than failing after the join
                    probe.validate(environment.nodeCount());
                }
            }
            job = JobRun.of(environment);
        }
        catch (final IllegalArgumentException | IllegalStateException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
        final int code = null != entry ? runApp(job, entry, probe, override) :
            job.runClass(mainClass, classPath, args);
        return job.finish(code);
    }

    /**
     * Runs a catalogued application on this node; {@code probe} is the application as its options were parsed for
     * the checks (the runs parse them again, each for its own instance), {@code override} the checked placement.
     */
    private int runApp(final JobRun job, final AppCatalog.Entry entry, final App probe, final Placement override)
    {
        final DsmContext context = DsmContext.fromEnvironment().pageSize(pageSize)
            .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES);
        final PrintStream out = job.isQuiet() ? new PrintStream(OutputStream.nullOutputStream()) : System.out;
        try (Dsm dsm = Dsm.join(job.context(context)))
        {
            try
            {
                final long[] runNs = AppRuns.onNode(dsm, entry, args, override, out, runs);
                job.ran(entry, probe, runNs[runNs.length - 1]);
                if (null != appTimeFile)
                {
                    Files.writeString(appTimeFile, Arrays.stream(runNs).mapToObj(Long::toString)
                        .collect(Collectors.joining(",")), StandardCharsets.US_ASCII);
                }
            }
            catch (final VerificationException ex)
            {
                System.err.println("verification failed: " + ex.getMessage());
                return VERIFICATION_FAILED;
            }
            catch (final Exception ex)
            {
                System.err.println(ex);
                ex.printStackTrace();
                return 1;
            }
            finally
            {
                out.flush();
            }
        }
        catch (final RuntimeException ex)
        {
            System.err.println(ex);
            return 1;
        }
        return 0;
    }

    private static void setProperty(final String name, final String value)
    {
        if (null != value)
        {
            System.setProperty(name, value);
        }
    }
}
