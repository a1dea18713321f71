package org.viadsm.via.provider.ucx;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.viadsm.via.Nic;
import org.viadsm.via.engine.EngineNic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each endpoint of a ucx NIC is closed once: a second close of an endpoint does nothing, whatever endpoint UCX has
 * made since in the closed one's memory (jucx's {@code equals} would take the two for one), and the NIC's close
 * closes those still open.
 */
@Timeout(60)
class OpenEndpointsTest
{
    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void shouldCloseEachEndpointOnce()
    {
        try (Nic server = Nic.open("ucx:127.0.0.1:0");
             Nic client = Nic.open("ucx:127.0.0.1:0"))
        {
            final UcxTransport nic = (UcxTransport)((EngineNic)client).transport();
            final OpenEndpoints endpoints = nic.endpoints();
            final int before = endpoints.size();
            final InetSocketAddress target = UcxAddress.parse(server.address()).socketAddress();
            final UcpEndpoint first = UcxEndpoints.connect(nic, target, new UcxEndpoints.Sink());
            assertEquals(before + 1, endpoints.size());
            UcxEndpoints.close(nic, first);
            assertEquals(before, endpoints.size());

            final UcpEndpoint second = UcxEndpoints.connect(nic, target, new UcxEndpoints.Sink());
            assertEquals(before + 1, endpoints.size());
            // a stale close: the second endpoint may sit where the first was, and stays open
            UcxEndpoints.close(nic, first);
            assertNull(endpoints.close(first));
            assertEquals(before + 1, endpoints.size());

            assertEquals(before + 1, endpoints.closeAll());
            assertEquals(0, endpoints.size());
            assertNull(endpoints.close(second));
        }
    }
}
