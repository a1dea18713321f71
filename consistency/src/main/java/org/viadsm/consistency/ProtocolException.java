package org.viadsm.consistency;

/**
 * The consistency protocol cannot go on: a peer node left or failed, a peer disagrees about the shared space, or
 * the network reported an error. Names the node that detected it and, where known, the node at fault.
 */
public class ProtocolException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int nodeId;

    /**
     * Creates the exception.
     *
     * @param nodeId  the node that detected the problem.
     * @param message what happened, naming the nodes, pages and operations involved.
     */
    public ProtocolException(final int nodeId, final String message)
    {
        super("node " + nodeId + ": " + message);
        this.nodeId = nodeId;
    }

    /**
     * Creates the exception with a cause.
     *
     * @param nodeId  the node that detected the problem.
     * @param message what happened.
     * @param cause   the underlying failure.
     */
    public ProtocolException(final int nodeId, final String message, final Throwable cause)
    {
        super("node " + nodeId + ": " + message, cause);
        this.nodeId = nodeId;
    }

    /**
     * The node that detected the problem.
     *
     * @return its id.
     */
    public int nodeId()
    {
        return nodeId;
    }
}
