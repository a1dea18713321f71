package org.viadsm.via.provider.ucx;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.Connector;
import org.viadsm.via.engine.Idler;
import org.viadsm.via.engine.ViConnection;

/**
 * A client's request as {@code connectWait} returns it: accepting waits until the client confirmed; a refusal
 * (reject, or a reliability level that does not match) makes progress until the answer left
 * ({@link UcxConnector#flush}).
 */
final class UcxConnectRequest implements ConnectRequest
{
    private final UcxConnector connector;
    private final IncomingRequest request;
    private final UcxTransport nic;

    UcxConnectRequest(final UcxConnector connector, final IncomingRequest request, final UcxTransport nic)
    {
        this.connector = connector;
        this.request = request;
        this.nic = nic;
    }

    @Override
    public String remoteAddress()
    {
        return request.request.address;
    }

    @Override
    public long discriminator()
    {
        return request.request.discriminator;
    }

    @Override
    public ViAttributes remoteAttributes()
    {
        return request.request.attributes();
    }

    @Override
    public void accept(final Vi vi)
    {
        final ViConnection server = nic.nic().connectionOf(vi);
        final int sequence = server.beginConnect();
        final boolean refused;
        synchronized (connector)
        {
            if (request.withdrawn)
            {
                server.backToIdle();
                throw clientGone();
            }
            if (IncomingRequest.TAKEN != request.state)
            {
                server.backToIdle();
                throw new IllegalStateException("the connection request was already answered");
            }
            refused = !connector.answers().accept(request, server, sequence);
        }
        if (refused)
        {
            server.backToIdle();
            if (null != request.failure)
            {
                throw new ViaException(ViaError.NOT_REACHABLE, "VI " + server.id() + " cannot connect to the client " +
                    "at " + request.request.address + ": " + request.failure);
            }
            if (IncomingRequest.FAILED == request.state)
            {
                throw clientGone();
            }
            connector.flush(request.endpoint);
            throw new ViaException(ViaError.NO_MATCH, "VI " + server.id() + " is " + server.reliability() +
                ", the request from " + request.request.address + " is " +
                request.request.attributes().reliabilityLevel());
        }
        final Idler idler = new Idler(nic.nic());
        idler.start(Connector.ESTABLISH_TIMEOUT_NS);
        while (server.isConnectPending())
        {
            nic.progress(false);
            final boolean failed;
            synchronized (connector)
            {
                failed = IncomingRequest.FAILED == request.state;
            }
            if (failed || !idler.idle())
            {
                idler.finish();
                synchronized (connector)
                {
                    connector.answers().drop(request);
                }
                server.backToIdle();
                throw clientGone();
            }
        }
        idler.finish();
    }

    @Override
    public void reject()
    {
        synchronized (connector)
        {
            if (IncomingRequest.TAKEN != request.state)
            {
                throw new IllegalStateException("the connection request was already answered");
            }
            connector.answers().answer(request, Handshake.REJECT, 0);
        }
        connector.flush(request.endpoint);
    }

    /**
     * The client withdrew the request, or its endpoint failed (named as UCX said), or it never confirmed.
     *
     * @return the exception to throw, with {@link ViaError#NOT_REACHABLE}.
     */
    private ViaException clientGone()
    {
        final String failure = null == request.sink ? null : request.sink.failure();
        return new ViaException(ViaError.NOT_REACHABLE, "the client at " + request.request.address +
            (null != failure ? " went away: " + failure : " gave up"));
    }
}
