package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The requests that reached a ucx NIC and are not answered for good yet, by requester NIC id, VI id and sequence;
 * at most {@link UcxConnector#MAX_PENDING_REQUESTS}.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its {@link UcxConnector}.
 */
final class IncomingRequests
{
    private final UcxTransport transport;
    private final Map<String, IncomingRequest> requests = new HashMap<>();

    IncomingRequests(final UcxTransport transport)
    {
        this.transport = transport;
    }

    /**
     * Takes in a request, unless it is known already.
     *
     * @return the new request, or null for a duplicate; its state is {@link IncomingRequest#FAILED} if the NIC holds
     *         as many as it may (the caller turns it away).
     */
    IncomingRequest add(final Handshake message)
    {
        final String key = key(message.nicId, message.viId, message.sequence);
        if (requests.containsKey(key))
        {
            return null;
        }
        final IncomingRequest request = new IncomingRequest(message, key);
        if (requests.size() >= UcxConnector.MAX_PENDING_REQUESTS)
        {
            request.state = IncomingRequest.FAILED;
            return request;
        }
        requests.put(key, request);
        return request;
    }

    /**
     * The request a withdrawal or confirmation is about.
     *
     * @return the request, or null.
     */
    IncomingRequest find(final Handshake message)
    {
        return requests.get(key(message.nicId, message.viId, message.sequence));
    }

    /**
     * Holds a request again that was forgotten as failed (an acceptance accepted again), in place of any copy of it
     * that arrived since.
     */
    void restore(final IncomingRequest request)
    {
        requests.put(request.key, request);
    }

    /**
     * Forgets a request, unless another copy of it is held in its place (one that arrived after it was forgotten).
     *
     * @return true if it was held.
     */
    boolean remove(final IncomingRequest request)
    {
        return requests.remove(request.key, request);
    }

    List<IncomingRequest> all()
    {
        return new ArrayList<>(requests.values());
    }

    boolean isAccepting()
    {
        for (final IncomingRequest candidate : requests.values())
        {
            if (IncomingRequest.ACCEPTING == candidate.state)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes an unanswered client request with this discriminator for a {@code connectWait}.
     *
     * @return the request, now {@link IncomingRequest#TAKEN}, or null.
     */
    IncomingRequest takeClient(final long discriminator)
    {
        for (final IncomingRequest candidate : requests.values())
        {
            if (IncomingRequest.REQUESTED == candidate.state && Handshake.CLIENT_REQUEST == candidate.request.type &&
                candidate.request.discriminator == discriminator)
            {
                candidate.state = IncomingRequest.TAKEN;
                return candidate;
            }
        }
        return null;
    }

    /**
     * Fails the requests whose answer endpoint failed; forgets them unless a link is being accepted on them, which
     * the accepting thread sees failed first (it forgets the request itself, or the next call does). A request
     * forgotten with a link releases the link, which closes the endpoint it took as its control endpoint: closing
     * that endpoint here too would close it twice.
     *
     * @return how many were forgotten.
     */
    int dropFailed()
    {
        int work = 0;
        for (final Iterator<IncomingRequest> it = requests.values().iterator(); it.hasNext(); )
        {
            final IncomingRequest candidate = it.next();
            if (null != candidate.sink && null != candidate.sink.failure())
            {
                final boolean accepting = IncomingRequest.ACCEPTING == candidate.state;
                candidate.state = IncomingRequest.FAILED;
                if (!accepting)
                {
                    it.remove();
                    if (null != candidate.link)
                    {
                        transport.release(candidate.link);
                    }
                    else
                    {
                        UcxEndpoints.close(transport, candidate.endpoint);
                    }
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * Closes the endpoints of the requests without a link; the NIC is closing.
     */
    void close()
    {
        for (final IncomingRequest candidate : requests.values())
        {
            if (null == candidate.link)
            {
                UcxEndpoints.close(transport, candidate.endpoint);
            }
        }
        requests.clear();
    }

    private static String key(final long nicId, final int viId, final int sequence)
    {
        return Long.toHexString(nicId) + ':' + viId + ':' + sequence;
    }
}
