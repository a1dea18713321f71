package org.viadsm.via.provider.ucx;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * Creates and closes the endpoints of the provider, each with an error handler of its own: jucx's default one
 * throws from the worker's progress, which would unwind through whatever thread made progress.
 * <p>
 * Control endpoints (connection setup over a listener, network transports) use UCX's peer error handling, so a
 * peer that dies or loses its link is reported on them: they are the connection's failure detector. Data
 * endpoints, made from the peer's worker address, do not, since UCX's shared-memory transports offer no active
 * messages with it.
 */
final class UcxEndpoints
{
    private static final long CLOSE_TIMEOUT_NS = 1_000_000_000L;

    /**
     * Where an endpoint's failure goes: the link once there is one, the connection setup before.
     */
    static final class Sink
    {
        private volatile UcxLink link;
        private volatile String failure;

        void link(final UcxLink link)
        {
            this.link = link;
            final String failed = failure;
            if (null != failed)
            {
                link.onEndpointError(failed);
            }
        }

        String failure()
        {
            return failure;
        }

        void fail(final String detail)
        {
            failure = detail;
            final UcxLink owner = link;
            if (null != owner)
            {
                owner.onEndpointError(detail);
            }
        }
    }

    private UcxEndpoints()
    {
    }

    static UcpEndpoint connect(final UcxTransport nic, final InetSocketAddress address, final Sink sink)
    {
        return nic.endpoints().add(nic.worker().newEndpoint(new UcpEndpointParams().setSocketAddress(address)
            .setPeerErrorHandlingMode()
            .setErrorHandler((endpoint, status, message) -> sink.fail("control endpoint to " + address +
                " failed: " + Ucp.describe(status, message)))));
    }

    static UcpEndpoint accept(final UcxTransport nic, final UcpConnectionRequest request, final Sink sink)
    {
        return nic.endpoints().add(nic.worker().newEndpoint(new UcpEndpointParams().setConnectionRequest(request)
            .setPeerErrorHandlingMode()
            .setErrorHandler((endpoint, status, message) -> sink.fail("control endpoint from " +
                request.getClientAddress() + " failed: " + Ucp.describe(status, message)))));
    }

    /**
     * An endpoint to a peer's worker address, which is checked first ({@link WorkerAddressCheck}): UCX unpacks a
     * malformed address by reading and writing past its tables or failing an assertion, which aborts the process.
     *
     * @param peer the peer's NIC address, which a refusal names.
     * @throws IllegalArgumentException naming the peer and what is wrong with its address.
     */
    static UcpEndpoint data(final UcxTransport nic, final byte[] workerAddress, final String peer, final Sink sink)
    {
        final String fault = WorkerAddressCheck.check(workerAddress);
        if (null != fault)
        {
            throw new IllegalArgumentException("the worker address of " + peer + " (" + workerAddress.length +
                " bytes) is malformed: " + fault);
        }
        final ByteBuffer address = ByteBuffer.allocateDirect(workerAddress.length);
        address.put(workerAddress).flip();
        return nic.endpoints().add(nic.worker().newEndpoint(new UcpEndpointParams().setUcpAddress(address)
            .setErrorHandler((endpoint, status, message) -> sink.fail("data endpoint failed: " +
                Ucp.describe(status, message)))));
    }

    /**
     * Closes an endpoint once ({@link OpenEndpoints}: a second close of the same endpoint does nothing), making
     * progress a bounded time for UCX to release it, unless its NIC is closing (which waits for all its closes
     * together, {@link WorkerRelease}); never from a UCX callback. A close UCX has not finished in that time stays
     * known to the NIC, whose close waits for it before it destroys the worker.
     *
     * @param endpoint the endpoint, or null for none.
     */
    static void close(final UcxTransport nic, final UcpEndpoint endpoint)
    {
        final OpenEndpoints endpoints = nic.endpoints();
        final UcpRequest request = endpoints.close(endpoint);
        final long deadlineNs = System.nanoTime() + CLOSE_TIMEOUT_NS;
        while (null != request && !request.isCompleted() && !endpoints.isDraining() &&
            System.nanoTime() - deadlineNs < 0)
        {
            if (0 == nic.progressWorker())
            {
                Thread.onSpinWait();
            }
        }
    }
}
