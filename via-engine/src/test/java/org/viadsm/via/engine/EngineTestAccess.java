package org.viadsm.via.engine;

import org.viadsm.via.Nic;

/**
 * What provider tests in other packages reach inside the engine, to stage faults no API call can make.
 */
public final class EngineTestAccess
{
    private EngineTestAccess()
    {
    }

    /**
     * Claims the next entry of a peer VI's receive ring, as a Send would before it writes the data, and leaves it
     * claimed: a peer killed in the middle of a Send.
     *
     * @param nic         the claiming NIC.
     * @param peerAddress the peer NIC's address.
     * @param viId        the peer VI.
     * @return the claimed ring index, or a negative value if no receive was posted.
     */
    public static long claimRecv(final Nic nic, final String peerAddress, final int viId)
    {
        return ((EngineNic)nic).peer(peerAddress).recvRing(viId).claim();
    }

    /**
     * Moves a peer VI's record out of the connected state without breaking the connection: a peer VI that left the
     * connection and told nobody, as its process dying in the middle of a disconnect would leave it.
     *
     * @param nic         the NIC that reaches the peer.
     * @param peerAddress the peer NIC's address.
     * @param viId        the peer VI.
     * @return whether the record was connected.
     */
    public static boolean leaveConnectionSilently(final Nic nic, final String peerAddress, final int viId)
    {
        return ((EngineNic)nic).peer(peerAddress).viRecord(viId)
            .compareAndSetState(ViRecordLayout.STATE_CONNECTED, ViRecordLayout.STATE_ERROR);
    }
}
