package org.viadsm.examples.cli;

import java.util.List;

import org.viadsm.dsm.DsmStats;

/**
 * What a run of an application gives back: every node's statistics (none for plain threads) and how long the
 * application ran on member 0 (its {@code App.run}, from after the node joined to its return).
 */
final class RunResult
{
    final List<DsmStats> stats;
    final long appNs;

    RunResult(final List<DsmStats> stats, final long appNs)
    {
        this.stats = stats;
        this.appNs = appNs;
    }
}
