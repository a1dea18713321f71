package org.viadsm.dsm.launch;

/**
 * A cluster run failed: names the first node that failed, with its exception as the cause; later failures of
 * other nodes are attached as suppressed exceptions.
 */
public final class ClusterFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int nodeId;

    /**
     * Creates the failure.
     *
     * @param nodeId  the node that failed first.
     * @param message what failed.
     * @param cause   what it threw, or null.
     */
    public ClusterFailure(final int nodeId, final String message, final Throwable cause)
    {
        super(message, cause);
        this.nodeId = nodeId;
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
}
