package org.viadsm.examples.cli;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.launch.FailureReport;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.via.internal.JavaProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viadsm launch --nodes N --class my.Main [-cp PATH] [args]}: runs a user's program that joins with
 * {@code Dsm.join(DsmContext.fromEnvironment())} on N local processes.
 */
@Command(name = "launch", sortOptions = false, mixinStandardHelpOptions = true,
    description = {"Runs your own program on N local nodes, each a separate JVM.",
        "The program joins with Dsm.join(DsmContext.fromEnvironment()); node 0's output is shown, and each node's " +
            "statistics at the end."})
final class LaunchCommand implements Callable<Integer>
{
    private static final long TIMEOUT_NS = TimeUnit.HOURS.toNanos(24);

    @Option(names = "--nodes", defaultValue = "4", description = "Number of nodes (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--provider", defaultValue = "shm", description = "shm, tcp or ucx (default: ${DEFAULT-VALUE}).")
    private String provider;

    @Option(names = "--class", required = true, paramLabel = "MAIN", description = "Your main class.")
    private String mainClass;

    @Option(names = {"-cp", "--class-path"}, paramLabel = "PATH",
        description = "Where your classes are, separated by '${sys:path.separator}' (viadsm's classes are added).")
    private String classPath = "";

    @Option(names = "--stats-json", paramLabel = "FILE", description = "Also write the statistics as JSON.")
    private Path statsJson;

    @Parameters(paramLabel = "ARGS", description = "Arguments for your program.")
    private List<String> args = new ArrayList<>();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call()
    {
        final List<String> entries = validate();
        final List<String> addresses = LocalCluster.addresses(provider.toLowerCase(Locale.ROOT), nodes);
        final Path statsDir = ProcessRun.tempDirectory();
        final long startNs = System.nanoTime();
        final List<String> jvmOptions = NodeSettings.jvmOptions();
        if (!AotCache.jvmOptions().isEmpty())
        {
            // A JVM starts from the jar's cache only if its class path begins with the jar: the program's entries
            // go after it (the class path then ends with the jar once more, which changes nothing).
            entries.addAll(0, List.of(JavaProcess.classPath().split(File.pathSeparator)));
        }
        final ProcessCluster cluster = ProcessCluster.start(addresses, mainClass, args, entries, jvmOptions,
            ProcessRun.statsEnvironment(statsDir), null, System.out);
        final Thread hook = new Thread(cluster::close, "viadsm-launch-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            cluster.abortOnFailure(ProcessRun.ABORT_GRACE_NS).await(TIMEOUT_NS);
            final FailureReport report = cluster.failureReport();
            if (null != report)
            {
                System.err.println("viadsm: " + mainClass + " failed: " + report.lines().get(0));
                report.lines().stream().skip(1).forEach(line -> System.err.println("viadsm: " + line));
                return 1;
            }
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            report(statsDir, seconds);
            return 0;
        }
        finally
        {
            cluster.close();
            ProcessRun.removeQuietly(statsDir);
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ignore)
            {
                // Already shutting down: the hook runs anyway.
            }
        }
    }

    private void report(final Path statsDir, final double seconds)
    {
        System.out.println();
        System.out.println(CFormat.format("%s on %d node(s), provider %s: %.3f s", mainClass, nodes, provider,
            seconds));
        try
        {
            final List<DsmStats> stats = ProcessRun.readStats(statsDir, nodes);
            StatsReport.printTable(System.out, stats);
            if (null != statsJson)
            {
                StatsReport.writeJson(statsJson,
                    StatsReport.json(mainClass, provider, nodes, seconds, null, true, stats));
            }
        }
        catch (final IOException ex)
        {
            System.out.println("(no statistics: the program did not close its Dsm on every node)");
        }
    }

    private List<String> validate()
    {
        final CommandLine commandLine = spec.commandLine();
        NodesOption.check(commandLine, nodes, true);
        final String name = provider.toLowerCase(Locale.ROOT);
        if (!List.of("shm", "tcp", "ucx").contains(name))
        {
            throw new CommandLine.ParameterException(commandLine,
                "--provider must be shm, tcp or ucx for launch, not '" + provider + "'" + (!"jvm".equals(name) ? "" :
                " (launch runs one JVM per node; to run nodes as threads of one JVM, use " +
                "org.viadsm.dsm.launch.LocalCluster from your program)"));
        }
        final List<String> entries = new ArrayList<>();
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classPath.split(File.pathSeparator))
        {
            if (entry.isBlank())
            {
                continue;
            }
            final Path path = Paths.get(entry).toAbsolutePath();
            if (!Files.exists(path))
            {
                throw new CommandLine.ParameterException(commandLine, "class path entry does not exist: " + entry);
            }
            entries.add(path.toString());
            try
            {
                urls.add(path.toUri().toURL());
            }
            catch (final MalformedURLException ex)
            {
                throw new CommandLine.ParameterException(commandLine, "bad class path entry: " + entry);
            }
        }
        checkMainClass(commandLine, urls);
        OutputFileOption.check(commandLine, "--stats-json", statsJson);
        return entries;
    }

    private void checkMainClass(final CommandLine commandLine, final List<URL> urls)
    {
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), getClass().getClassLoader()))
        {
            final Class<?> type = Class.forName(mainClass, false, loader);
            final Method main = type.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()))
            {
                throw new CommandLine.ParameterException(commandLine, mainClass + ".main is not static");
            }
        }
        catch (final ClassNotFoundException | NoClassDefFoundError ex)
        {
            throw new CommandLine.ParameterException(commandLine, "class " + mainClass + " not found " +
                (classPath.isBlank() ? "(no -cp given: only viadsm's own classes were searched)" :
                "on the class path '" + classPath + "'"));
        }
        catch (final NoSuchMethodException ex)
        {
            throw new CommandLine.ParameterException(commandLine, mainClass + " has no main(String[]) method");
        }
        catch (final IOException ex)
        {
            throw new CommandLine.ParameterException(commandLine, "cannot read the class path: " + ex.getMessage());
        }
    }
}
