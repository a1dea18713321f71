package org.viadsm.via.provider.ucx;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;

/**
 * A client's request as {@code connectWait} returns it.
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
        connector.accept(request, nic.nic().connectionOf(vi));
    }

    @Override
    public void reject()
    {
        connector.reject(request);
    }
}
