package org.viadsm.via.provider.ucx;

import java.util.concurrent.TimeUnit;

import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

/**
 * Two ucx NICs of one process, driven by one thread, in a JVM whose {@code UCX_TLS} picks UCX's transports
 * ({@link UcxOneProcessTest}): both VIs request the connection, then each waits for it in turn, so that only one
 * NIC's wait runs at a time while the other NIC's side of the setup (its mirror filled by a put, which over UCX's tcp
 * transport its target takes only while its worker progresses) must still go on. Then an RDMA Write, an RDMA Read
 * and a fetch-and-add on the second NIC's memory, and both NICs close. Prints {@code OK <word read> <word fetched>
 * <word after>}, or the failure.
 */
public final class OneProcessMain
{
    private static final long T = TimeUnit.SECONDS.toNanos(20);

    private OneProcessMain()
    {
    }

    /**
     * Runs the two NICs.
     *
     * @param args none.
     */
    public static void main(final String[] args)
    {
        try (Nic initiator = Nic.open("ucx:127.0.0.1:0", new NicContext());
             Nic target = Nic.open("ucx:127.0.0.1:0", new NicContext()))
        {
            final ProtectionTag localTag = initiator.createPtag();
            final ProtectionTag remoteTag = target.createPtag();
            final MemoryRegion local = initiator.registerMemory(initiator.allocateMemory(4096),
                MemoryAttributes.remoteAccess(localTag));
            final MemoryRegion remote = target.registerMemory(target.allocateMemory(4096),
                MemoryAttributes.remoteAccess(remoteTag));
            final Vi vi = initiator.createVi(attributes(localTag), null, null);
            final Vi peer = target.createVi(attributes(remoteTag), null, null);
            vi.connectPeerRequest(target.address(), 7, T);
            peer.connectPeerRequest(initiator.address(), 7, T);
            vi.connectPeerWait(T);
            peer.connectPeerWait(T);
            final Descriptor descriptor = Descriptor.allocate(1);
            local.buffer().putLong(0, 40);
            complete(vi, descriptor.reset().rdmaWrite(remote.handle(), 64).addSegment(local, 0, 8));
            complete(vi, descriptor.reset().rdmaRead(remote.handle(), 64).addSegment(local, 8, 8));
            complete(vi, descriptor.reset().fetchAndAdd(remote.handle(), 64, 2).addSegment(local, 16, 8));
            System.out.println("OK " + local.buffer().getLong(8) + " " + local.buffer().getLong(16) + " " +
                remote.buffer().getLong(64));
        }
        catch (final RuntimeException ex)
        {
            System.out.println(ex);
        }
    }

    private static ViAttributes attributes(final ProtectionTag tag)
    {
        return new ViAttributes().ptag(tag).reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION)
            .enableRdmaWrite(true).enableRdmaRead(true);
    }

    private static void complete(final Vi vi, final Descriptor descriptor)
    {
        vi.postSend(descriptor);
        if (descriptor != vi.sendWait(T) || DescriptorStatus.isError(descriptor.status()))
        {
            throw new IllegalStateException(DescriptorStatus.toString(descriptor.status()));
        }
    }
}
