package org.viadsm.via.provider.tcp;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.ConnectAttempt;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViConnection;

/**
 * Connection management of a tcp NIC, mapped onto TCP connects and a handshake on the connection that becomes the
 * VI's: the requester connects and sends its request (a description of its VI); the answering NIC accepts with a
 * description of its own VI, or rejects; the requester settles its connect word and confirms, and both VIs are
 * connected. A connection to a NIC that does not listen yet is retried until the request's timeout, since the
 * nodes of a cluster start at different moments: only then does the request fail, with
 * {@link ViaError#NOT_REACHABLE}.
 * <p>
 * Peer to peer, both sides send a request and the NIC with the smaller id matches: it keeps the requests of larger
 * NICs until one of its VIs makes the matching request (same discriminator, naming the requester's address), and
 * answers them; a larger NIC answers a smaller one's request with a deferral, and its VI waits for the smaller one
 * to answer its own. On one NIC the VI with the smaller id matches.
 * <p>
 * This class and its requests ({@link PendingRequest}) are the application's side (the {@code Connector} calls,
 * which wait on the VI's connect word); the steps driven by frames are {@link ConnectionSetup}'s and the state is
 * the {@link RequestTable}'s.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class TcpConnector extends Connector
{
    private final TcpEngine engine;
    private final RequestTable table;
    private final ConnectionSetup setup;

    TcpConnector(final EngineNic nic, final TcpEngine engine, final RequestTable table, final ConnectionSetup setup)
    {
        super(nic);
        this.engine = engine;
        this.table = table;
        this.setup = setup;
    }

    /**
     * {@inheritDoc}
     * <p>
     * A refused connection is retried every {@link org.viadsm.via.TcpSettings#connectRetryNs()} until the
     * timeout; the request then fails with {@link ViaError#NOT_REACHABLE} if no connection succeeded and one was
     * refused, else with {@link ViaError#TIMEOUT} (also when its connection was not up yet, on a busy machine).
     */
    @Override
    protected ConnectAttempt newAttempt(
        final ViConnection vi, final String address, final long discriminator, final boolean peer,
        final long timeoutNs)
    {
        return new PendingRequest(this, nic, vi, address, TcpAddress.peer(address), discriminator, peer, timeoutNs);
    }

    @Override
    protected ConnectRequest takeClientRequest(final long discriminator)
    {
        final IncomingRequest request = table.takeClientRequest(discriminator);
        return null == request ? null : new TcpConnectRequest(this, request);
    }

    @Override
    protected ConnectAttempt peerAttempt(final ViConnection vi)
    {
        final PendingRequest request = table.request(vi.id());
        return null == request || !request.isPeer() ? null : request;
    }

    @Override
    protected void poll()
    {
        setup.matcher().matchAll(null);
    }

    @Override
    public int abandon(final ViConnection vi)
    {
        final PendingRequest request = table.request(vi.id());
        final int state = vi.abandonConnect();
        if (null != request)
        {
            table.forget(request);
        }
        return state;
    }

    /**
     * Sends a request: registers it, then connects, unless (peer to peer) a request the peer sent already matches.
     */
    void send(final PendingRequest request)
    {
        table.register(request);
        if (!request.isPeer() || !setup.matcher().matchAll(request))
        {
            engine.connect(request);
        }
    }

    void forget(final PendingRequest request)
    {
        table.forget(request);
    }

    EngineNic nic()
    {
        return nic;
    }

    void accept(final TcpConnectRequest answer, final Vi vi)
    {
        final IncomingRequest request = answer.request;
        table.checkNotAnswered(request);
        final ViConnection server = nic.connectionOf(vi);
        server.beginConnect();
        try
        {
            table.markAnswered(request);
            if (request.requester.reliability != server.reliability().vipValue())
            {
                setup.answerBare(request, FrameLayout.TYPE_NO_MATCH, server.id());
                throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                    ", the request from " + request.requester.address + " is " +
                    request.requester.attributes().reliabilityLevel());
            }
            if (!setup.sendAccept(request, server))
            {
                throw clientGone(request);
            }
            final Idler idler = new Idler(nic);
            idler.start(ESTABLISH_TIMEOUT_NS);
            while (IncomingRequest.ACCEPTING == request.state && idler.idle())
            {
                Thread.onSpinWait();
            }
            idler.finish();
            if (IncomingRequest.ESTABLISHED != request.state && !setup.abandonAccept(request))
            {
                throw clientGone(request);
            }
        }
        catch (final RuntimeException ex)
        {
            server.backToIdle();
            throw ex;
        }
    }

    void reject(final TcpConnectRequest answer)
    {
        table.markAnswered(answer.request);
        setup.answerBare(answer.request, FrameLayout.TYPE_REJECT, 0);
    }

    private static ViaException clientGone(final IncomingRequest request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.requester.address + " gave up");
    }
}
