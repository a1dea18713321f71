package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A NIC as its own target: for loopback connections and for completing its own receive queues.
 */
final class SelfPeer extends PeerNic
{
    private final EngineNic nic;

    SelfPeer(final EngineNic nic)
    {
        super(nic.address(), nic.area());
        this.nic = nic;
    }

    @Override
    public AtomicBuffer regionBuffer(final int index, final int generation)
    {
        return nic.localRegionBuffer(index, generation);
    }

    @Override
    public boolean isAlive()
    {
        return !nic.isClosed();
    }

    @Override
    public void wakeReceivers(final int viId, final int cqId)
    {
        nic.wakeReceivers(viId, cqId);
    }
}
