package org.viadsm.via.provider.tcp;

import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.internal.HostPortAddress;

/**
 * Parses {@code tcp:<host>:<port>} addresses: a NIC's own (port 0 for a free port) and a peer's, which must name a
 * port to reach.
 */
final class TcpAddress
{
    private TcpAddress()
    {
    }

    /**
     * Parses the address of a NIC to open.
     *
     * @param address {@code tcp:<host>:<port>}.
     * @return the address, its host resolved.
     * @throws IllegalArgumentException if it is malformed or the host unknown.
     */
    static HostPortAddress parse(final String address)
    {
        return HostPortAddress.parse(TcpNicProvider.SCHEME, address);
    }

    /**
     * Parses a peer's address.
     *
     * @param address the address.
     * @return the address.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if it is malformed, names an unknown host or port 0.
     */
    static HostPortAddress peer(final String address)
    {
        final HostPortAddress parsed;
        try
        {
            parsed = parse(address);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC cannot reach " + address, ex);
        }
        if (0 == parsed.port())
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC cannot reach port 0: " + address);
        }
        return parsed;
    }
}
