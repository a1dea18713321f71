package org.viadsm.via.provider.jvm;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.PeerNic;

/**
 * Another NIC of the same JVM, reached through its Java object: its memory by reference, its waiters by unpark.
 */
final class JvmPeer extends PeerNic
{
    private final EngineNic target;

    JvmPeer(final EngineNic target)
    {
        super(target.address(), target.area());
        this.target = target;
    }

    @Override
    public AtomicBuffer regionBuffer(final int index, final int generation)
    {
        return target.localRegionBuffer(index, generation);
    }

    @Override
    public boolean isAlive()
    {
        return !target.isClosed();
    }

    @Override
    public void wakeReceivers(final int viId, final int cqId)
    {
        target.wakeReceivers(viId, cqId);
    }
}
