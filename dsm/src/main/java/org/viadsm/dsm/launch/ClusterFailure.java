package org.viadsm.dsm.launch;

/**
 * A cluster run failed: names the node at the root of the failure (for threads, the first that failed), with its
 * exception as the cause; later failures of other nodes are attached as suppressed exceptions, or, for processes,
 * described in a {@link FailureReport}.
 */
public final class ClusterFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int nodeId;
    private final transient FailureReport report;

    /**
     * Creates the failure.
     *
     * @param nodeId  the node that failed first.
     * @param message what failed.
     * @param cause   what it threw, or null.
     */
    public ClusterFailure(final int nodeId, final String message, final Throwable cause)
    {
        this(nodeId, message, cause, null);
    }

    /**
     * Creates the failure of a process cluster, with the report of what failed where.
     *
     * @param nodeId  the node at the root of the failure.
     * @param message what failed.
     * @param cause   the root node's failure, or null.
     * @param report  root cause first, then what it broke; or null.
     */
    public ClusterFailure(final int nodeId, final String message, final Throwable cause, final FailureReport report)
    {
        super(message, cause);
        this.nodeId = nodeId;
        this.report = report;
    }

    /**
     * The node that failed first.
     *
     * @return its id.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * What failed where, for a cluster of processes: the root cause, then what it broke on the other nodes.
     *
     * @return the report, or null.
     */
    public FailureReport report()
    {
        return report;
    }
}
