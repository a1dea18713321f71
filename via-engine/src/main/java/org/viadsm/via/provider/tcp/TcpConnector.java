package org.viadsm.via.provider.tcp;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.EngineVi;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViRecord;
import org.viadsm.via.engine.ViRecordLayout;

import static org.viadsm.via.engine.ViRecordLayout.RESULT_ABANDONED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_ACCEPTED;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_NO_MATCH;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.RESULT_REJECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECTED;
import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

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
 * This class is the application's side (the {@code Connector} calls, which wait on the VI's connect word); the
 * steps driven by frames are {@link ConnectionSetup}'s and the state is the {@link RequestTable}'s.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class TcpConnector implements Connector
{
    private final EngineNic nic;
    private final TcpEngine engine;
    private final RequestTable table;
    private final ConnectionSetup setup;

    TcpConnector(final EngineNic nic, final TcpEngine engine, final RequestTable table, final ConnectionSetup setup)
    {
        this.nic = nic;
        this.engine = engine;
        this.table = table;
        this.setup = setup;
    }

    @Override
    public ConnectRequest connectWait(final long discriminator, final long timeoutNs)
    {
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        do
        {
            final IncomingRequest request = table.takeClientRequest(discriminator);
            if (null != request)
            {
                idler.finish();
                return new TcpConnectRequest(this, request);
            }
        }
        while (idler.idle(null));
        checkNicOpen();
        throw new ViaException(ViaError.TIMEOUT, "no connection request with discriminator " + discriminator +
            " reached " + nic.address() + " within " + timeoutNs + " ns");
    }

    /**
     * {@inheritDoc}
     * <p>
     * A refused connection is retried every {@link org.viadsm.via.NicContext#tcpConnectRetryNs()} until the
     * timeout; the request then fails with {@link ViaError#NOT_REACHABLE} if no connection succeeded, else with
     * {@link ViaError#TIMEOUT}.
     */
    @Override
    public void connectRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final PendingRequest request = begin(vi, address, discriminator, timeoutNs, false);
        final Idler idler = new Idler(nic);
        idler.start(timeoutNs);
        engine.connect(request);
        final ViRecord record = vi.record();
        long word;
        while (RESULT_PENDING == ViRecordLayout.connectResult(word = record.connectWord()))
        {
            if (request.wentAway)
            {
                giveUp(request, ViaError.NOT_REACHABLE, address + " closed the connection without answering the " +
                    "request of VI " + vi.id());
            }
            else if (!idler.idle(null))
            {
                checkNicOpen();
                giveUp(request, unanswered(request), request.reached ?
                    address + " did not answer the connection request of VI " + vi.id() :
                    "no NIC listens at " + address + ": connections were refused for " + timeoutNs + " ns");
            }
        }
        idler.finish();
        final int result = ViRecordLayout.connectResult(word);
        if (RESULT_ACCEPTED == result)
        {
            awaitEstablished(request);
            table.forget(request);
            return;
        }
        record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
        table.forget(request);
        switch (result)
        {
            case RESULT_REJECTED:
                throw new ViaException(ViaError.REJECT, address + " rejected the connection request of VI " +
                    vi.id() + " with discriminator " + discriminator);
            case RESULT_NO_MATCH:
                throw new ViaException(ViaError.NO_MATCH, address + " cannot connect VI " + vi.id() +
                    ": reliability levels differ");
            default:
                throw new ViaException(ViaError.NOT_REACHABLE, "connection request of VI " + vi.id() +
                    " was abandoned (the VI disconnected)");
        }
    }

    void accept(final TcpConnectRequest answer, final Vi vi)
    {
        final IncomingRequest request = answer.request;
        table.checkNotAnswered(request);
        final EngineVi server = nic.ownVi(vi);
        final ViRecord record = server.record();
        if (!record.beginConnect(server.nextConnectSequence()))
        {
            throw new IllegalStateException("VI " + server.id() + " is not idle: " +
                ViRecordLayout.viState(record.state()));
        }
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
            while (IncomingRequest.ACCEPTING == request.state && idler.idle(null))
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
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            throw ex;
        }
    }

    void reject(final TcpConnectRequest answer)
    {
        table.markAnswered(answer.request);
        setup.answerBare(answer.request, FrameLayout.TYPE_REJECT, 0);
    }

    @Override
    public void connectPeerRequest(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs)
    {
        final PendingRequest request = begin(vi, address, discriminator, timeoutNs, true);
        if (!setup.matcher().matchAll(request))
        {
            engine.connect(request);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * The request fails with {@link ViaError#NOT_REACHABLE} only once its timeout ran out without any connection
     * to the peer's NIC succeeding; refused connections are retried meanwhile.
     */
    @Override
    public boolean connectPeerDone(final EngineVi vi)
    {
        final PendingRequest request = table.request(vi.id());
        if (null == request || !request.peer)
        {
            throw new IllegalStateException("VI " + vi.id() + " has no peer connection request");
        }
        if (request.completed)
        {
            return true;
        }
        setup.matcher().matchAll(null);
        final ViRecord record = vi.record();
        final long word = record.connectWord();
        switch (ViRecordLayout.connectResult(word))
        {
            case RESULT_PENDING:
                if (request.isPastDeadline(System.nanoTime()))
                {
                    giveUp(request, unanswered(request), request.reached ?
                        "no peer matched the request of VI " + vi.id() + " to " + request.address +
                        " with discriminator " + request.discriminator :
                        "no NIC listened at " + request.address + " before the request of VI " + vi.id() +
                        " timed out");
                }
                return false;
            case RESULT_ACCEPTED:
                final int state = record.state();
                if (STATE_CONNECTED == state || STATE_ERROR == state)
                {
                    request.completed = true;
                    return true;
                }
                if (STATE_CONNECT_PENDING == state)
                {
                    return false;
                }
                table.forget(request);
                throw new ViaException(ViaError.NOT_REACHABLE, "the peer at " + request.address +
                    " could not complete the connection of VI " + vi.id());
            case RESULT_NO_MATCH:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                table.forget(request);
                throw new ViaException(ViaError.NO_MATCH, "the peer at " + request.address + " has another " +
                    "reliability level than VI " + vi.id() + " (" + vi.reliability() + ")");
            default:
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                table.forget(request);
                throw new ViaException(ViaError.NOT_REACHABLE, "peer connection request of VI " + vi.id() +
                    " was abandoned");
        }
    }

    @Override
    public int abandon(final EngineVi vi)
    {
        final PendingRequest request = table.request(vi.id());
        final int state = vi.abandonConnect();
        if (null != request)
        {
            table.forget(request);
        }
        return state;
    }

    private PendingRequest begin(
        final EngineVi vi, final String address, final long discriminator, final long timeoutNs, final boolean peer)
    {
        final TcpAddress target = TcpAddress.peer(address);
        final int sequence = vi.nextConnectSequence();
        if (!vi.record().beginConnect(sequence))
        {
            throw new IllegalStateException("VI " + vi.id() + " is not idle: " +
                ViRecordLayout.viState(vi.record().state()));
        }
        final PendingRequest request =
            new PendingRequest(vi, sequence, peer, address, target, discriminator, timeoutNs);
        table.register(request);
        return request;
    }

    /**
     * Settles the request as abandoned, makes the VI idle and throws; if an answer won the race, returns and lets
     * the caller read it.
     */
    private void giveUp(final PendingRequest request, final ViaError error, final String message)
    {
        final ViRecord record = request.vi.record();
        if (record.settle(request.sequence, 0, RESULT_ABANDONED))
        {
            record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
            table.forget(request);
            throw new ViaException(error, message);
        }
    }

    private void awaitEstablished(final PendingRequest request)
    {
        final ViRecord record = request.vi.record();
        final Idler idler = new Idler(nic);
        idler.start(ESTABLISH_TIMEOUT_NS);
        while (STATE_CONNECT_PENDING == record.state())
        {
            if (!idler.idle(null))
            {
                record.compareAndSetState(STATE_CONNECT_PENDING, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, request.address + " accepted but the connection of " +
                    "VI " + request.vi.id() + " did not complete");
            }
        }
        idler.finish();
    }

    private static ViaError unanswered(final PendingRequest request)
    {
        return request.reached ? ViaError.TIMEOUT : ViaError.NOT_REACHABLE;
    }

    private static ViaException clientGone(final IncomingRequest request)
    {
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.requester.address + " gave up");
    }

    private void checkNicOpen()
    {
        if (nic.isClosed())
        {
            throw new IllegalStateException("NIC " + nic.address() + " is closed");
        }
    }
}
