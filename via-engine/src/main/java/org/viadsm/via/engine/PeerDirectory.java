package org.viadsm.via.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.agrona.CloseHelper;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * The peers a NIC has reached, by address. A peer is resolved once and reused while it stays open and alive;
 * a peer that closed or died is kept, not closed, until the NIC closes, because VIs may still hold it.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class PeerDirectory
{
    private final EngineNic nic;
    private final Map<String, PeerNic> peers = new HashMap<>();
    private final List<PeerNic> retired = new ArrayList<>();
    private boolean closed;

    PeerDirectory(final EngineNic nic)
    {
        this.nic = nic;
    }

    synchronized PeerNic peer(final String address)
    {
        if (closed)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "NIC " + nic.address() + " is closed");
        }
        final PeerNic cached = peers.get(address);
        if (null != cached && cached.isOpen() && cached.isAlive())
        {
            return cached;
        }
        final PeerNic resolved = nic.transport().resolvePeer(address);
        if (null != cached)
        {
            retired.add(cached);
        }
        peers.put(address, resolved);
        return resolved;
    }

    synchronized void close()
    {
        closed = true;
        CloseHelper.quietCloseAll(peers.values());
        CloseHelper.quietCloseAll(retired);
        peers.clear();
        retired.clear();
    }
}
