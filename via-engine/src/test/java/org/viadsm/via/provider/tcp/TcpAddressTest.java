package org.viadsm.via.provider.tcp;

import org.junit.jupiter.api.Test;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TcpAddressTest
{
    @Test
    void shouldParseHostAndPortAndCompareByResolvedAddress()
    {
        final TcpAddress address = TcpAddress.parse("tcp:127.0.0.1:7000");
        assertEquals(7000, address.port());
        assertEquals("tcp:127.0.0.1:7001", address.withPort(7001));
        assertEquals(TcpAddress.parse("tcp:127.0.0.1:7000"), address);
        assertNotEquals(TcpAddress.parse("tcp:127.0.0.1:7001"), address);
        assertEquals("tcp:[::1]:80", TcpAddress.parse("tcp:[::1]:9").withPort(80));
    }

    @Test
    void shouldRefusePeersAtPortZeroOrMalformed()
    {
        assertEquals(ViaError.NOT_REACHABLE,
            assertThrows(ViaException.class, () -> TcpAddress.peer("tcp:127.0.0.1:0")).error());
        assertEquals(ViaError.NOT_REACHABLE,
            assertThrows(ViaException.class, () -> TcpAddress.peer("shm:x")).error());
        assertThrows(IllegalArgumentException.class, () -> TcpAddress.parse(null));
    }
}
