package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.engine.ListenerConnectAttempt;

/**
 * The connection-setup messages of a ucx NIC in flight, and the control endpoints they leave behind. A message's
 * buffers stay alive until UCX completed it; an answer's endpoint lingers {@link #LINGER_NS} after its answer left
 * (a forced close right away may drop the answer before the requester took it), then closes in a later progress,
 * where closing is safe (not in a UCX callback).
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 */
final class SetupMessages
{
    /** How long an answer's endpoint stays open after the answer left. */
    static final long LINGER_NS = 1_000_000_000L;

    /** A setup message in flight, whose buffers UCX reads until it completes. */
    private record Sending(MemorySegment header, MemorySegment data, long request, ListenerConnectAttempt owner,
        UcpEndpoint closeAfter)
    {
    }

    private record Lingering(UcpEndpoint endpoint, long closeAtNs)
    {
    }

    private final UcxTransport transport;
    private final List<Sending> sending = new ArrayList<>();
    private final ArrayDeque<Lingering> lingering = new ArrayDeque<>();
    private final List<UcpEndpoint> closing = new ArrayList<>();
    private final MemorySegment sendParam = SendSlots.messageParam(Arena.global());

    SetupMessages(final UcxTransport transport)
    {
        this.transport = transport;
    }

    /**
     * Sends a setup message; a request's owner counts as having reached its peer once the message left, and an
     * answer's endpoint ({@code closeAfter}) lingers from then on.
     *
     * @return true if the message is still in flight (its sender must keep making progress).
     */
    boolean transmit(final UcpEndpoint endpoint, final Handshake message, final ListenerConnectAttempt owner,
        final UcpEndpoint closeAfter)
    {
        final Arena arena = Arena.ofAuto();
        final MemorySegment header = arena.allocate(Handshake.HEADER_LENGTH, 8);
        final MemorySegment data = arena.allocate(Math.max(1, message.dataLength()), 8);
        message.encodeHeader(new UnsafeBuffer(header.address(), Handshake.HEADER_LENGTH));
        message.encodeData(new UnsafeBuffer(data.address(), (int)data.byteSize()));
        final long request = Ucp.amSend(endpoint.getNativeId(), Handshake.AM_ID, header.address(),
            Handshake.HEADER_LENGTH, data.address(), message.dataLength(), sendParam.address());
        if (Ucp.isRequest(request))
        {
            sending.add(new Sending(header, data, request, owner, closeAfter));
            return true;
        }
        if (Ucp.OK == request && null != owner)
        {
            owner.onReached();
        }
        if (null != closeAfter)
        {
            linger(closeAfter);
        }
        return false;
    }

    /**
     * Whether an answer over this endpoint is still in flight.
     */
    boolean isSending(final UcpEndpoint endpoint)
    {
        for (final Sending message : sending)
        {
            if (message.closeAfter() == endpoint)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Closes an endpoint at the next {@link #progress()}.
     */
    void closeLater(final UcpEndpoint endpoint)
    {
        closing.add(endpoint);
    }

    /**
     * Hands the answers' endpoints whose time is up to the next {@link #progress()}.
     *
     * @return true if any is.
     */
    boolean closeLingering(final long nowNs)
    {
        boolean due = false;
        while (!lingering.isEmpty() && nowNs - lingering.peekFirst().closeAtNs() >= 0)
        {
            closing.add(lingering.pollFirst().endpoint());
            due = true;
        }
        return due;
    }

    /**
     * Frees the messages UCX completed and closes the endpoints due.
     *
     * @return work done.
     */
    int progress()
    {
        int work = 0;
        for (final Iterator<Sending> it = sending.iterator(); it.hasNext(); )
        {
            final Sending message = it.next();
            final int status = Ucp.checkStatus(message.request());
            if (Ucp.IN_PROGRESS != status)
            {
                if (Ucp.OK == status && null != message.owner())
                {
                    message.owner().onReached();
                }
                Ucp.free(message.request());
                it.remove();
                if (null != message.closeAfter())
                {
                    linger(message.closeAfter());
                }
                work++;
            }
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        work += closing.size();
        closing.clear();
        return work;
    }

    /**
     * Whether messages are in flight or endpoints wait to close.
     */
    boolean isBusy()
    {
        return !sending.isEmpty() || !closing.isEmpty();
    }

    /**
     * Closes every endpoint and frees every message; the NIC is closing.
     */
    void close()
    {
        // endpoints first, forced: UCX completes what is pending on them, which it refuses to drop at worker close
        for (final Sending message : sending)
        {
            UcxEndpoints.close(transport, message.closeAfter());
        }
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        closing.clear();
        for (final Lingering answer : lingering)
        {
            UcxEndpoints.close(transport, answer.endpoint());
        }
        lingering.clear();
        for (final Sending message : sending)
        {
            Ucp.free(message.request());
        }
        sending.clear();
    }

    private void linger(final UcpEndpoint endpoint)
    {
        lingering.addLast(new Lingering(endpoint, System.nanoTime() + LINGER_NS));
    }
}
