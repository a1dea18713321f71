package org.viadsm.via;

/**
 * States of a VI, as in VIA 1.0.
 * <pre>
 *   IDLE --connect request--&gt; CONNECT_PENDING --accepted--&gt; CONNECTED
 *    ^                              |rejected/timeout             |  error, peer lost
 *    +------------------------------+                             v
 *    +------------------------- disconnect ------------------- ERROR
 * </pre>
 * Receives may be posted in any state; in IDLE and CONNECT_PENDING they wait for a connection. Sends may be
 * posted only when CONNECTED; posted to a VI in ERROR they complete at once as flushed.
 */
public enum ViState
{
    /** Created or disconnected; no peer. */
    IDLE,
    /** A connection request is outstanding. */
    CONNECT_PENDING,
    /** Connected to a peer VI; data may flow. */
    CONNECTED,
    /** The connection broke; descriptors are flushed; only {@code disconnect()} leaves this state. */
    ERROR
}
