package org.viadsm.dsm.rendezvous;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The address other hosts reach this one at, for a NIC that listens on it: as configured (an interface's name, an
 * address, or a network like {@code 10.1.0.0/16}), else the address this host uses towards the rendezvous
 * endpoint (what routing picks), else the IPv4 address of the first interface that is up and not a loopback, else
 * the loopback address.
 */
public final class HostAddress
{
    private HostAddress()
    {
    }

    /**
     * Picks the address.
     *
     * @param spec    an interface name, an address or a network in CIDR form; null or empty to choose.
     * @param towards the rendezvous endpoint, or null.
     * @return the address.
     * @throws IllegalArgumentException if {@code spec} names no interface or address of this host.
     */
    public static InetAddress pick(final String spec, final InetSocketAddress towards)
    {
        try
        {
            if (null != spec && !spec.isBlank())
            {
                return configured(spec.trim());
            }
            if (null != towards && !towards.isUnresolved())
            {
                final InetAddress local = localTowards(towards);
                if (null != local)
                {
                    return local;
                }
            }
            for (final NetworkInterface nif : interfaces())
            {
                final InetAddress address = ipv4(nif);
                if (null != address && !nif.isLoopback())
                {
                    return address;
                }
            }
            return InetAddress.getLoopbackAddress();
        }
        catch (final SocketException ex)
        {
            throw new IllegalStateException("cannot list this host's network interfaces: " + ex, ex);
        }
    }

    private static InetAddress configured(final String spec) throws SocketException
    {
        final NetworkInterface named = NetworkInterface.getByName(spec);
        if (null != named)
        {
            final InetAddress address = ipv4(named);
            if (null == address)
            {
                throw new IllegalArgumentException("interface " + spec + " is down or has no IPv4 address");
            }
            return address;
        }
        final int slash = spec.indexOf('/');
        final byte[] network = literal(slash < 0 ? spec : spec.substring(0, slash), spec);
        final int prefix = slash < 0 ? 32 : prefixLength(spec.substring(slash + 1), spec);
        for (final NetworkInterface nif : interfaces())
        {
            final InetAddress address = ipv4(nif);
            if (null != address && sameNetwork(address.getAddress(), network, prefix))
            {
                return address;
            }
        }
        throw new IllegalArgumentException("no interface of this host is up with an address in " + spec);
    }

    private static InetAddress localTowards(final InetSocketAddress towards)
    {
        try (DatagramSocket probe = new DatagramSocket())
        {
            probe.connect(towards);
            final InetAddress local = probe.getLocalAddress();
            return null == local || local.isAnyLocalAddress() ? null : local;
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static List<NetworkInterface> interfaces() throws SocketException
    {
        final List<NetworkInterface> interfaces = new ArrayList<>(NetworkInterface.networkInterfaces().toList());
        interfaces.sort(Comparator.comparingInt(NetworkInterface::getIndex));
        return interfaces;
    }

    private static InetAddress ipv4(final NetworkInterface nif) throws SocketException
    {
        if (!nif.isUp())
        {
            return null;
        }
        return nif.inetAddresses().filter(address -> address instanceof Inet4Address).findFirst().orElse(null);
    }

    private static byte[] literal(final String text, final String spec)
    {
        if (!text.matches("\\d{1,3}(\\.\\d{1,3}){3}"))
        {
            throw new IllegalArgumentException("'" + spec + "' is neither an interface of this host, an IPv4 " +
                "address nor a network such as 10.1.0.0/16");
        }
        try
        {
            return InetAddress.getByName(text).getAddress();
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("'" + spec + "' is not an IPv4 address", ex);
        }
    }

    private static int prefixLength(final String text, final String spec)
    {
        try
        {
            final int prefix = Integer.parseInt(text);
            if (prefix >= 0 && prefix <= 32)
            {
                return prefix;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // reported below
        }
        throw new IllegalArgumentException("'" + spec + "' has a bad prefix length; expected 0 to 32");
    }

    private static boolean sameNetwork(final byte[] address, final byte[] network, final int prefix)
    {
        for (int bit = 0; bit < prefix; bit++)
        {
            final int mask = 0x80 >>> (bit & 7);
            if ((address[bit >> 3] & mask) != (network[bit >> 3] & mask))
            {
                return false;
            }
        }
        return true;
    }
}
