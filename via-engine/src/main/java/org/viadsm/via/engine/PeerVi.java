package org.viadsm.via.engine;

import org.viadsm.via.ViAttributes;

/**
 * The peer VI of a connection as this side reaches it: the peer NIC, the peer VI's record and receive ring, and the
 * target-side access used by the send queue. Immutable once built; a VI's connection swaps it in when it connects.
 */
final class PeerVi
{
    final PeerNic peer;
    final int peerViId;
    final ViRecord peerRecord;
    final RecvRing peerRing;
    final TargetAccess access;

    PeerVi(final PeerNic peer, final int peerViId)
    {
        this.peer = peer;
        this.peerViId = peerViId;
        this.peerRecord = peer.viRecord(peerViId);
        this.peerRing = peer.recvRing(peerViId);
        this.access = new TargetAccess(peer, peerRecord, peerRing, peerRecord.recvEpoch());
    }

    ViAttributes remoteAttributes()
    {
        return ProviderSupport.viAttributes(peerRecord.reliability(), peerRecord.maxTransfer(), peerRecord.flags());
    }
}
