package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The failure detector of one {@link UcxLink} whose ends both run a progress thread (across hosts, or over UCX's
 * TCP transport): UCX does not tell an endpoint with nothing outstanding that its link went down, and a peer busy
 * with one-sided operations sends nothing this side would see. So the progress thread sends the peer a heartbeat
 * every interval, whatever else the link carries, and takes the peer for lost once none of its heartbeats arrived
 * for the peer timeout. A link is watched from its establishment when the peer said in its handshake that it sends
 * heartbeats too, else once one of its heartbeats arrived; so a peer that runs no progress thread (on this host,
 * over shared memory) is never taken for lost for its silence, and one cut off right after connecting is.
 * <p>
 * <b>Note:</b> {@link #onHeartbeat()} runs in a UCX callback; the rest under the link's lock.
 */
final class LinkLiveness
{
    private final long endpoint;
    private final String peer;
    private final MemorySegment header;
    private final MemorySegment param;
    private long request;
    private long sentNs;
    private boolean sent;
    private volatile long heardNs;
    private volatile boolean heard;

    /**
     * @param arena     where the heartbeat's header lives.
     * @param endpoint  the data endpoint's native handle.
     * @param peerViId  the peer VI, which the heartbeats address.
     * @param peerToken the peer link's token.
     * @param peer      the peer VI as failures name it.
     */
    LinkLiveness(final Arena arena, final long endpoint, final int peerViId, final long peerToken, final String peer)
    {
        this.endpoint = endpoint;
        this.peer = peer;
        this.header = arena.allocate(DataHeader.LENGTH, 64);
        this.param = SendSlots.messageParam(arena);
        new DataHeader().wrap(new UnsafeBuffer(header.address(), DataHeader.LENGTH))
            .set(DataHeader.TYPE_HEARTBEAT, peerViId, peerToken, 0);
    }

    /**
     * A heartbeat of the peer arrived; from the UCX callback that received it.
     */
    void onHeartbeat()
    {
        heardNs = System.nanoTime();
        heard = true;
    }

    /**
     * Watches the link from {@code nowNs} on, as if a heartbeat of the peer arrived then: the link is established
     * and the peer said it sends heartbeats.
     */
    void watchFrom(final long nowNs)
    {
        if (!heard)
        {
            heardNs = nowNs;
            heard = true;
        }
    }

    /**
     * Sends a heartbeat if none left for {@code intervalNs} (none while the last is still on its way: a link that
     * is down takes no more), and says whether the peer has been silent for {@code timeoutNs}.
     *
     * @return null, or why the peer is taken for lost.
     */
    String check(final long nowNs, final long intervalNs, final long timeoutNs)
    {
        if (heard && nowNs - heardNs > timeoutNs)
        {
            return "nothing arrived from " + peer + " for " + (nowNs - heardNs) / 1_000_000 +
                " ms: its link is down or its process stopped";
        }
        if (sent && nowNs - sentNs < intervalNs)
        {
            return null;
        }
        if (Ucp.isRequest(request))
        {
            if (Ucp.IN_PROGRESS == Ucp.checkStatus(request))
            {
                return null;
            }
            Ucp.free(request);
            request = 0;
        }
        final long sending = Ucp.amSend(endpoint, DataHeader.AM_ID, header.address(), DataHeader.LENGTH, 0, 0,
            param.address());
        if (Ucp.isError(sending))
        {
            return "cannot send a heartbeat to " + peer + ": UCX status " + sending;
        }
        request = Ucp.isRequest(sending) ? sending : 0;
        sentNs = nowNs;
        sent = true;
        return null;
    }

    /**
     * Frees the request still held.
     */
    void close()
    {
        if (Ucp.isRequest(request))
        {
            Ucp.free(request);
            request = 0;
        }
    }
}
