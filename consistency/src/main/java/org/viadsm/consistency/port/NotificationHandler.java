package org.viadsm.consistency.port;

/**
 * Receives what {@link ProtocolPort#pollNotifications} and {@link ProtocolPort#awaitNotifications} deliver.
 */
public interface NotificationHandler
{
    /**
     * A notification arrived; the data written with it is in this node's memory.
     *
     * @param fromNode     the sender.
     * @param notification the 32-bit notification.
     */
    void onNotification(int fromNode, int notification);

    /**
     * A peer can no longer be reached: it closed, died, or its connection broke.
     *
     * @param node   the peer.
     * @param reason what the network reported.
     */
    void onPeerFailure(int node, String reason);
}
