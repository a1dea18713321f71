package org.viadsm.via.provider.tcp;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;

/**
 * A client's connection request as {@code connectWait} returns it; answered over the request's own connection,
 * which becomes the accepting VI's.
 */
final class TcpConnectRequest implements ConnectRequest
{
    private final TcpConnector connector;
    final IncomingRequest request;

    TcpConnectRequest(final TcpConnector connector, final IncomingRequest request)
    {
        this.connector = connector;
        this.request = request;
    }

    @Override
    public String remoteAddress()
    {
        return request.requester.address;
    }

    @Override
    public long discriminator()
    {
        return request.requester.discriminator;
    }

    @Override
    public ViAttributes remoteAttributes()
    {
        return request.requester.attributes();
    }

    @Override
    public void accept(final Vi vi)
    {
        connector.accept(this, vi);
    }

    @Override
    public void reject()
    {
        connector.reject(this);
    }

    @Override
    public String toString()
    {
        return "ConnectRequest{from=" + request.requester.address + ", vi=" + request.requester.viId +
            ", discriminator=" + request.requester.discriminator + '}';
    }
}
