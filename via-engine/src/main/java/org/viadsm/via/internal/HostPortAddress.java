package org.viadsm.via.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A {@code <scheme>:<host>:<port>} NIC address, parsed, as the providers that listen on a socket spell theirs
 * ({@code tcp:}, {@code ucx:}): an IPv6 host is written in brackets ({@code tcp:[::1]:7000}), port 0 asks for a
 * free port when a NIC opens. Two addresses are equal when they name the same IP address and port, however the
 * host was spelled.
 */
public final class HostPortAddress
{
    private final String scheme;
    private final String host;
    private final int port;
    private final InetSocketAddress socketAddress;

    private HostPortAddress(final String scheme, final String host, final int port, final InetSocketAddress resolved)
    {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.socketAddress = resolved;
    }

    /**
     * Parses an address and resolves its host.
     *
     * @param scheme  the provider's scheme, without the colon.
     * @param address {@code <scheme>:<host>:<port>}.
     * @return the address, its host resolved.
     * @throws IllegalArgumentException if it is {@code null}, malformed, of another scheme, or its host unknown.
     */
    public static HostPortAddress parse(final String scheme, final String address)
    {
        final String prefix = scheme + ':';
        final int colon = null == address ? -1 : address.lastIndexOf(':');
        if (null == address || !address.startsWith(prefix) || colon < prefix.length())
        {
            throw malformed(scheme, address);
        }
        String host = address.substring(prefix.length(), colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        else if (host.indexOf(':') >= 0)
        {
            throw malformed(scheme, address);
        }
        final int port;
        try
        {
            port = Integer.parseInt(address.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw malformed(scheme, address);
        }
        if (host.isEmpty() || port < 0 || port > 0xFFFF || host.indexOf('/') >= 0)
        {
            throw malformed(scheme, address);
        }
        try
        {
            return new HostPortAddress(scheme, host, port, new InetSocketAddress(InetAddress.getByName(host), port));
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("unknown host '" + host + "' in address " + address, ex);
        }
    }

    /**
     * The same host with another port, as a NIC reports its address once its socket is bound.
     *
     * @param boundPort the port.
     * @return the address string.
     */
    public String withPort(final int boundPort)
    {
        final String spelled = host.indexOf(':') >= 0 ? '[' + host + ']' : host;
        return scheme + ':' + spelled + ':' + boundPort;
    }

    /**
     * The port, as written.
     *
     * @return the port; 0 for a free port.
     */
    public int port()
    {
        return port;
    }

    /**
     * The resolved socket address.
     *
     * @return the host's IP address and the port.
     */
    public InetSocketAddress socketAddress()
    {
        return socketAddress;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof HostPortAddress that && scheme.equals(that.scheme) &&
            socketAddress.equals(that.socketAddress);
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

    private static IllegalArgumentException malformed(final String scheme, final String address)
    {
        return new IllegalArgumentException("address must be " + scheme + ":<host>:<port> with a port in [0, 65535]" +
            " (IPv6 hosts in brackets): " + address);
    }
}
