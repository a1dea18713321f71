package org.viadsm.via.provider.tcp;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.NicProvider;

/**
 * Serves {@code tcp:<host>:<port>} addresses: NICs that reach each other over TCP; port 0 picks a free port.
 */
public final class TcpNicProvider implements NicProvider
{
    /** The address scheme. */
    public static final String SCHEME = "tcp";

    /**
     * Creates the provider; found by {@link java.util.ServiceLoader}.
     */
    public TcpNicProvider()
    {
    }

    @Override
    public String scheme()
    {
        return SCHEME;
    }

    @Override
    public Nic open(final String address, final NicContext context)
    {
        return TcpTransport.open(address, context);
    }
}
