package org.viadsm.via.engine;

import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;

/**
 * What a connected VI knows of its peer: the peer NIC, the peer VI's record and receive ring, and the target-side
 * access used by the send queue. Immutable once built; a VI swaps it in when it connects.
 */
final class Connection
{
    final PeerNic peer;
    final int peerViId;
    final ViRecord peerRecord;
    final RecvRing peerRing;
    final TargetAccess access;

    Connection(final PeerNic peer, final int peerViId)
    {
        this.peer = peer;
        this.peerViId = peerViId;
        this.peerRecord = peer.viRecord(peerViId);
        this.peerRing = peer.recvRing(peerViId);
        this.access = new TargetAccess(peer, peerRecord, peerRing, peerRecord.recvEpoch());
    }

    ViAttributes remoteAttributes()
    {
        return attributesOf(peerRecord.reliability(), peerRecord.maxTransfer(), peerRecord.flags());
    }

    static ViAttributes attributesOf(final int reliability, final int maxTransfer, final int flags)
    {
        return ProviderSupport.viAttributes(reliability, maxTransfer, flags);
    }

    static ReliabilityLevel reliabilityOf(final int vipValue)
    {
        return ProviderSupport.reliabilityOf(vipValue);
    }
}
