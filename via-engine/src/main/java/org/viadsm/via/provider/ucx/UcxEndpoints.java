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
    private static final int VERSION_MASK = 0x0F;
    private static final int MIN_ADDRESS_LENGTH = 8;

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
        return nic.worker().newEndpoint(new UcpEndpointParams().setSocketAddress(address).setPeerErrorHandlingMode()
            .setErrorHandler((endpoint, status, message) -> sink.fail("control endpoint to " + address +
                " failed: " + message)));
    }

    static UcpEndpoint accept(final UcxTransport nic, final UcpConnectionRequest request, final Sink sink)
    {
        return nic.worker().newEndpoint(new UcpEndpointParams().setConnectionRequest(request)
            .setPeerErrorHandlingMode()
            .setErrorHandler((endpoint, status, message) -> sink.fail("control endpoint from " +
                request.getClientAddress() + " failed: " + message)));
    }

    /**
     * An endpoint to a peer's worker address, which must be packed the way this UCX packs: UCX unpacks an address
     * of another format by failing an assertion, which aborts the process.
     *
     * @throws IllegalArgumentException if the address is too short or of another format version.
     */
    static UcpEndpoint data(final UcxTransport nic, final byte[] workerAddress, final Sink sink)
    {
        checkFormat(workerAddress, nic.workerAddress());
        final ByteBuffer address = ByteBuffer.allocateDirect(workerAddress.length);
        address.put(workerAddress).flip();
        return nic.worker().newEndpoint(new UcpEndpointParams().setUcpAddress(address)
            .setErrorHandler((endpoint, status, message) -> sink.fail("data endpoint failed: " + message)));
    }

    /**
     * Checks a peer's worker address against this worker's own: the low four bits of the first byte are the format
     * version ({@code UCP_ADDRESS_HEADER_VERSION_MASK}).
     */
    static void checkFormat(final byte[] peer, final byte[] own)
    {
        if (peer.length < MIN_ADDRESS_LENGTH || (peer[0] & VERSION_MASK) != (own[0] & VERSION_MASK))
        {
            throw new IllegalArgumentException("worker address of " + peer.length + " bytes, format version " +
                (0 == peer.length ? "none" : Integer.toString(peer[0] & VERSION_MASK)) + "; this UCX packs version " +
                (own[0] & VERSION_MASK));
        }
    }

    /**
     * Closes an endpoint, making progress a bounded time for UCX to release it; never from a UCX callback.
     */
    static void close(final UcxTransport nic, final UcpEndpoint endpoint)
    {
        if (null == endpoint)
        {
            return;
        }
        try
        {
            final UcpRequest request = endpoint.closeNonBlockingForce();
            final long deadlineNs = System.nanoTime() + CLOSE_TIMEOUT_NS;
            while (null != request && !request.isCompleted() && System.nanoTime() < deadlineNs)
            {
                if (0 == nic.progressWorker())
                {
                    Thread.onSpinWait();
                }
            }
        }
        catch (final RuntimeException ex)
        {
            // an endpoint that failed may refuse to close; the worker releases it when it closes
        }
    }
}
