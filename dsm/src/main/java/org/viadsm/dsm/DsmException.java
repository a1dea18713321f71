package org.viadsm.dsm;

/**
 * The shared memory cannot go on: a node left or failed, nodes disagree about an allocation or the configuration,
 * the network failed. Names the node that raised it; the message names the node at fault where known.
 */
public class DsmException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int nodeId;

    /**
     * Creates the exception.
     *
     * @param nodeId  the node raising it.
     * @param message what happened.
     */
    public DsmException(final int nodeId, final String message)
    {
        super(message.startsWith("node " + nodeId + ": ") ? message : "node " + nodeId + ": " + message);
        this.nodeId = nodeId;
    }

    /**
     * Creates the exception with a cause.
     *
     * @param nodeId  the node raising it.
     * @param message what happened.
     * @param cause   the underlying failure.
     */
    public DsmException(final int nodeId, final String message, final Throwable cause)
    {
        super(message.startsWith("node " + nodeId + ": ") ? message : "node " + nodeId + ": " + message, cause);
        this.nodeId = nodeId;
    }

    /**
     * The node that raised the exception.
     *
     * @return its id.
     */
    public int nodeId()
    {
        return nodeId;
    }
}
