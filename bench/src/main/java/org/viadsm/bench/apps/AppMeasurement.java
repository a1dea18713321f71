package org.viadsm.bench.apps;

import org.viadsm.dsm.DsmStats;

/**
 * One measured configuration of {@code bench apps}: an application in a mode on N members, its time, whether its
 * self-check passed, and, for DSM runs, the statistics summed over the nodes.
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
    final double timeS;
    final double runS;
    final boolean verified;
    final String error;
    final DsmStats total;

    /**
     * A measurement.
     *
     * @param app      the application.
     * @param mode     {@link #SEQ}, {@link #THREADS} or {@link #DSM}.
     * @param provider the DSM provider, or {@code threads}.
     * @param nodes    members.
     * @param timeS    the application's time (see {@link AppTime}), in s.
     * @param runS     the wall time of its run on member 0, in s.
     * @param verified whether the run passed its self-check.
     * @param error    what went wrong, or null.
     * @param total    DSM statistics summed over the nodes, or null for runs without DSM.
     */
    AppMeasurement(
        final String app,
        final String mode,
        final String provider,
        final int nodes,
        final double timeS,
        final double runS,
        final boolean verified,
        final String error,
        final DsmStats total)
    {
        this.app = app;
        this.mode = mode;
        this.provider = provider;
        this.nodes = nodes;
        this.timeS = timeS;
        this.runS = runS;
        this.verified = verified;
        this.error = error;
        this.total = total;
    }

    /**
     * A configuration that failed (its self-check, a node, a timeout).
     *
     * @param app      the application.
     * @param mode     {@link #SEQ}, {@link #THREADS} or {@link #DSM}.
     * @param provider the DSM provider, or {@code threads}.
     * @param nodes    members.
     * @param error    what went wrong.
     * @return a measurement without figures.
     */
    static AppMeasurement failed(
        final String app, final String mode, final String provider, final int nodes, final String error)
    {
        return new AppMeasurement(app, mode, provider, nodes, Double.NaN, Double.NaN, false, error, null);
    }
}
