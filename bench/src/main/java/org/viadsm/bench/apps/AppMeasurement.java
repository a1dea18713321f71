package org.viadsm.bench.apps;

import java.util.List;

import org.viadsm.dsm.DsmStats;

/**
 * One measured configuration of {@code bench apps}: an application in a mode on N members, its time (warm, if the
 * runs were warmed up) and its first run's time, whether its self-checks passed, and, for DSM runs, every node's
 * statistics and their sum.
 */
final class AppMeasurement
{
    /** One thread over plain arrays. */
    static final String SEQ = "seq";
    /** Java threads over plain arrays. */
    static final String THREADS = "threads";
    /** DSM nodes. */
    static final String DSM = "dsm";

    final String app;
    final String mode;
    final String provider;
    final int nodes;
    final int warm;
    final double timeS;
    final double coldS;
    final double runS;
    /** Whether every run passed the self-check, and the options had it on (false for a run that did not check). */
    final boolean verified;
    final String error;
    final List<DsmStats> perNode;
    final DsmStats total;

    /**
     * A measurement.
     *
     * @param app      the application.
     * @param mode     {@link #SEQ}, {@link #THREADS} or {@link #DSM}.
     * @param provider the DSM provider, or {@code threads}.
     * @param nodes    members.
     * @param warm     warm runs after the first in the same JVMs, 0 for none.
     * @param timeS    the application's time (see {@link AppTime}), in s: the median of the warm runs if any.
     * @param coldS    the first run's time in s.
     * @param runS     the wall time of the first run on member 0, in s.
     * @param checked  whether the application checked its result (false if its options left the check off).
     * @param error    what went wrong, or null if every run passed its self-check.
     * @param perNode  every node's DSM statistics (the last run's), or null for runs without DSM.
     */
    AppMeasurement(
        final String app,
        final String mode,
        final String provider,
        final int nodes,
        final int warm,
        final double timeS,
        final double coldS,
        final double runS,
        final boolean checked,
        final String error,
        final List<DsmStats> perNode)
    {
        this.app = app;
        this.mode = mode;
        this.provider = provider;
        this.nodes = nodes;
        this.warm = warm;
        this.timeS = timeS;
        this.coldS = coldS;
        this.runS = runS;
        this.verified = checked && null == error;
        this.error = error;
        this.perNode = null == perNode ? null : List.copyOf(perNode);
        this.total = null == perNode ? null : DsmStats.total(perNode);
    }

    /**
     * A configuration that failed (its self-check, a node, a timeout).
     *
     * @param app      the application.
     * @param mode     {@link #SEQ}, {@link #THREADS} or {@link #DSM}.
     * @param provider the DSM provider, or {@code threads}.
     * @param nodes    members.
     * @param warm     warm runs asked for.
     * @param error    what went wrong.
     * @return a measurement without figures.
     */
    static AppMeasurement failed(
        final String app, final String mode, final String provider, final int nodes, final int warm,
        final String error)
    {
        return new AppMeasurement(app, mode, provider, nodes, warm, Double.NaN, Double.NaN, Double.NaN, false, error,
            null);
    }

    /**
     * The time a report shows.
     *
     * @param cold the first run's rather than the (warm) time.
     * @return the time in s.
     */
    double time(final boolean cold)
    {
        return cold ? coldS : timeS;
    }
}
