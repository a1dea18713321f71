package org.viadsm.via.provider.tcp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * A {@code tcp:<host>:<port>} address, parsed: an IPv6 host is written in brackets ({@code tcp:[::1]:7000}).
 * Two addresses are equal when they name the same IP address and port, however the host was spelled.
 */
final class TcpAddress
{
    private final String host;
    private final int port;
    private final InetSocketAddress socketAddress;

    private TcpAddress(final String host, final int port, final InetSocketAddress socketAddress)
    {
        this.host = host;
        this.port = port;
        this.socketAddress = socketAddress;
    }

    /**
     * Parses the address of a NIC to open.
     *
     * @param address {@code tcp:<host>:<port>}.
     * @return the address, its host resolved.
     * @throws IllegalArgumentException if it is malformed or the host unknown.
     */
    static TcpAddress parse(final String address)
    {
        final String prefix = TcpNicProvider.SCHEME + ':';
        final int colon = null == address ? -1 : address.lastIndexOf(':');
        if (null == address || !address.startsWith(prefix) || colon < prefix.length())
        {
            throw malformed(address);
        }
        String host = address.substring(prefix.length(), colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        else if (host.indexOf(':') >= 0)
        {
            throw malformed(address);
        }
        final int port;
        try
        {
            port = Integer.parseInt(address.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw malformed(address);
        }
        if (host.isEmpty() || port < 0 || port > 0xFFFF || host.indexOf('/') >= 0)
        {
            throw malformed(address);
        }
        try
        {
            return new TcpAddress(host, port, new InetSocketAddress(InetAddress.getByName(host), port));
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("unknown host in address " + address, ex);
        }
    }

    /**
     * Parses a peer's address.
     *
     * @param address the address.
     * @return the address.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if it is malformed, names an unknown host or port 0.
     */
    static TcpAddress peer(final String address)
    {
        final TcpAddress parsed;
        try
        {
            parsed = parse(address);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC cannot reach " + address, ex);
        }
        if (0 == parsed.port)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "a tcp NIC cannot reach port 0: " + address);
        }
        return parsed;
    }

    /**
     * The same host with another port, as a NIC reports its address once bound.
     *
     * @param boundPort the port.
     * @return the address string.
     */
    String withPort(final int boundPort)
    {
        final String spelled = host.indexOf(':') >= 0 ? '[' + host + ']' : host;
        return TcpNicProvider.SCHEME + ':' + spelled + ':' + boundPort;
    }

    int port()
    {
        return port;
    }

    InetSocketAddress socketAddress()
    {
        return socketAddress;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof TcpAddress && socketAddress.equals(((TcpAddress)other).socketAddress);
    }

    @Override
    public int hashCode()
    {
        return socketAddress.hashCode();
    }

    @Override
    public String toString()
    {
        return withPort(port);
    }

    private static IllegalArgumentException malformed(final String address)
    {
        return new IllegalArgumentException(
            "address must be tcp:<host>:<port> with a port in [0, 65535] (IPv6 hosts in brackets): " + address);
    }
}
