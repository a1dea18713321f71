package org.viadsm.via.internal;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HostPortAddressTest
{
    @Test
    void shouldParseHostAndPortAndCompareByResolvedAddress()
    {
        final HostPortAddress address = HostPortAddress.parse("tcp", "tcp:127.0.0.1:7000");
        assertEquals(7000, address.port());
        assertEquals(new InetSocketAddress("127.0.0.1", 7000), address.socketAddress());
        assertEquals("tcp:127.0.0.1:7001", address.withPort(7001));
        assertEquals("tcp:127.0.0.1:7000", address.toString());
        assertEquals(HostPortAddress.parse("tcp", "tcp:127.0.0.1:7000"), address);
        assertEquals(HostPortAddress.parse("tcp", "tcp:127.0.0.1:7000").hashCode(), address.hashCode());
        assertNotEquals(HostPortAddress.parse("tcp", "tcp:127.0.0.1:7001"), address);
        assertNotEquals(HostPortAddress.parse("ucx", "ucx:127.0.0.1:7000"), address);
    }

    @Test
    void shouldKeepIpv6HostsInBrackets()
    {
        final HostPortAddress address = HostPortAddress.parse("ucx", "ucx:[::1]:9");
        assertEquals(9, address.port());
        assertEquals("ucx:[::1]:80", address.withPort(80));
        assertEquals(new InetSocketAddress("::1", 9), address.socketAddress());
    }

    @Test
    void shouldRefuseMalformedAddressesNamingThem()
    {
        for (final String bad : new String[]{"tcp:", "tcp::7000", "tcp:host", "tcp:host:x", "tcp:host:70000",
            "tcp:host:-1", "tcp:::1:7000", "tcp:a/b:7000", "ucx:host:7000", "tcp:[]:7000"})
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> HostPortAddress.parse("tcp", bad), bad);
            assertEquals("address must be tcp:<host>:<port> with a port in [0, 65535] (IPv6 hosts in brackets): " +
                bad, ex.getMessage());
        }
        assertEquals("address must be tcp:<host>:<port> with a port in [0, 65535] (IPv6 hosts in brackets): null",
            assertThrows(IllegalArgumentException.class, () -> HostPortAddress.parse("tcp", null)).getMessage());
    }

    @Test
    void shouldNameAnUnknownHost()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> HostPortAddress.parse("tcp", "tcp:no-such-host.invalid:7000"));
        assertEquals("unknown host 'no-such-host.invalid' in address tcp:no-such-host.invalid:7000", ex.getMessage());
    }
}
