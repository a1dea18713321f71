package org.viadsm.bench.dsm;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.viadsm.bench.BenchReport;
import org.viadsm.bench.BenchRunner;
import org.viadsm.dsm.Dsm;
import org.viadsm.dsm.DsmContext;
import org.viadsm.via.internal.AgronaAccess;

/**
 * One node process of {@code viadsm bench dsm}, started by the command through a {@code ProcessCluster}, never by
 * users. It joins the cluster its environment describes, runs the selected rows with every other node (node 0
 * measures and prints progress on standard output), and node 0 writes the rows to the results file. Arguments
 * are {@code name=value} pairs: {@code cluster}, {@code rounds}, {@code warmup}, {@code iterations},
 * {@code budget-ms}, {@code cold-bytes}, {@code sweep-length}, {@code results}, {@code metrics} (comma-separated).
 * Exits 0, or 1 if a row failed.
 */
public final class DsmBenchNode
{
    private DsmBenchNode()
    {
    }

    /**
     * Runs the node.
     *
     * @param args {@code name=value} pairs, as the class comment lists.
     */
    public static void main(final String[] args)
    {
        AgronaAccess.check();
        final Map<String, String> options = new HashMap<>();
        for (final String arg : args)
        {
            final int at = arg.indexOf('=');
            options.put(arg.substring(0, at), arg.substring(at + 1));
        }
        System.exit(run(options));
    }

    private static int run(final Map<String, String> options)
    {
        final int coldLength = Integer.parseInt(options.get("cold-bytes"));
        final int sweepLength = Integer.parseInt(options.get("sweep-length"));
        final List<String> metrics = Arrays.asList(options.get("metrics").split(","));
        final Path results = Paths.get(options.get("results"));
        try (Dsm dsm = Dsm.join(DsmContext.fromEnvironment());
            DsmRig rig = new DsmRig(dsm, options.get("cluster"), coldLength))
        {
            final PrintStream progress = rig.isMeasurer() ? System.out :
                new PrintStream(OutputStream.nullOutputStream());
            final BenchRunner runner = new BenchRunner(Integer.parseInt(options.get("rounds")),
                Integer.parseInt(options.get("warmup")), Integer.parseInt(options.get("iterations")),
                1_000_000L * Long.parseLong(options.get("budget-ms")), progress);
            final BenchReport report = new BenchReport("dsm", Runtime.getRuntime().availableProcessors(), "");
            runner.run(DsmCases.select(DsmCases.forCluster(rig, dsm.nodeCount(), coldLength, sweepLength), metrics),
                report);
            if (rig.isMeasurer())
            {
                RowFile.write(results, report.rows());
            }
            progress.flush();
            dsm.barrier();
            return 0 == runner.failures() ? 0 : 1;
        }
    }
}
