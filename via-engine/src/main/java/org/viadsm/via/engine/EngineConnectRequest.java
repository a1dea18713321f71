package org.viadsm.via.engine;

import org.viadsm.via.ConnectRequest;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;

/**
 * A client's connection request as the server's {@code connectWait} returns it: a copy of the request message,
 * answered through the client's connect word.
 */
final class EngineConnectRequest implements ConnectRequest
{
    final long nicId;
    final String address;
    final int viId;
    final int sequence;
    final long discriminator;
    final int reliability;
    final int maxTransfer;
    final int flags;
    private final ConnectionManager manager;
    private boolean answered;

    EngineConnectRequest(final ConnectionManager manager, final ConnectMessageFlyweight message)
    {
        this.manager = manager;
        this.nicId = message.nicId();
        this.address = message.address();
        this.viId = message.viId();
        this.sequence = message.sequence();
        this.discriminator = message.discriminator();
        this.reliability = message.reliability();
        this.maxTransfer = message.maxTransfer();
        this.flags = message.flags();
    }

    @Override
    public String remoteAddress()
    {
        return address;
    }

    @Override
    public long discriminator()
    {
        return discriminator;
    }

    @Override
    public ViAttributes remoteAttributes()
    {
        return ProviderSupport.viAttributes(reliability, maxTransfer, flags);
    }

    @Override
    public void accept(final Vi vi)
    {
        manager.accept(this, vi);
    }

    @Override
    public void reject()
    {
        manager.reject(this);
    }

    synchronized void markAnswered()
    {
        if (answered)
        {
            throw new IllegalStateException("connection request from " + address + " was already answered");
        }
        answered = true;
    }

    synchronized void checkNotAnswered()
    {
        if (answered)
        {
            throw new IllegalStateException("connection request from " + address + " was already answered");
        }
    }

    @Override
    public String toString()
    {
        return "ConnectRequest{from=" + address + ", vi=" + viId + ", discriminator=" + discriminator + '}';
    }
}
