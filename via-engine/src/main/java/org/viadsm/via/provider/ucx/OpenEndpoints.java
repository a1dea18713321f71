package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * The UCX endpoints of one ucx NIC that are open, and the closes of its endpoints UCX has not finished, so that each
 * endpoint is closed exactly once and the NIC's worker is destroyed only once every close finished
 * ({@link WorkerRelease}).
 * <p>
 * An endpoint is known by its Java object, never by {@code equals}: jucx compares endpoints by their native pointer,
 * which a closed endpoint keeps, and UCX gives a closed endpoint's memory to the next endpoint at once, so a second
 * close through a stale object would close another endpoint. A close of an endpoint that is not open is ignored.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class OpenEndpoints
{
    private final Set<UcpEndpoint> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<UcpRequest> closing = new ArrayList<>();
    private boolean draining;

    /**
     * An endpoint was made: it is open until {@link #close} takes it.
     *
     * @return the endpoint.
     */
    synchronized UcpEndpoint add(final UcpEndpoint endpoint)
    {
        open.add(endpoint);
        return endpoint;
    }

    /**
     * Starts to close an endpoint, by force (UCX completes what is pending on it with an error), unless it is not
     * open (closed before, or never made here).
     *
     * @return the close, which UCX may finish later; null if nothing is left to wait for.
     */
    UcpRequest close(final UcpEndpoint endpoint)
    {
        synchronized (this)
        {
            if (null == endpoint || !open.remove(endpoint))
            {
                return null;
            }
        }
        final UcpRequest request;
        try
        {
            request = endpoint.closeNonBlockingForce();
        }
        catch (final RuntimeException ex)
        {
            // an endpoint that failed may refuse to close: UCX releases it with the worker
            return null;
        }
        if (null == request || request.isCompleted())
        {
            return null;
        }
        track(request);
        return request;
    }

    /**
     * Keeps a close UCX has not finished until it has, forgetting those it finished since: without that, the closes
     * of a long-lived NIC's reconnects would pile up until the NIC closes.
     */
    synchronized void track(final UcpRequest request)
    {
        closing.removeIf(UcpRequest::isCompleted);
        closing.add(request);
    }

    /**
     * The NIC is closing: from now on closes do not wait one by one, as the NIC's close waits for all of them
     * together.
     */
    synchronized void drain()
    {
        draining = true;
    }

    /**
     * The NIC is closing: closes the endpoints still open.
     *
     * @return how many were still open.
     */
    int closeAll()
    {
        final List<UcpEndpoint> left;
        synchronized (this)
        {
            draining = true;
            left = new ArrayList<>(open);
        }
        for (final UcpEndpoint endpoint : left)
        {
            close(endpoint);
        }
        return left.size();
    }

    /**
     * Whether a close should wait for UCX to finish it: not once the NIC is closing.
     */
    synchronized boolean isDraining()
    {
        return draining;
    }

    /**
     * Forgets the closes UCX finished.
     *
     * @return how many it has not finished.
     */
    synchronized int unfinishedCloses()
    {
        closing.removeIf(UcpRequest::isCompleted);
        return closing.size();
    }

    /**
     * How many closes are kept, finished or not (tests).
     *
     * @return the count.
     */
    synchronized int tracked()
    {
        return closing.size();
    }

    /**
     * How many endpoints are open.
     *
     * @return the count.
     */
    synchronized int size()
    {
        return open.size();
    }
}
