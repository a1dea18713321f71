package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;
import org.viadsm.via.engine.Bell;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.NicArea;
import org.viadsm.via.engine.NicGeometry;
import org.viadsm.via.engine.NicTransport;
import org.viadsm.via.engine.PeerNic;
import org.viadsm.via.engine.ProviderSupport;
import org.viadsm.via.engine.SparseMemory;

/**
 * The transport of a shm NIC: its shared area and memory are files that processes on the host map, and its
 * sleeping waiters are woken by bells, UNIX-domain sockets beside the NIC file ({@link ShmBells}).
 */
final class ShmTransport implements NicTransport
{
    private static final AtomicLong UNIQUE = new AtomicLong();

    private final EngineNic nic;
    private final String name;
    private final Path directory;
    private final Path nicFile;
    private final MappedByteBuffer mapping;
    private final long pid;
    private final ShmBells bells;

    private ShmTransport(
        final EngineNic nic,
        final String name,
        final Path directory,
        final Path nicFile,
        final MappedByteBuffer mapping,
        final NicArea area,
        final NicGeometry geometry,
        final NicContext context)
    {
        this.nic = nic;
        this.name = name;
        this.directory = directory;
        this.nicFile = nicFile;
        this.mapping = mapping;
        this.pid = area.ownerPid();
        this.bells = context.shmWakeup() ?
            new ShmBells(directory, name, pid, maxBells(geometry.maxVis(), geometry.maxCqs())) : null;
    }

    /**
     * The most bells a NIC may make: one per queue a thread can sleep on.
     */
    static int maxBells(final int maxVis, final int maxCqs)
    {
        return maxVis + maxCqs;
    }

    static EngineNic open(final String address, final NicContext context)
    {
        final String name = ProviderSupport.nameOf(address, ShmNicProvider.SCHEME);
        final NicGeometry geometry = ProviderSupport.geometry(context);
        final Path directory = context.shmDirectory();
        final ShmLock lock = ShmLock.acquire(directory);
        try
        {
            ShmFiles.sweep(directory);
            return create(address, name, directory, geometry, context);
        }
        finally
        {
            lock.close();
        }
    }

    private static EngineNic create(
        final String address, final String name, final Path directory, final NicGeometry geometry,
        final NicContext context)
    {
        final long pid = ProcessHandle.current().pid();
        final Path nicFile = ShmFiles.nicFile(directory, name);
        final Path tmp = ShmFiles.tmpNicFile(directory, name, pid, UNIQUE.incrementAndGet());
        final MappedByteBuffer mapping = SparseMemory.mapNew(tmp, geometry.areaLength());
        try
        {
            final NicArea area = NicArea.create(
                new UnsafeBuffer(mapping), geometry, ProviderSupport.newNicId(), pid, ShmFiles.currentStartMs());
            link(nicFile, tmp, address);
            return new EngineNic(address, area,
                ProviderSupport.attributes(address, geometry, context.maxTransferSize()), context,
                NicConfiguration.WAIT_SPIN_NS_DEFAULT,
                nic -> new ShmTransport(nic, name, directory, nicFile, mapping, area, geometry, context));
        }
        catch (final RuntimeException ex)
        {
            SparseMemory.unmap(mapping);
            throw ex;
        }
        finally
        {
            ShmFiles.deleteQuietly(tmp);
        }
    }

    @Override
    public PeerNic resolvePeer(final String address)
    {
        final String peerName = ProviderSupport.peerNameOf(address, ShmNicProvider.SCHEME);
        final Path file = ShmFiles.nicFile(directory, peerName);
        if (!Files.exists(file))
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "no NIC at " + address + ": " + file + " does not exist");
        }
        final MappedByteBuffer peerMapping = SparseMemory.mapExisting(file, "NIC area of " + address);
        try
        {
            return new ShmPeer(address, peerName, directory, peerMapping,
                NicArea.attach(new UnsafeBuffer(peerMapping), address));
        }
        catch (final RuntimeException ex)
        {
            SparseMemory.unmap(peerMapping);
            throw ex;
        }
    }

    @Override
    public ByteBuffer mapMemory(final NicContext context, final long allocationId, final int length)
    {
        return SparseMemory.mapNew(ShmFiles.memFile(directory, name, pid, allocationId), length);
    }

    @Override
    public void unmapMemory(final long allocationId, final ByteBuffer buffer)
    {
        SparseMemory.unmap(buffer);
        ShmFiles.deleteQuietly(ShmFiles.memFile(directory, name, pid, allocationId));
    }

    @Override
    public boolean registersForeignMemory()
    {
        return false;
    }

    @Override
    public Bell acquireBell()
    {
        return null == bells ? null : bells.acquire();
    }

    @Override
    public void releaseBell(final Bell bell)
    {
        bells.release(bell);
    }

    /**
     * Rings this NIC's bells heard, for tests.
     */
    long bellWakeups()
    {
        return null == bells ? 0 : bells.heard();
    }

    /**
     * Bells this NIC made, for tests.
     */
    int bellsMade()
    {
        return null == bells ? 0 : bells.made();
    }

    @Override
    public void close()
    {
        try
        {
            if (null != bells)
            {
                bells.close();
            }
            deleteOwnFile();
        }
        finally
        {
            SparseMemory.unmap(mapping);
        }
    }

    /**
     * Deletes the NIC file if it is still this NIC's: once closed the file is stale, and another NIC may have put
     * its own in its place.
     */
    private void deleteOwnFile()
    {
        final ShmLock lock = ShmLock.acquire(directory);
        try
        {
            if (nic.nicId() == ShmFiles.nicIdOf(nicFile))
            {
                ShmFiles.deleteQuietly(nicFile);
            }
        }
        finally
        {
            lock.close();
        }
    }

    private static void link(final Path nicFile, final Path tmp, final String address)
    {
        for (int attempt = 0; attempt < 2; attempt++)
        {
            try
            {
                Files.createLink(nicFile, tmp);
                return;
            }
            catch (final FileAlreadyExistsException ex)
            {
                if (!ShmFiles.isStale(nicFile))
                {
                    throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " is open in a " +
                        "live process (" + nicFile + ")");
                }
                ShmFiles.deleteQuietly(nicFile);
            }
            catch (final IOException | UnsupportedOperationException ex)
            {
                throw new ViaException(ViaError.CATASTROPHIC, "cannot create " + nicFile, ex);
            }
        }
        throw new ViaException(ViaError.ERROR_RESOURCE, "address in use: " + address + " (" + nicFile + ")");
    }
}
