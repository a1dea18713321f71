package org.viadsm.dsm;

/**
 * Which node this node lost, decided once. The NIC reports failed connections as they happen, possibly from its
 * engine thread; they are suspects until the application thread resolves them, because a failed connection is not
 * always a loss, nor always the first one:
 * <ul>
 * <li>a peer that announced its departure (LEAVE) closes its connections afterwards, which is no loss;</li>
 * <li>a peer that lost a node tells the others (STOPPED) before it closes its connections, so the loss it reports
 * is the root cause, not its own departure.</li>
 * </ul>
 * Notifications are delivered in order on each connection, so the port resolves a suspicion after taking in every
 * notification that arrived before it.
 * <p>
 * A descriptor to or from a peer that completes flushed is a failed connection too, seen on the data path: the NIC
 * queues its asynchronous error (which says why) before it flushes, but another call may deliver it later, so
 * {@link #connectionFailed} takes in the NIC's queued errors first and suspects the peer itself if none named it.
 * Any failure the application thread reports after seeing such a descriptor then names the loss.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class NodeLoss
{
    private final int nodeId;
    private final boolean[] departed;
    private final Runnable takeInErrors;
    private volatile boolean suspected;
    private int suspectNode = -1;
    private String suspectReason;
    private int reportedNode = -1;
    private int reporter = -1;
    private volatile int lostNode = -1;
    private volatile String lostReason;

    /**
     * @param nodeId       this node.
     * @param nodeCount    the nodes.
     * @param takeInErrors hands the NIC's queued asynchronous errors to the port (which {@link #suspect}s).
     */
    NodeLoss(final int nodeId, final int nodeCount, final Runnable takeInErrors)
    {
        this.nodeId = nodeId;
        this.departed = new boolean[nodeCount];
        this.takeInErrors = takeInErrors;
    }

    /**
     * A descriptor to or from {@code node} completed flushed (or failed in transport): its connection failed. The
     * NIC's own report of it, queued before the flush, is taken in first, so that its reason is the suspect's;
     * {@code reason} serves if that report is still on its way (another thread is handing it over).
     *
     * @param node   the peer.
     * @param reason what the descriptor said.
     */
    void connectionFailed(final int node, final String reason)
    {
        takeInErrors.run();
        suspect(node, reason);
    }

    /**
     * A connection to {@code node} failed (or, for this node's id, the NIC did).
     *
     * @param node   the node.
     * @param reason what the NIC said.
     */
    synchronized void suspect(final int node, final String reason)
    {
        if (suspectNode < 0 && (node == nodeId || !departed[node]))
        {
            suspectNode = node;
            suspectReason = reason;
            suspected = true;
        }
    }

    /**
     * {@code node} announced its departure: its connections closing later are no loss.
     *
     * @param node the node.
     */
    synchronized void departed(final int node)
    {
        departed[node] = true;
        if (suspectNode == node && lostNode < 0)
        {
            suspectNode = -1;
            suspectReason = null;
            // a loss a peer reported stays due: the departed node may be the one that reported it
            suspected = reportedNode >= 0;
        }
    }

    /**
     * {@code reporter} lost {@code lost} and stopped.
     *
     * @param reporter the node that says so.
     * @param lost     the node it lost.
     */
    synchronized void reported(final int reporter, final int lost)
    {
        if (reportedNode < 0)
        {
            this.reportedNode = lost;
            this.reporter = reporter;
        }
        suspected = true;
    }

    /**
     * Whether a loss may have happened and is not yet resolved: the port then takes in the notifications that
     * arrived, and {@link #resolve()}s. One volatile load.
     *
     * @return true if {@link #resolve()} is due.
     */
    boolean isPending()
    {
        return suspected && lostNode < 0;
    }

    /**
     * Whether nothing has happened: no loss suspected, reported or decided. Two volatile loads, which a node's every
     * entry into the protocol makes (see {@code NodeGuard}) before it asks the port for the lost node, out of line.
     *
     * @return true if no loss is pending or decided.
     */
    boolean isQuiet()
    {
        return !suspected && lostNode < 0;
    }

    /**
     * Decides the loss, once: the node a peer reported lost, else the suspect.
     */
    synchronized void resolve()
    {
        if (lostNode >= 0 || !suspected)
        {
            return;
        }
        if (reportedNode >= 0)
        {
            lostReason = reportedNode == reporter ? "it stopped" : "node " + reporter + " lost it";
            lostNode = reportedNode;
        }
        else if (suspectNode >= 0)
        {
            lostReason = suspectNode == nodeId ? "this node's NIC failed: " + suspectReason : suspectReason;
            lostNode = suspectNode;
        }
    }

    /**
     * The node lost, once resolved.
     *
     * @return the node, or -1.
     */
    int node()
    {
        return lostNode;
    }

    /**
     * Why it was lost.
     *
     * @return the reason, or null.
     */
    String reason()
    {
        return lostReason;
    }
}
