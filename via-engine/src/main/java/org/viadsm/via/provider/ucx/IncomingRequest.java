package org.viadsm.via.provider.ucx;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.engine.ViConnection;

/**
 * A request that reached a ucx NIC, known by its requester's NIC id, VI id and sequence (UCX does not say over
 * which of the listener's connections a message came). This side answers over a control endpoint of its own to
 * the requester's listener, which an accepted connection keeps as its failure detector.
 * <p>
 * <b>Note:</b> guarded by the lock of its {@link UcxConnector}.
 */
final class IncomingRequest implements SetupMessages.Sender
{
    static final int REQUESTED = 1;
    static final int TAKEN = 2;
    static final int ACCEPTING = 3;
    static final int DONE = 4;
    static final int FAILED = 5;

    final Handshake request;
    final String key;
    UcpEndpoint endpoint;
    UcxEndpoints.Sink sink;
    int state = REQUESTED;
    ViConnection acceptor;
    int sequence;
    UcxLink link;
    /** Why accepting it failed on this side, if it did (a malformed worker address). */
    String failure;
    /** Whether the requester withdrew it after this NIC's connection wait had taken it, or while accepting it. */
    boolean withdrawn;
    /** Whether this side's acceptance left: 1 if it did, -1 if UCX failed it, 0 while in flight or none sent. */
    int acceptSent;

    IncomingRequest(final Handshake request, final String key)
    {
        this.request = request;
        this.key = key;
    }

    @Override
    public void onSent(final boolean left)
    {
        acceptSent = left ? 1 : -1;
    }

    /**
     * Opens this side's control endpoint to the requester's listener, over which it answers, unless it is open.
     */
    void openAnswerEndpoint(final UcxTransport nic)
    {
        if (null == endpoint)
        {
            sink = new UcxEndpoints.Sink();
            endpoint = UcxEndpoints.connect(nic, UcxAddress.parse(request.address).socketAddress(), sink);
        }
    }
}
