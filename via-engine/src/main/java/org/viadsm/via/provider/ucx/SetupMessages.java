package org.viadsm.via.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.engine.Connector;

/**
 * The connection-setup messages of a ucx NIC in flight, and the control endpoints they leave behind. A message's
 * buffers stay alive until UCX completed it. The endpoint of an answer (a refusal, a deferral, a full listener's
 * turning away) or of a withdrawal lingers after its message left until its peer closes its end, which the peer
 * does once it took the message (UCX names the endpoint to its handler), or goes away, or for at most
 * {@link #LINGER_NS}; then it closes in a later progress, where closing is safe (not in a UCX callback). A message
 * that left is not yet taken: a forced close drops what the peer's worker has not read, since the peer learns of the
 * close apart from the message and discards the endpoint it came on; under load the peer's worker may run seconds
 * after the message left.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 */
final class SetupMessages
{
    /**
     * How long an answer's or a withdrawal's endpoint stays open after its message left, at most, if its peer
     * neither closes its end nor goes away: as long as an accept waits for its requester
     * ({@link Connector#ESTABLISH_TIMEOUT_NS}). A live peer closes its end as it takes the message, however late its
     * worker runs; one that took none for so long is stuck or misbehaving.
     */
    static final long LINGER_NS = Connector.ESTABLISH_TIMEOUT_NS;
    /**
     * The most answers' endpoints, and apart from them the most withdrawals' endpoints, that linger at once; beyond
     * them the oldest of its kind closes early, so that a misbehaving peer's requests (each answered over an
     * endpoint of its own) or forged acceptances cannot hold the NIC's endpoints, nor answers crowd out withdrawals.
     */
    static final int MAX_LINGERING = UcxConnector.MAX_PENDING_REQUESTS;

    /** Who learns whether a setup message left (a request's requester, an acceptance's acceptor). */
    interface Sender
    {
        /**
         * The message is done with.
         *
         * @param left true if it left, false if UCX failed it.
         */
        void onSent(boolean left);
    }

    /** A setup message in flight, whose buffers UCX reads until it completes. */
    private record Sending(MemorySegment header, MemorySegment data, long request, Sender owner,
        UcpEndpoint closeAfter, UcxEndpoints.Sink sink, LingeringEndpoints<UcpEndpoint> lingering)
    {
    }

    private final UcxTransport transport;
    private final List<Sending> sending = new ArrayList<>();
    /**
     * The messages still in flight when the NIC closed: UCX may read their buffers until it has finished the forced
     * closes of their endpoints, which the NIC's close waits for ({@link WorkerRelease}), so they stay reachable.
     */
    private final List<Sending> abandoned = new ArrayList<>();
    private final LingeringEndpoints<UcpEndpoint> answers = new LingeringEndpoints<>(MAX_LINGERING, LINGER_NS);
    private final LingeringEndpoints<UcpEndpoint> withdrawals =
        new LingeringEndpoints<>(MAX_LINGERING, LINGER_NS);
    private final List<UcpEndpoint> closing = new ArrayList<>();
    private final MemorySegment sendParam = SendSlots.messageParam(Arena.global());
    /** Answers and withdrawals name their endpoint to the receiver's handler, which closes it once it took them. */
    private final MemorySegment lingeringParam = SendSlots.messageParam(Arena.global());

    SetupMessages(final UcxTransport transport)
    {
        this.transport = transport;
        lingeringParam.set(ValueLayout.JAVA_INT, Ucp.PARAM_FLAGS_OFFSET,
            Ucp.AM_SEND_FLAG_EAGER | Ucp.AM_SEND_FLAG_REPLY);
    }

    /**
     * Sends a setup message over an endpoint that stays open (a request's, an accepted connection's); its owner, if
     * any, learns whether it left.
     *
     * @return true if the message is still in flight (its sender must keep making progress).
     */
    boolean transmit(final UcpEndpoint endpoint, final Handshake message, final Sender owner)
    {
        return transmit(endpoint, message, owner, null, null, null);
    }

    /**
     * Sends an answer over an endpoint of its own, which lingers from when it left until its peer closes its end
     * (as it takes the answer) or goes away, as the sink tells, for at most {@link #LINGER_NS}.
     *
     * @return true if the message is still in flight or an endpoint waits to close (the sender must make progress).
     */
    boolean answer(final UcpEndpoint endpoint, final Handshake answer, final UcxEndpoints.Sink sink)
    {
        return transmit(endpoint, answer, null, endpoint, sink, answers) || !closing.isEmpty();
    }

    /**
     * Sends a withdrawal over an endpoint of its own, which lingers as an answer's does.
     *
     * @return as {@link #answer}.
     */
    boolean withdraw(final UcpEndpoint endpoint, final Handshake withdrawal, final UcxEndpoints.Sink sink)
    {
        if (null != sink.failure())
        {
            // nothing reaches the server over a failed endpoint, and UCX may report the failure again from inside
            // the send, through jucx's handler, in a thread that is in a downcall: close it without sending
            closing.add(endpoint);
            return true;
        }
        return transmit(endpoint, withdrawal, null, endpoint, sink, withdrawals) || !closing.isEmpty();
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

    private boolean transmit(final UcpEndpoint endpoint, final Handshake message, final Sender owner,
        final UcpEndpoint closeAfter, final UcxEndpoints.Sink sink, final LingeringEndpoints<UcpEndpoint> lingering)
    {
        final Arena arena = Arena.ofAuto();
        final MemorySegment header = arena.allocate(Handshake.HEADER_LENGTH, 8);
        final MemorySegment data = arena.allocate(Math.max(1, message.dataLength()), 8);
        message.encodeHeader(new UnsafeBuffer(header.address(), Handshake.HEADER_LENGTH));
        message.encodeData(new UnsafeBuffer(data.address(), (int)data.byteSize()));
        final long request = Ucp.amSend(endpoint.getNativeId(), Handshake.AM_ID, header.address(),
            Handshake.HEADER_LENGTH, data.address(), message.dataLength(),
            null == lingering ? sendParam.address() : lingeringParam.address());
        if (Ucp.isRequest(request))
        {
            sending.add(new Sending(header, data, request, owner, closeAfter, sink, lingering));
            return true;
        }
        if (null != owner)
        {
            owner.onSent(Ucp.OK == request);
        }
        if (null != closeAfter)
        {
            lingering.add(closeAfter, sink, System.nanoTime(), closing);
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
        final boolean answersDue = answers.closeDue(nowNs, closing);
        return withdrawals.closeDue(nowNs, closing) || answersDue;
    }

    /**
     * How many answers' and withdrawals' endpoints linger.
     *
     * @return the count, at most twice {@link #MAX_LINGERING}.
     */
    int lingering()
    {
        return answers.size() + withdrawals.size();
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
                if (null != message.owner())
                {
                    message.owner().onSent(Ucp.OK == status);
                }
                Ucp.free(message.request());
                it.remove();
                if (null != message.closeAfter())
                {
                    message.lingering().add(message.closeAfter(), message.sink(), System.nanoTime(), closing);
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
        answers.drainTo(closing);
        withdrawals.drainTo(closing);
        for (final UcpEndpoint endpoint : closing)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        closing.clear();
        for (final Sending message : sending)
        {
            Ucp.free(message.request());
        }
        abandoned.addAll(sending);
        sending.clear();
    }
}
