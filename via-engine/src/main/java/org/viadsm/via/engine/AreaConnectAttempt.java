package org.viadsm.via.engine;

import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.viadsm.via.engine.ViRecordLayout.STATE_CONNECT_PENDING;
import static org.viadsm.via.engine.ViRecordLayout.STATE_ERROR;
import static org.viadsm.via.engine.ViRecordLayout.STATE_IDLE;

/**
 * A connection request through the other NIC's shared area: written into its request ring; the answering side
 * settles and establishes this VI's record directly, and this side connects once both records are connected to each
 * other.
 */
final class AreaConnectAttempt extends ConnectAttempt
{
    private final ConnectionManager manager;
    private final EngineNic nic;
    private final ViRecord record;
    final PeerNic target;

    AreaConnectAttempt(
        final ConnectionManager manager,
        final ViConnection vi,
        final PeerNic target,
        final String address,
        final long discriminator,
        final boolean peer,
        final long timeoutNs)
    {
        super(vi, address, discriminator, peer, timeoutNs);
        this.manager = manager;
        this.nic = vi.nic();
        this.record = vi.record();
        this.target = target;
    }

    @Override
    protected void send(final Idler idler)
    {
        if (isPeer())
        {
            manager.register(this);
            if (!offer(ConnectMessageFlyweight.TYPE_PEER_REQUEST))
            {
                manager.giveUp(this, ViaError.ERROR_RESOURCE, "request ring of " + address() + " is full");
            }
            manager.poll();
            return;
        }
        while (!offer(ConnectMessageFlyweight.TYPE_CLIENT_REQUEST))
        {
            if (!idler.idle())
            {
                manager.giveUp(this, ViaError.TIMEOUT, "request ring of " + address() + " stayed full");
            }
        }
    }

    @Override
    protected String lostReason(final int polls)
    {
        return !target.isOpen() || (0 == (polls & 63) && !target.isAlive()) ? address() + " went away" : null;
    }

    @Override
    protected ViaError unansweredError()
    {
        return ViaError.TIMEOUT;
    }

    @Override
    protected String unansweredMessage(final long timeoutNs)
    {
        return isPeer() ? "no peer matched the request of VI " + vi().id() + " to " + address() +
            " with discriminator " + discriminator() :
            address() + " did not answer the connection request of VI " + vi().id();
    }

    @Override
    protected void awaitEstablished(final int peerViId)
    {
        final Idler idler = new Idler(nic);
        idler.start(Connector.ESTABLISH_TIMEOUT_NS);
        while (true)
        {
            final int state = record.state();
            if (isEstablished(state, peerViId))
            {
                idler.finish();
                connect(state, peerViId);
                return;
            }
            if (STATE_CONNECT_PENDING != state || !target.isOpen() || !target.isAlive() || !idler.idle())
            {
                record.compareAndSetState(state, STATE_IDLE);
                throw new ViaException(ViaError.NOT_REACHABLE, address() + " accepted but did not complete the " +
                    "connection of VI " + vi().id());
            }
        }
    }

    @Override
    protected boolean onPeerAccepted(final int peerViId)
    {
        final int state = record.state();
        if (STATE_CONNECT_PENDING == state)
        {
            if (!target.isOpen() || !target.isAlive())
            {
                vi().backToIdle();
                forget();
                throw new ViaException(ViaError.NOT_REACHABLE, address() + " went away while connecting");
            }
            return false;
        }
        if (isEstablished(state, peerViId))
        {
            synchronized (manager)
            {
                if (!isCompleted())
                {
                    try
                    {
                        connect(state, peerViId);
                    }
                    catch (final ViaException ex)
                    {
                        vi().areaAttempt = null;
                        throw ex;
                    }
                    complete();
                }
            }
            return true;
        }
        record.compareAndSetState(STATE_ERROR, STATE_IDLE);
        forget();
        throw new ViaException(ViaError.NOT_REACHABLE, "the peer at " + address() + " could not complete " +
            "the connection of VI " + vi().id());
    }

    @Override
    protected void forget()
    {
        if (isPeer())
        {
            manager.forget(vi());
        }
    }

    /**
     * Whether the answering side established the connection: the VI's record names the peer VI that answered, on
     * the NIC asked, and is connected while the peer's record is connected back to it (the answering side connects
     * its own record first), or is already in error after that.
     */
    boolean isEstablished(final int state, final int peerViId)
    {
        if (record.peerNicId() != target.nicId() || record.peerViId() != peerViId)
        {
            return false;
        }
        return STATE_ERROR == state || ViRecordLayout.STATE_CONNECTED == state && peerViId >= 0 &&
            peerViId < target.area().geometry().maxVis() &&
            target.viRecord(peerViId).isConnectedTo(nic.nicId(), vi().id());
    }

    /**
     * Gives the VI its link to the peer VI; a peer record that is no live VI fails, the VI left idle.
     */
    private void connect(final int state, final int peerViId)
    {
        try
        {
            ConnectionManager.connect(vi(), target, peerViId, address());
        }
        catch (final ViaException ex)
        {
            record.compareAndSetState(state, STATE_IDLE);
            throw ex;
        }
    }

    private boolean offer(final int type)
    {
        return target.area().requests().offer(type, nic.nicId(), nic.address(), vi().id(), sequence(),
            discriminator(), record.reliability(), record.maxTransfer(), record.flags());
    }
}
