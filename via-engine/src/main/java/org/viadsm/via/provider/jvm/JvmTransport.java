package org.viadsm.via.provider.jvm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.NicGeometry;
import org.viadsm.via.engine.NicTransport;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;

/**
 * The transport of a jvm NIC: NICs of one JVM reach each other through a static registry of open NICs by name, and
 * every completer runs in this JVM, so it unparks the waiter.
 */
final class JvmTransport implements NicTransport
{
    private static final ConcurrentMap<String, EngineNic> REGISTRY = new ConcurrentHashMap<>();

    private final EngineNic nic;
    private final String name;

    private JvmTransport(final EngineNic nic, final String name)
    {
        this.nic = nic;
        this.name = name;
    }

    static EngineNic open(final String address, final NicContext context)
    {
        final String name = ProviderSupport.nameOf(address, JvmNicProvider.SCHEME);
        final NicGeometry geometry = ProviderSupport.geometry(context);
        final EngineNic existing = REGISTRY.get(name);
        if (null != existing && !existing.isClosed())
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " is already open");
        }
        final NicArea area = NicArea.create(
            new UnsafeBuffer(SparseMemory.mapUnlinked(context.shmDirectory(), geometry.areaLength())),
            geometry, ProviderSupport.newNicId(), ProcessHandle.current().pid(), 0);
        final EngineNic nic = new EngineNic(address, area,
            ProviderSupport.attributes(address, geometry, context.maxTransferSize()), context,
            NicConfiguration.WAIT_SPIN_NS_DEFAULT, engineNic -> new JvmTransport(engineNic, name));
        final boolean registered = null == existing ?
            null == REGISTRY.putIfAbsent(name, nic) : REGISTRY.replace(name, existing, nic);
        if (!registered)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " is already open");
        }
        return nic;
    }

    @Override
    public PeerNic resolvePeer(final String address)
    {
        final String peerName = ProviderSupport.peerNameOf(address, JvmNicProvider.SCHEME);
        final EngineNic target = REGISTRY.get(peerName);
        if (null == target || target.isClosed())
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "no open NIC at " + address + " in this JVM");
        }
        return new JvmPeer(target);
    }

    /**
     * Every completer of this NIC runs in its JVM and unparks the waiter, so waits sleep parked.
     */
    @Override
    public boolean wakesArmedWaiters()
    {
        return true;
    }

    @Override
    public void close()
    {
        REGISTRY.remove(name, nic);
    }
}
