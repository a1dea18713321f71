package org.viadsm.via.provider.tcp;

import org.junit.jupiter.api.Test;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TcpAddressTest
{
    @Test
    void shouldParseANicsOwnAddressWithPortZero()
    {
        assertEquals(0, TcpAddress.parse("tcp:127.0.0.1:0").port());
        assertEquals("tcp:127.0.0.1:7001", TcpAddress.parse("tcp:127.0.0.1:0").withPort(7001));
    }

    @Test
    void shouldRefusePeersAtPortZeroOrMalformed()
    {
        final ViaException portZero = assertThrows(ViaException.class, () -> TcpAddress.peer("tcp:127.0.0.1:0"));
        assertEquals(ViaError.NOT_REACHABLE, portZero.error());
        assertEquals("NOT_REACHABLE: a tcp NIC cannot reach port 0: tcp:127.0.0.1:0", portZero.getMessage());
        final ViaException otherScheme = assertThrows(ViaException.class, () -> TcpAddress.peer("shm:x"));
        assertEquals(ViaError.NOT_REACHABLE, otherScheme.error());
        assertEquals("NOT_REACHABLE: a tcp NIC cannot reach shm:x", otherScheme.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TcpAddress.parse(null));
    }
}
