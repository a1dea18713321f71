package org.viadsm.via.provider.ucx;

import java.util.concurrent.ThreadLocalRandom;

import org.viadsm.via.engine.ViConnection;

/**
 * The answering side of a ucx NIC's connection setup, for requests that reached its listener: accepting one on a
 * VI (the link made, the requester's mirror filled, the answer sent; the VI connects on the requester's
 * confirmation), refusing or deferring one, and dropping one whose requester gave up or went away.
 * <p>
 * <b>Note:</b> guarded by the lock of its {@link UcxConnector}, as the requests are.
 */
final class RequestAnswers
{
    private final UcxConnector connector;
    private final UcxTransport transport;
    private final IncomingRequests incoming;

    RequestAnswers(final UcxConnector connector, final UcxTransport transport, final IncomingRequests incoming)
    {
        this.connector = connector;
        this.transport = transport;
        this.incoming = incoming;
    }

    /**
     * Accepts a request on an incoming control endpoint with a VI whose connection began: makes the link, fills
     * the requester's mirror, answers, and waits for the confirmation in {@link UcxConnector#progress}.
     *
     * @return false if the reliability levels differ (answered) or the requester is gone (state failed).
     */
    boolean accept(final IncomingRequest request, final ViConnection vi, final int sequence)
    {
        final Handshake peer = request.request;
        if (peer.reliability != vi.reliability().vipValue())
        {
            answer(request, Handshake.NO_MATCH, vi.id());
            return false;
        }
        final long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        RegistrationMirror mirror = null;
        try
        {
            request.openAnswerEndpoint(transport);
            mirror = new RegistrationMirror(transport, transport.area().table().capacity());
            final UcxLink link = LinkSetup.open(transport, vi, token, peer, request.endpoint, request.sink, mirror);
            request.link = link;
            if (!link.publishTo(peer, transport.publisher()))
            {
                throw new IllegalStateException("cannot fill the registration mirror of " + peer.address);
            }
        }
        catch (final RuntimeException ex)
        {
            request.failure = ex.getMessage();
            if (null != request.link)
            {
                // the link took the request's endpoint as its control endpoint and closed it: drop must not close it
                // again (UCX may have given its memory to another endpoint already)
                transport.release(request.link);
                request.link = null;
                request.endpoint = null;
            }
            else if (null != mirror)
            {
                mirror.close();
            }
            drop(request);
            return false;
        }
        request.acceptor = vi;
        request.sequence = sequence;
        request.state = IncomingRequest.ACCEPTING;
        request.acceptSent = 0;
        connector.transmit(request.endpoint, LinkSetup.describe(transport, Handshake.ACCEPT, vi, peer.viId,
            peer.sequence, peer.discriminator, token, mirror, peer.address), request);
        return true;
    }

    /**
     * Accepts a peer's request again whose acceptance never left: the endpoint to the requester's listener failed
     * first (UCX fails the new connections of a process starved of CPU: reset, unreachable, timed out), and the
     * requester, whose request this side took, waits for an acceptance and would never send its request again. What
     * the failed acceptance made goes first; the requester never saw its mirror's key.
     *
     * @return as {@link #accept}.
     */
    boolean acceptAgain(final IncomingRequest request, final ViConnection vi, final int sequence)
    {
        if (null != request.link)
        {
            transport.release(request.link);
            request.link = null;
        }
        else
        {
            UcxEndpoints.close(transport, request.endpoint);
        }
        request.endpoint = null;
        request.sink = null;
        request.state = IncomingRequest.TAKEN;
        incoming.restore(request);
        return accept(request, vi, sequence);
    }

    /**
     * The requester confirmed an accepted request: the accepting VI is connected.
     */
    void onConfirmed(final IncomingRequest request)
    {
        final Handshake peer = request.request;
        final ViConnection vi = request.acceptor;
        request.state = IncomingRequest.DONE;
        incoming.remove(request);
        if (!vi.settle(request.sequence, peer.viId, ViConnection.CONNECT_ACCEPTED))
        {
            // the VI gave up (its wait ended, it disconnected) between settling its request and forgetting it: it
            // must not become connected after its caller was told it failed
            transport.release(request.link);
            return;
        }
        LinkSetup.establish(transport, vi, request.link, peer);
    }

    /**
     * Refuses or defers a request over an endpoint of its own, which stays open until the requester closes its end
     * or goes away, within a bound ({@link SetupMessages#LINGER_NS}).
     */
    void answer(final IncomingRequest request, final int type, final int viId)
    {
        request.state = IncomingRequest.DONE;
        incoming.remove(request);
        try
        {
            request.openAnswerEndpoint(transport);
        }
        catch (final RuntimeException ex)
        {
            return;
        }
        connector.answer(request.endpoint, Handshake.bare(type, viId, request.request.viId, request.request.sequence,
            transport.nicId()), request.sink);
    }

    /**
     * The VI that accepted a peer's request gives its own request up: an acceptance that failed, or that still waits
     * for the confirmation, is dropped with its link, so that a late confirmation cannot connect an idle VI.
     *
     * @param request the request the VI accepted, or null if it accepted none.
     */
    void dropGivenUp(final IncomingRequest request)
    {
        if (null != request && (IncomingRequest.FAILED == request.state || IncomingRequest.ACCEPTING == request.state))
        {
            drop(request);
        }
    }

    /**
     * Forgets a request whose requester gave up or went away, releasing what was made for it.
     */
    void drop(final IncomingRequest request)
    {
        request.state = IncomingRequest.FAILED;
        if (incoming.remove(request))
        {
            if (null != request.link)
            {
                transport.release(request.link);
            }
            else
            {
                UcxEndpoints.close(transport, request.endpoint);
            }
        }
    }
}
