package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolException;

/**
 * A node's entry into the protocol: one thread at a time, never after close, never once the cluster lost a node;
 * and the exception a failed operation becomes (a {@link NodeLostException} once a node is lost, after telling the
 * others that this node stopped, else a {@link DsmException}).
 * <p>
 * <b>Note:</b> used by the thread that uses the node; a second thread is detected at {@link #enter()}.
 */
final class NodeGuard
{
    /** Operations between two looks for lost peers by a node that does not call its NIC otherwise, minus one. */
    private static final int PROBE_PERIOD_MASK = 15;

    private final int nodeId;
    private final ViaProtocolPort port;
    /** Read at every entry, inline: the port's methods are compiled out of line (see {@code NodeSettings}). */
    private final NodeLoss loss;
    /** A node alone has no peer to lose, so it never probes: its local lock hand-off stays a few loads. */
    private final boolean probes;
    private int enters;
    private boolean stopAnnounced;
    private Thread active;
    private boolean closed;

    NodeGuard(final int nodeId, final int nodeCount, final ViaProtocolPort port)
    {
        this.nodeId = nodeId;
        this.port = port;
        this.loss = port.loss();
        this.probes = nodeCount > 1;
    }

    boolean isClosed()
    {
        return closed;
    }

    /** From now on {@link #enter()} fails. */
    void close()
    {
        closed = true;
    }

    /**
     * Enters the protocol: fails if the node is closed, in use by another thread, or has lost a node (a cluster
     * that lost a node has stopped, whatever this operation touches); now and then lets the NIC look for lost
     * peers, for a node whose operations stay local (never on a node alone).
     */
    void enter()
    {
        if (closed)
        {
            throw new IllegalStateException("node " + nodeId + " is closed");
        }
        final Thread current = Thread.currentThread();
        if (null != active && active != current)
        {
            throw new IllegalStateException("node " + nodeId + " is in use by thread '" + active.getName() +
                "'; a node is used by one thread at a time");
        }
        if (probes && 0 == (++enters & PROBE_PERIOD_MASK))
        {
            port.probe();
        }
        if (!loss.isQuiet() && port.lostNode() >= 0)
        {
            throw lost(null, null);
        }
        active = current;
    }

    void exit()
    {
        active = null;
    }

    /**
     * The exception for a failed operation: a {@link NodeLostException} if this node has lost a node by now (the
     * failure is then a consequence of the loss), else a {@link DsmException} with the protocol's message. The NIC's
     * queued asynchronous errors are taken in first: a loss the NIC has seen but not yet reported is the cause.
     */
    DsmException failure(final String activity, final ProtocolException ex)
    {
        port.probe();
        if (port.lostNode() >= 0)
        {
            return lost(activity, ex);
        }
        final String message = ex.getMessage();
        final String prefix = "node " + nodeId + ": ";
        return new DsmException(nodeId, activity + ": " +
            (message.startsWith(prefix) ? message.substring(prefix.length()) : message), ex);
    }

    private NodeLostException lost(final String activity, final ProtocolException ex)
    {
        final int lostNode = port.lostNode();
        if (!stopAnnounced)
        {
            stopAnnounced = true;
            port.announceStop();
        }
        final String what = lostNode == nodeId ? port.lostReason() :
            "node " + lostNode + " was lost (" + port.lostReason() + ")";
        return new NodeLostException(nodeId, lostNode, (null == activity ? "" : activity + ": ") + what +
            "; the cluster has stopped", ex);
    }
}
