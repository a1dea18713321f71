package org.viadsm.via.provider.ucx;

/**
 * The requests of a ucx NIC's VIs in setup, one per VI at most: sent again while nobody listens at the other
 * side, and dropped once their VI is done with them.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 */
final class OutgoingRequests
{
    private final UcxTransport transport;
    private final OutgoingRequest[] requests;

    OutgoingRequests(final UcxTransport transport)
    {
        this.transport = transport;
        this.requests = new OutgoingRequest[transport.attributes().maxVis()];
    }

    void put(final OutgoingRequest request)
    {
        requests[request.vi().id()] = request;
    }

    /**
     * Forgets a request if it is still its VI's.
     */
    void remove(final OutgoingRequest request)
    {
        final int viId = request.vi().id();
        if (requests[viId] == request)
        {
            requests[viId] = null;
        }
    }

    /**
     * The request of a VI.
     *
     * @return the request, or null (also for an id out of range, as a peer's message may carry).
     */
    OutgoingRequest get(final int viId)
    {
        return viId >= 0 && viId < requests.length ? requests[viId] : null;
    }

    /**
     * A peer request of this NIC that an incoming peer request pairs with.
     *
     * @return the request, or null.
     */
    OutgoingRequest matching(final IncomingRequest incoming)
    {
        for (final OutgoingRequest candidate : requests)
        {
            if (null != candidate && candidate.pairsWith(incoming, transport.nicId()))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Whether a request waits for its answer.
     */
    boolean isPending()
    {
        for (final OutgoingRequest request : requests)
        {
            if (null != request && !request.isCompleted())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Closes the control endpoints of requests turned away or whose connection failed, and sends again those
     * whose retry is due.
     *
     * @return work done.
     */
    int maintain(final long nowNs, final UcxConnector connector)
    {
        int work = 0;
        for (final OutgoingRequest request : requests)
        {
            if (null == request || request.linked || request.isCompleted())
            {
                continue;
            }
            if (request.accepting && request.mayAcceptAgain())
            {
                request.acceptsLeft--;
                connector.answers().acceptAgain(request.acceptedFrom, request.vi(), request.sequence());
                work++;
                continue;
            }
            if (null != request.endpoint && (request.deferred || null != request.sink.failure()))
            {
                request.refused |= !request.isReached() && !request.deferred;
                request.lastFailure = request.deferred ? request.lastFailure : request.sink.failure();
                UcxEndpoints.close(transport, request.endpoint);
                request.endpoint = null;
                request.retryAtNs = request.deferred || request.accepting ? Long.MAX_VALUE :
                    nowNs + UcxConnector.RETRY_NS;
                work++;
            }
            if (null == request.endpoint && 0 != request.retryAtNs && nowNs - request.retryAtNs >= 0 &&
                !request.isPastDeadline(nowNs) && !request.accepting && !request.deferred && request.isPending())
            {
                connector.sendRequest(request);
                work++;
            }
        }
        return work;
    }

    /**
     * Closes the endpoints and mirrors of requests not linked; the NIC is closing.
     */
    void close()
    {
        for (int i = 0; i < requests.length; i++)
        {
            final OutgoingRequest request = requests[i];
            if (null != request)
            {
                if (!request.linked && !request.released)
                {
                    request.released = true;
                    UcxEndpoints.close(transport, request.endpoint);
                    request.mirror.close();
                }
                requests[i] = null;
            }
        }
    }
}
