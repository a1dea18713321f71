package org.viadsm.examples.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.dsm.Placement;
import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.VerificationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viadsm node}: one node of a {@code viadsm run} over processes; started by the launcher, not by users.
 * Joins the cluster described by the environment (which also names the statistics file), runs the application.
 */
@Command(name = "node", hidden = true, description = "Runs one node of a cluster (started by 'viadsm run').")
final class NodeCommand implements Callable<Integer>
{
    /** Exit code of a node whose application failed its self-check. */
    static final int VERIFICATION_FAILED = 3;

    @Option(names = "--app", required = true)
    private String appName;

    @Option(names = "--placement")
    private String placement;

    @Option(names = "--page-size", defaultValue = "4096")
    private int pageSize;

    // where the node writes how long each run of the application took on it, in ns, comma-separated
    @Option(names = "--app-time-file")
    private Path appTimeFile;

    // how many times the application runs on this node: once cold, then warm
    @Option(names = "--runs", defaultValue = "1")
    private int runs;

    @Parameters
    private List<String> appArgs = new ArrayList<>();

    @Override
    public Integer call()
    {
        final AppCatalog.Entry entry = AppCatalog.find(appName);
        final DsmContext context = DsmContext.fromEnvironment().pageSize(pageSize)
            .maxLocks(NodeSettings.MAX_LOCKS).maxSemaphores(NodeSettings.MAX_SEMAPHORES);
        try (Dsm dsm = Dsm.join(context))
        {
            try
            {
                final Placement override = null == placement ? null : Placement.parse(placement);
                final long[] runNs = AppRuns.onNode(dsm, entry, appArgs, override, System.out, runs);
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
                System.out.flush();
            }
        }
        return 0;
    }
}
