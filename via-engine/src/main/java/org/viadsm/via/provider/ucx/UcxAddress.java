package org.viadsm.via.provider.ucx;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * A {@code ucx:<host>:<port>} address: where the NIC's UCX listener accepts the connections its VIs are set up
 * over (an IPv6 host is written in brackets). Port 0 picks a free port when a NIC opens.
 */
final class UcxAddress
{
    private final String host;
    private final InetSocketAddress socketAddress;

    private UcxAddress(final String host, final InetSocketAddress socketAddress)
    {
        this.host = host;
        this.socketAddress = socketAddress;
    }

    /**
     * Parses an address.
     *
     * @param address {@code ucx:<host>:<port>}.
     * @return it, its host resolved.
     * @throws IllegalArgumentException if it is malformed or its host unknown.
     */
    static UcxAddress parse(final String address)
    {
        final String prefix = UcxNicProvider.SCHEME + ':';
        final int colon = null == address ? -1 : address.lastIndexOf(':');
        if (null == address || !address.startsWith(prefix) || colon <= prefix.length())
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
            return new UcxAddress(host, new InetSocketAddress(InetAddress.getByName(host), port));
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("unknown host '" + host + "' in NIC address '" + address + "'", ex);
        }
    }

    InetSocketAddress socketAddress()
    {
        return socketAddress;
    }

    /**
     * This address with another port, as the NIC reports it once its listener is bound.
     */
    String withPort(final int port)
    {
        return UcxNicProvider.SCHEME + ':' + (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + port;
    }

    private static IllegalArgumentException malformed(final String address)
    {
        return new IllegalArgumentException("malformed ucx address '" + address + "'; expected ucx:<host>:<port>");
    }
}
