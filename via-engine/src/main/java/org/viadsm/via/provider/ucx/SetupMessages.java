package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.ListenerConnectAttempt;

/**
 * The connection-setup messages of a ucx NIC in flight, and the control endpoints they leave behind. A message's
 * buffers stay alive until UCX completed it; an answer's endpoint lingers {@link #LINGER_NS} after its answer left,
 * a withdrawal's {@link #WITHDRAWAL_LINGER_NS}, then closes in a later progress, where closing is safe (not in a UCX
 * callback). A message that left is not yet taken: a forced close drops what the peer's worker has not read, since
 * the peer learns of the close apart from the message and discards the endpoint it came on. An endpoint whose peer
 * closed its end or went away closes at once.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 */
final class SetupMessages
{
    /** How long an answer's endpoint stays open after the answer left. */
    static final long LINGER_NS = 1_000_000_000L;
    /**
     * How long a withdrawal's endpoint stays open after the withdrawal left: as long as the accept it fails would
     * wait anyway, so that however long the server's worker waits to run (under load, over a second between the
     * withdrawal's leaving and its server taking it), the server's accept fails on the withdrawal, not on its own
     * timeout; it can do no more later.
     */
    static final long WITHDRAWAL_LINGER_NS = Connector.ESTABLISH_TIMEOUT_NS;
    /**
     * The most withdrawals' endpoints that linger at once; beyond them the oldest closes early (the acceptances of
     * requests this NIC never made, from a misbehaving peer, cannot hold its endpoints).
     */
    static final int MAX_LINGERING_WITHDRAWALS = UcxConnector.MAX_PENDING_REQUESTS;

    /** A setup message in flight, whose buffers UCX reads until it completes. */
    private record Sending(MemorySegment header, MemorySegment data, long request, ListenerConnectAttempt owner,
        UcpEndpoint closeAfter, UcxEndpoints.Sink sink, boolean withdrawal)
    {
    }

    private record Lingering(UcpEndpoint endpoint, long closeAtNs, UcxEndpoints.Sink sink)
    {
    }

    private final UcxTransport transport;
    private final List<Sending> sending = new ArrayList<>();
    /** Answers' endpoints, in the order they close. */
    private final ArrayDeque<Lingering> lingering = new ArrayDeque<>();
    /** Withdrawals' endpoints, in the order they close; walked by index, as the periodic check must not allocate. */
    private final List<Lingering> withdrawals = new ArrayList<>();
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
        return transmit(endpoint, message, owner, closeAfter, null, false);
    }

    /**
     * Sends a withdrawal over an endpoint of its own, which lingers {@link #WITHDRAWAL_LINGER_NS} from when it left,
     * or until its peer closes its end or goes away (as the sink tells).
     *
     * @return true if the message is still in flight or an endpoint waits to close (the sender must make progress).
     */
    boolean withdraw(final UcpEndpoint endpoint, final Handshake withdrawal, final UcxEndpoints.Sink sink)
    {
        return transmit(endpoint, withdrawal, null, endpoint, sink, true) || !closing.isEmpty();
    }

    /**
     * Answers the acceptance of a request this NIC no longer holds (its VI gave up, and the withdrawal reached the
     * server after it took the request, or never left) with a withdrawal: the accept fails now, not at its timeout.
     *
     * @return as {@link #withdraw}; false if the server cannot be reached (its accept fails at its timeout).
     */
    boolean withdrawFrom(final Handshake accept)
    {
        final UcxEndpoints.Sink sink = new UcxEndpoints.Sink();
        final UcpEndpoint endpoint;
        try
        {
            endpoint = UcxEndpoints.connect(transport, UcxAddress.parse(accept.address).socketAddress(), sink);
        }
        catch (final RuntimeException ex)
        {
            return false;
        }
        return withdraw(endpoint, Handshake.bare(Handshake.WITHDRAW, accept.peerViId, 0, accept.sequence,
            transport.nicId()), sink);
    }

    private boolean transmit(final UcpEndpoint endpoint, final Handshake message, final ListenerConnectAttempt owner,
        final UcpEndpoint closeAfter, final UcxEndpoints.Sink sink, final boolean withdrawal)
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
            sending.add(new Sending(header, data, request, owner, closeAfter, sink, withdrawal));
            return true;
        }
        if (Ucp.OK == request && null != owner)
        {
            owner.onReached();
        }
        if (null != closeAfter)
        {
            linger(closeAfter, sink, withdrawal);
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
     * Hands the lingering endpoints whose time is up, or whose peer closed its end, to the next {@link #progress()}.
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
        for (int i = withdrawals.size() - 1; i >= 0; i--)
        {
            final Lingering withdrawal = withdrawals.get(i);
            if (nowNs - withdrawal.closeAtNs() >= 0 || null != withdrawal.sink().failure())
            {
                closing.add(withdrawals.remove(i).endpoint());
                due = true;
            }
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
                    linger(message.closeAfter(), message.sink(), message.withdrawal());
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
        for (final Lingering withdrawal : withdrawals)
        {
            UcxEndpoints.close(transport, withdrawal.endpoint());
        }
        withdrawals.clear();
        for (final Sending message : sending)
        {
            Ucp.free(message.request());
        }
        sending.clear();
    }

    private void linger(final UcpEndpoint endpoint, final UcxEndpoints.Sink sink, final boolean withdrawal)
    {
        if (!withdrawal)
        {
            lingering.addLast(new Lingering(endpoint, System.nanoTime() + LINGER_NS, sink));
            return;
        }
        if (withdrawals.size() == MAX_LINGERING_WITHDRAWALS)
        {
            closing.add(withdrawals.remove(0).endpoint());
        }
        withdrawals.add(new Lingering(endpoint, System.nanoTime() + WITHDRAWAL_LINGER_NS, sink));
    }
}
