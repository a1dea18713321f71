package org.viadsm.via.provider.ucx;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucs.UcsConstants;
import org.viadsm.via.Nic;
import org.viadsm.via.engine.EngineNic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each endpoint of a ucx NIC is closed once: a second close of an endpoint does nothing, whatever endpoint UCX has
 * made since in the closed one's memory (jucx's {@code equals} would take the two for one), and the NIC's close
 * closes those still open. The closes UCX has not finished are kept, and the finished ones forgotten as new ones come,
 * not only when the NIC closes.
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

    @Test
    void shouldForgetFinishedClosesWhenTrackingANewOne() throws ReflectiveOperationException
    {
        final OpenEndpoints endpoints = new OpenEndpoints();
        final UcpRequest first = request(UcsConstants.STATUS.UCS_INPROGRESS);
        final UcpRequest second = request(UcsConstants.STATUS.UCS_INPROGRESS);
        endpoints.track(first);
        endpoints.track(second);
        for (int i = 0; i < 100; i++)
        {
            endpoints.track(request(UcsConstants.STATUS.UCS_OK));
        }
        // each finished close is dropped when the next comes: the 2 unfinished ones and the last finished one are left
        assertEquals(3, endpoints.tracked());
        status(first, UcsConstants.STATUS.UCS_OK);
        endpoints.track(request(UcsConstants.STATUS.UCS_INPROGRESS));
        assertEquals(2, endpoints.tracked());
        assertEquals(2, endpoints.unfinishedCloses());
        status(second, UcsConstants.STATUS.UCS_OK);
        assertEquals(1, endpoints.unfinishedCloses());
    }

    private static UcpRequest request(final int status) throws ReflectiveOperationException
    {
        final Constructor<UcpRequest> constructor = UcpRequest.class.getDeclaredConstructor();
        constructor.setAccessible(true);
        final UcpRequest request = constructor.newInstance();
        status(request, status);
        return request;
    }

    private static void status(final UcpRequest request, final int status) throws ReflectiveOperationException
    {
        final Field field = UcpRequest.class.getDeclaredField("status");
        field.setAccessible(true);
        field.setInt(request, status);
    }
}
