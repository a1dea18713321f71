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
        connector.transmit(request.endpoint, LinkSetup.describe(transport, Handshake.ACCEPT, vi, peer.viId,
            peer.sequence, peer.discriminator, token, mirror, peer.address), null);
        return true;
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
        vi.settle(request.sequence, peer.viId, ViConnection.CONNECT_ACCEPTED);
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
