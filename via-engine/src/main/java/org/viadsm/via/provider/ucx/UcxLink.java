package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.ViConnection;
import org.viadsm.via.engine.ViTransport;

/**
 * A connected VI's link to its peer VI over UCX: its endpoints, the mirrors of the registrations each side keeps
 * of the other's, its liveness, and its two sides.
 * <p>
 * Initiator side: the send queue in posting order ({@link LinkSendQueue}).
 * <p>
 * Target side: the peer's messages go to its {@link LinkInbox}, from a UCX callback.
 * <p>
 * <b>Note:</b> the send queue is guarded by the link's {@link LinkLock}; UCX callbacks never take it (they run under
 * the worker's lock, which the send queue takes inside its own), they only set the volatile fields the queue reads.
 */
final class UcxLink implements ViTransport
{
    final long token;
    private final UcxTransport nic;
    private final ViConnection vi;
    private final int peerViId;
    private final boolean peerSendsHeartbeats;
    private final UcpEndpoint control;
    private final UcpEndpoint data;
    private final long dataEndpoint;
    private final RegistrationMirror mirror;
    private final Arena arena;
    private final LinkReplies replies;
    private final LinkInbox inbox;
    private final LinkSendQueue sendQueue;
    private final LinkLiveness liveness;
    private final LinkLock lock = new LinkLock();
    private MirrorPublisher.Subscriber subscriber;
    private UcpRemoteKey peerMirrorKey;

    UcxLink(
        final UcxTransport nic,
        final ViConnection vi,
        final long token,
        final Handshake peer,
        final UcpEndpoint control,
        final UcpEndpoint data,
        final RegistrationMirror mirror)
    {
        this.nic = nic;
        this.vi = vi;
        this.token = token;
        this.peerViId = peer.viId;
        this.peerSendsHeartbeats = peer.sendsHeartbeats();
        this.control = control;
        this.data = data;
        this.dataEndpoint = data.getNativeId();
        this.mirror = mirror;
        this.arena = nic.arena();
        final MemorySegment messageParam = SendSlots.messageParam(arena);
        this.replies = new LinkReplies(arena, dataEndpoint, messageParam, peerViId, peer.token);
        this.inbox = new LinkInbox(this, vi, peerViId, Math.min(vi.maxTransfer(), peer.maxTransfer), replies);
        this.sendQueue = new LinkSendQueue(this, peer, data, mirror, inbox, arena, messageParam);
        this.liveness = new LinkLiveness(arena, dataEndpoint, peerViId, peer.token, "peer VI " + peerViId + " of " +
            peer.address);
    }

    UcxTransport transport()
    {
        return nic;
    }

    /** The arena of this link's native memory: its NIC's ({@link UcxTransport#arena()}). */
    Arena arena()
    {
        return arena;
    }

    ViConnection vi()
    {
        return vi;
    }

    UcpEndpoint control()
    {
        return control;
    }

    UcpEndpoint data()
    {
        return data;
    }

    /**
     * Makes this NIC's registrations visible to the peer: subscribes the peer's mirror, whose key arrived in its
     * handshake, and fills it.
     *
     * @return false if the mirror could not be written.
     */
    boolean publishTo(final Handshake peer, final MirrorPublisher publisher)
    {
        final java.nio.ByteBuffer key = java.nio.ByteBuffer.allocateDirect(peer.mirrorKey.length);
        key.put(peer.mirrorKey).flip();
        peerMirrorKey = data.unpackRemoteKey(key);
        subscriber = new MirrorPublisher.Subscriber(this, dataEndpoint, peer.mirrorAddress,
            peerMirrorKey.getNativeId(), peer.mirrorEntries);
        return publisher.subscribe(subscriber);
    }

    @Override
    public void post(final Descriptor descriptor)
    {
        lock.lock();
        try
        {
            sendQueue.post(descriptor);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Advances the send queue: completes what UCX finished, issues what waited, breaks the connection if the peer
     * said so or went away.
     *
     * @return work done.
     */
    int poll()
    {
        lock.lock();
        try
        {
            return sendQueue.poll();
        }
        finally
        {
            lock.unlock();
        }
    }

    boolean isIdle()
    {
        return sendQueue.isIdle();
    }

    @Override
    public void disconnect(final String detail)
    {
        lock.lock();
        try
        {
            sendQueue.disconnect(detail);
        }
        finally
        {
            lock.unlock();
        }
        nic.release(this);
    }

    /**
     * The peer's mirror of this NIC's table could not be written: the peer is gone.
     */
    void onMirrorLost()
    {
        inbox.failure = "the registration mirror of peer VI " + peerViId + " cannot be written";
    }

    /**
     * An endpoint of the connection failed (the peer's process died or its link went down); from a UCX callback.
     */
    void onEndpointError(final String detail)
    {
        if (null == inbox.failure)
        {
            inbox.failure = detail;
        }
    }

    /**
     * Sends the peer a heartbeat if it is time, and takes the peer for lost if its own stopped arriving
     * ({@link LinkLiveness}); from the NIC's progress thread.
     */
    void checkLiveness(final long nowNs, final long intervalNs, final long timeoutNs)
    {
        lock.lock();
        try
        {
            if (sendQueue.isBroken() || null != inbox.failure)
            {
                return;
            }
            final String lost = liveness.check(nowNs, intervalNs, timeoutNs);
            if (null != lost)
            {
                inbox.failure = lost;
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * The link is established and this NIC sends heartbeats on it: if the peer said it sends them too, the link is
     * watched from now on ({@link LinkLiveness#watchFrom(long)}).
     */
    void onEstablished(final long nowNs)
    {
        if (peerSendsHeartbeats)
        {
            liveness.watchFrom(nowNs);
        }
    }

    /**
     * A heartbeat of the peer arrived; from the UCX callback that received it.
     */
    void onHeartbeat()
    {
        liveness.onHeartbeat();
    }

    /**
     * Takes a data message of the peer; from the UCX callback that received it.
     */
    void onData(final DataHeader message, final long dataAddress, final long dataLength)
    {
        inbox.onData(message, dataAddress, dataLength);
    }

    /**
     * Releases the UCX resources of the link once it is out of use.
     */
    void close()
    {
        lock.lock();
        try
        {
            sendQueue.freeRequests();
            replies.close();
            liveness.close();
            if (null != peerMirrorKey)
            {
                peerMirrorKey.close();
                peerMirrorKey = null;
            }
            mirror.close();
        }
        finally
        {
            lock.unlock();
        }
    }
}
