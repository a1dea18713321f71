package org.viadsm.via.provider.jvm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.NicContext;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.NicGeometry;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;

/**
 * A NIC reachable by the other NICs of its JVM through a static registry of open NICs by name.
 */
final class JvmNic extends EngineNic
{
    private static final ConcurrentMap<String, JvmNic> REGISTRY = new ConcurrentHashMap<>();

    private final String name;

    private JvmNic(
        final String address, final String name, final NicArea area, final NicGeometry geometry,
        final NicContext context)
    {
        super(address, area, ProviderSupport.attributes(address, geometry, context.maxTransferSize()), context);
        this.name = name;
    }

    static JvmNic open(final String address, final NicContext context)
    {
        final String name = ProviderSupport.nameOf(address, JvmNicProvider.SCHEME);
        final NicGeometry geometry = ProviderSupport.geometry(context);
        final JvmNic existing = REGISTRY.get(name);
        if (null != existing && !existing.isClosed())
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " is already open");
        }
        final NicArea area = NicArea.create(
            new UnsafeBuffer(SparseMemory.mapUnlinked(context.shmDirectory(), geometry.areaLength())),
            geometry, ProviderSupport.newNicId(), ProcessHandle.current().pid(), 0);
        final JvmNic nic = new JvmNic(address, name, area, geometry, context);
        final boolean registered = null == existing ?
            null == REGISTRY.putIfAbsent(name, nic) : REGISTRY.replace(name, existing, nic);
        if (!registered)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " is already open");
        }
        return nic;
    }

    @Override
    protected PeerNic resolvePeer(final String address)
    {
        final String peerName = ProviderSupport.peerNameOf(address, JvmNicProvider.SCHEME);
        final JvmNic target = REGISTRY.get(peerName);
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
    protected boolean wakesArmedWaiters()
    {
        return true;
    }

    @Override
    protected void onClose()
    {
        REGISTRY.remove(name, this);
    }
}
