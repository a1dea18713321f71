package org.viadsm.dsm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.viadsm.consistency.Counters;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.page.SharedSpace;

/**
 * A node's statistics over time: its protocol counters, the time since they were last reset (up to the close),
 * the pages homed at the node, and the JSON file {@link Dsm#close()} leaves them in.
 * <p>
 * <b>Note:</b> used by the thread that uses the node.
 */
final class NodeStatistics
{
    private final int nodeId;
    private final SharedSpace space;
    private final Counters counters;
    private long startNs;
    private long endNs;
    private boolean stopped;

    NodeStatistics(final int nodeId, final SharedSpace space, final Counters counters)
    {
        this.nodeId = nodeId;
        this.space = space;
        this.counters = counters;
    }

    /** A snapshot: the counters, the time since the last reset (up to the stop, if stopped) and the homes. */
    DsmStats snapshot()
    {
        final long nowNs = stopped ? endNs : System.nanoTime();
        return DsmStats.of(nodeId, counters.snapshot(), nowNs - startNs, homes());
    }

    /** Sets the counters to zero; times count from now. */
    void reset()
    {
        counters.reset();
        startNs = System.nanoTime();
    }

    /** Stops the clock: snapshots from now on cover the time up to {@code endNs}. */
    void stop(final long endNs)
    {
        this.endNs = endNs;
        stopped = true;
    }

    /** Writes a snapshot as one JSON line to {@code file}, if any; a failure is reported, not thrown. */
    void write(final Path file)
    {
        if (null != file)
        {
            try
            {
                Files.writeString(file, snapshot().toJson() + System.lineSeparator(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                System.err.println("node " + nodeId + ": cannot write statistics to " + file + ": " + ex);
            }
        }
    }

    private long homes()
    {
        long homes = 0;
        for (final PageTable table : space.tables())
        {
            for (int page = 0; page < table.pages(); page++)
            {
                if (table.homes().home(page) == nodeId)
                {
                    homes++;
                }
            }
        }
        return homes;
    }
}
