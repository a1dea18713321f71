package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.openucx.jucx.ucp.UcpConnectionRequest;
import org.openucx.jucx.ucp.UcpEndpoint;

/**
 * The control endpoints a ucx NIC's listener accepted, over which requesters send their setup messages; an
 * endpoint stays while its peer keeps it (as the connection's failure detector) and goes once UCX reports the peer
 * gone. UCX's connection requests queue here from the listener's callback until a thread makes progress, which
 * accepts them all (the requests they carry are capped, see {@link IncomingRequests}).
 * <p>
 * <b>Note:</b> {@link #offer} from UCX's callback; the rest under the lock of the {@link UcxConnector}.
 */
final class ListenerEndpoints
{
    private final UcxTransport transport;
    private final Queue<UcpConnectionRequest> requests = new ConcurrentLinkedQueue<>();
    private final List<UcxEndpoints.Sink> sinks = new ArrayList<>();
    private final List<UcpEndpoint> endpoints = new ArrayList<>();

    ListenerEndpoints(final UcxTransport transport)
    {
        this.transport = transport;
    }

    /**
     * A connection request reached the listener; from UCX's callback, which must not answer it (accepting or
     * rejecting a request inside the callback is left to the next progress).
     */
    void offer(final UcpConnectionRequest request)
    {
        requests.add(request);
    }

    boolean isEmpty()
    {
        return requests.isEmpty();
    }

    /**
     * Accepts the queued connection requests.
     *
     * @return how many there were.
     */
    int accept()
    {
        int work = 0;
        UcpConnectionRequest request;
        while (null != (request = requests.poll()))
        {
            final UcxEndpoints.Sink sink = new UcxEndpoints.Sink();
            try
            {
                final UcpEndpoint endpoint = UcxEndpoints.accept(transport, request, sink);
                sinks.add(sink);
                endpoints.add(endpoint);
            }
            catch (final RuntimeException ex)
            {
                // the client saw its connection fail and retries
            }
            work++;
        }
        return work;
    }

    /**
     * Closes the endpoints whose peers went away.
     */
    void dropFailed()
    {
        for (int i = sinks.size() - 1; i >= 0; i--)
        {
            if (null != sinks.get(i).failure())
            {
                sinks.remove(i);
                UcxEndpoints.close(transport, endpoints.remove(i));
            }
        }
    }

    /**
     * Closes the endpoint whose UCX handle this is, if this listener accepted it: its peer learns that what it sent
     * was taken.
     */
    void close(final long handle)
    {
        for (int i = endpoints.size() - 1; i >= 0; i--)
        {
            final Long id = endpoints.get(i).getNativeId();
            if (null != id && id == handle)
            {
                sinks.remove(i);
                UcxEndpoints.close(transport, endpoints.remove(i));
                return;
            }
        }
    }

    int size()
    {
        return endpoints.size();
    }

    void close()
    {
        for (final UcpEndpoint endpoint : endpoints)
        {
            UcxEndpoints.close(transport, endpoint);
        }
        sinks.clear();
        endpoints.clear();
    }
}
