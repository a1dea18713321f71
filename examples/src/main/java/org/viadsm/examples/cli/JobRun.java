package org.viadsm.examples.cli;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.DsmStats;
import org.viadsm.dsm.rendezvous.Rendezvous;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.via.internal.Settings;

/**
 * What {@code viadsm node} adds for a node that a launcher started: after the run, every node hands its
 * statistics to node 0 through the job's rendezvous, and node 0 prints them as {@code viadsm run} does; nodes
 * other than 0 keep the application's output to themselves. A node that {@code viadsm run} started (the addresses
 * in its environment) gets none of this: the launcher reports.
 */
final class JobRun
{
    /** Longest node 0 waits for the other nodes' statistics. */
    private static final long GATHER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    private static final String STATS_TOPIC = "stats";

    private final Rendezvous rendezvous;
    private final long startNs = System.nanoTime();
    private Path statsFile;
    private String what;
    private long appNs = -1;
    private AppCatalog.Entry entry;
    private App app;

    private JobRun(final Rendezvous rendezvous)
    {
        this.rendezvous = rendezvous;
    }

    /**
     * The run of a node whose context is as given.
     *
     * @param context the node's context from the environment.
     * @return the run.
     */
    static JobRun of(final DsmContext context)
    {
        return new JobRun(context.rendezvous());
    }

    /** Whether this node's application output is dropped: a launcher's rank other than 0. */
    boolean isQuiet()
    {
        return null != rendezvous && 0 != rendezvous.rank();
    }

    /** The context, set to write the node's statistics where {@link #finish} finds them. */
    DsmContext context(final DsmContext context)
    {
        if (null != rendezvous && null == context.statsFile())
        {
            context.statsFile(statsFile());
        }
        return context;
    }

    /**
     * Records a run of a catalogued application, for the report.
     *
     * @param entry the application.
     * @param app   the application with the run's options set, asked whether the run checked its result.
     * @param ns    how long the (last) run took on this node.
     */
    void ran(final AppCatalog.Entry entry, final App app, final long ns)
    {
        this.what = entry.name();
        this.entry = entry;
        this.app = app;
        this.appNs = ns;
    }

    /**
     * Runs a user's main class in this JVM, its class path added.
     *
     * @return 0, or 1 if it threw.
     */
    int runClass(final String mainClass, final String classPath, final List<String> args) throws IOException
    {
        this.what = mainClass;
        if (null != rendezvous && !Settings.fromSystem().isSet(DsmContext.STATS_FILE_PROP_NAME))
        {
            // the program's DsmContext reads it, as it would a user's
            System.setProperty(DsmContext.STATS_FILE_PROP_NAME, statsFile().toString());
        }
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classPath.split(File.pathSeparator))
        {
            if (!entry.isBlank())
            {
                urls.add(Paths.get(entry).toAbsolutePath().toUri().toURL());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), JobRun.class.getClassLoader()))
        {
            final Method main = Class.forName(mainClass, true, loader).getMethod("main", String[].class);
            Thread.currentThread().setContextClassLoader(loader);
            main.invoke(null, (Object)args.toArray(new String[0]));
            return 0;
        }
        catch (final InvocationTargetException ex)
        {
            System.err.println(ex.getCause());
            ex.getCause().printStackTrace();
            return 1;
        }
        catch (final ReflectiveOperationException ex)
        {
            System.err.println("cannot run " + mainClass + " (class path '" + classPath + "'): " + ex);
            return 1;
        }
    }

    /**
     * Hands this node's statistics to node 0, which prints every node's.
     *
     * @param code this node's exit code so far.
     * @return the exit code.
     */
    int finish(final int code)
    {
        if (null == rendezvous)
        {
            return code;
        }
        String mine = "";
        try
        {
            if (Files.exists(statsFile()))
            {
                mine = Files.readString(statsFile(), StandardCharsets.UTF_8).strip();
            }
            Files.deleteIfExists(statsFile());
        }
        catch (final IOException ex)
        {
            System.err.println("node " + rendezvous.rank() + ": cannot read its statistics: " + ex);
        }
        final List<String> all = rendezvous.gather(STATS_TOPIC, mine, GATHER_TIMEOUT_NS);
        if (0 == rendezvous.rank() && 0 == code)
        {
            report(all);
        }
        return code;
    }

    private void report(final List<String> all)
    {
        final List<DsmStats> stats = new ArrayList<>();
        final List<Integer> missing = new ArrayList<>();
        for (int node = 0; node < all.size(); node++)
        {
            final String json = all.get(node);
            if (null == json || json.isEmpty())
            {
                missing.add(node);
            }
            else
            {
                stats.add(DsmStats.fromJson(json));
            }
        }
        System.out.println();
        System.out.println(CFormat.format("%s on %d node(s), provider %s: %.3f s%s", what, rendezvous.size(),
            Settings.fromSystem().text(DsmContext.PROVIDER_PROP_NAME, DsmContext.PROVIDER_DEFAULT),
            (System.nanoTime() - startNs) / 1e9,
            appNs < 0 ? "" : ", " + AppArguments.verdict(entry, app,
                CFormat.format("the application ran %.3f s on node 0", appNs / 1e9))));
        if (!stats.isEmpty())
        {
            StatsReport.printTable(System.out, stats);
        }
        if (!missing.isEmpty())
        {
            System.out.println("(no statistics from node(s) " + missing + ")");
        }
    }

    private Path statsFile()
    {
        if (null == statsFile)
        {
            statsFile = Paths.get(System.getProperty("java.io.tmpdir"),
                "viadsm-stats-" + ProcessHandle.current().pid() + ".json");
        }
        return statsFile;
    }
}
