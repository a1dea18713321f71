package org.viadsm.via.provider.tcp;

import java.util.ArrayList;
import java.util.Iterator;

import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;

/**
 * The matching side of peer-to-peer connections: keeps the peer requests other NICs sent to this one (those with
 * a larger NIC id, or from this NIC itself) until a VI of this NIC makes the matching request, then answers them
 * with an accept, or with a refusal if the reliability levels differ.
 * <p>
 * A request matches a VI's pending peer request when the discriminators are equal, the VI asked for the
 * requester's NIC address, and (on one NIC) the VI's id is the smaller.
 * <p>
 * <b>Note:</b> its state is guarded by the {@link RequestTable}'s monitor; answers are sent outside it, under the
 * request's channel lock.
 */
final class PeerMatcher
{
    private final EngineNic nic;
    private final RequestTable table;
    private final ConnectionSetup setup;

    PeerMatcher(final EngineNic nic, final RequestTable table, final ConnectionSetup setup)
    {
        this.nic = nic;
        this.table = table;
        this.setup = setup;
    }

    /**
     * Under the request's channel lock: a request to keep, answered at once if a VI waits for it.
     */
    void onPeerRequest(final IncomingRequest request)
    {
        final PendingRequest local;
        synchronized (table)
        {
            local = find(request);
            if (null == local)
            {
                table.peerRequests().add(request);
            }
        }
        if (null != local)
        {
            answer(request, local);
        }
    }

    /**
     * Matches every kept request a VI now waits for, and answers them.
     *
     * @param mine a request of this NIC, or null.
     * @return whether {@code mine} was matched.
     */
    boolean matchAll(final PendingRequest mine)
    {
        ArrayList<IncomingRequest> matched = null;
        boolean mineMatched = false;
        synchronized (table)
        {
            final Iterator<IncomingRequest> it = table.peerRequests().iterator();
            while (it.hasNext())
            {
                final IncomingRequest request = it.next();
                if (request.channel.isClosed())
                {
                    it.remove();
                    continue;
                }
                final PendingRequest local = find(request);
                if (null != local)
                {
                    it.remove();
                    if (null == matched)
                    {
                        matched = new ArrayList<>();
                    }
                    matched.add(request);
                    mineMatched |= local == mine;
                }
            }
        }
        if (null != matched)
        {
            for (final IncomingRequest request : matched)
            {
                answer(request, request.localRequest);
            }
        }
        return mineMatched;
    }

    /**
     * Finds the VI's request a kept request matches and pairs them; the caller holds the table's monitor.
     */
    private PendingRequest find(final IncomingRequest request)
    {
        if (request.answered)
        {
            return null;
        }
        final ViDescription requester = request.requester;
        final long nicId = nic.nicId();
        for (int id = 0, n = table.maxVis(); id < n; id++)
        {
            final PendingRequest local = table.requestOf(id);
            if (null != local && local.isPeer() && !local.isCompleted() && null == local.matching &&
                local.discriminator() == requester.discriminator && local.target.equals(requester.listener) &&
                (nicId != requester.nicId || id < requester.viId) && local.isPending())
            {
                request.answered = true;
                request.localRequest = local;
                local.matching = request;
                return local;
            }
        }
        return null;
    }

    private void answer(final IncomingRequest request, final PendingRequest local)
    {
        request.channel.lock();
        try
        {
            final boolean sameLevel = request.requester.reliability == local.vi().reliability().vipValue();
            if (!sameLevel)
            {
                local.vi().settle(local.sequence(), 0, ViConnection.CONNECT_NO_MATCH);
                setup.answerBare(request, FrameLayout.TYPE_NO_MATCH, local.vi().id());
            }
            if (!sameLevel || !setup.sendAccept(request, local.vi()))
            {
                table.unmatch(local, request);
            }
        }
        finally
        {
            request.channel.unlock();
        }
    }
}
