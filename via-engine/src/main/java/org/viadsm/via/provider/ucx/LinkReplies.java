package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The answers a link sends outside its send queue (acknowledgements, refusals, breaks), each from a header slot of
 * its own, which stays valid until UCX is done with it; at most {@link #SLOTS} are in flight.
 * <p>
 * <b>Note:</b> called from UCX callbacks and under its link's lock, always inside UCX's worker lock.
 */
final class LinkReplies
{
    static final int SLOTS = 64;

    private final long endpoint;
    private final int peerViId;
    private final long peerToken;
    private final MemorySegment headers;
    private final MemorySegment param;
    private final long[] requests = new long[SLOTS];
    private final DataHeader header = new DataHeader();
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int next;

    /**
     * @param arena     where the header slots live.
     * @param endpoint  the data endpoint's native handle.
     * @param param     the request parameter of eager active messages.
     * @param peerViId  the peer VI, which the answers address.
     * @param peerToken the peer link's token.
     */
    LinkReplies(final Arena arena, final long endpoint, final MemorySegment param, final int peerViId,
        final long peerToken)
    {
        this.endpoint = endpoint;
        this.param = param;
        this.peerViId = peerViId;
        this.peerToken = peerToken;
        this.headers = arena.allocate((long)DataHeader.LENGTH * SLOTS, 64);
    }

    /**
     * Sends an answer.
     *
     * @return null, or why it could not be sent (the connection must break).
     */
    String send(final int type, final int sequence, final int outcome)
    {
        final int slot = next;
        next = (next + 1) % SLOTS;
        if (Ucp.isRequest(requests[slot]))
        {
            if (Ucp.IN_PROGRESS == Ucp.checkStatus(requests[slot]))
            {
                return "more than " + SLOTS + " answers to peer VI " + peerViId + " are in flight";
            }
            Ucp.free(requests[slot]);
        }
        final long address = headers.address() + (long)DataHeader.LENGTH * slot;
        buffer.wrap(address, DataHeader.LENGTH);
        header.wrap(buffer).set(type, peerViId, peerToken, sequence).outcome(outcome);
        final long request = Ucp.amSend(endpoint, DataHeader.AM_ID, address, DataHeader.LENGTH, 0, 0,
            param.address());
        requests[slot] = Ucp.isRequest(request) ? request : 0;
        return Ucp.isError(request) ? "cannot answer peer VI " + peerViId + ": UCX status " + request : null;
    }

    /**
     * Frees the requests still held.
     */
    void close()
    {
        for (int i = 0; i < SLOTS; i++)
        {
            if (Ucp.isRequest(requests[i]))
            {
                Ucp.free(requests[i]);
                requests[i] = 0;
            }
        }
    }
}
