package org.viadsm.examples.cli;

import java.util.List;

import org.viadsm.dsm.DsmStats;

/**
 * What a run of an application gives back: every node's statistics (none for plain threads; the last run's if it
 * ran several times) and how long each run of the application took on member 0 (its {@code App.run}, from after
 * the node joined, or the previous run ended, to its return).
 */
final class RunResult
{
    final List<DsmStats> stats;
    final long[] runNs;

    RunResult(final List<DsmStats> stats, final long[] runNs)
    {
        this.stats = stats;
        this.runNs = runNs;
    }
}
