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
}
