package org.viadsm.dsm;

/**
 * The cluster has stopped because a node was lost: its process died, it failed, or its link went down. A cluster
 * that has lost a node has lost that node's home pages and its part of every queue, so once a node learns of the
 * loss, its every later operation fails with this exception, whatever it touches.
 */
public final class NodeLostException extends DsmException
{
    private static final long serialVersionUID = 1L;

    private final int lostNode;

    /**
     * Creates the exception.
     *
     * @param nodeId   the node raising it.
     * @param lostNode the node that was lost.
     * @param message  what was lost and why, and what it interrupted.
     * @param cause    the underlying failure, or null.
     */
    public NodeLostException(final int nodeId, final int lostNode, final String message, final Throwable cause)
    {
        super(nodeId, message, cause);
        this.lostNode = lostNode;
    }

    /**
     * The node that was lost.
     *
     * @return its id.
     */
    public int lostNode()
    {
        return lostNode;
    }
}
