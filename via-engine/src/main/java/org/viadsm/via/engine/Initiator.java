package org.viadsm.via.engine;

import org.viadsm.via.AsyncError;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.descriptor.DescriptorStatus;

import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * Executes a VI's send-queue descriptors inline, on the posting thread: checks the descriptor against the local
 * registration table, then performs the operation on the target through the connection's {@link TargetAccess},
 * and completes the descriptor with the status its reliability level calls for.
 * <p>
 * Each operation kind has a path of its own ({@link #executeRead}, {@link #executeWrite}, {@link #executeSend},
 * {@link #executeAtomic}), small enough to be inlined into the code that posts it, with the failures out of line.
 * Which kinds that code carries is decided by the profile of the switch in {@link #execute}, which every post of
 * this JVM passes through, whatever its caller: in a DSM node's JVM, code C2 compiles for the posting path
 * ({@code EngineVi.postSend}, {@code SendQueue.post}, this method), which the port's page fetch calls too, carries
 * every kind posted there so far (OCEAN's nodes: the read and the atomic path inlined, the write called), and
 * leaves out the kinds never posted, to be deoptimized at the first of them.
 * <p>
 * <b>Note:</b> not thread-safe; used by the VI's send-queue thread.
 */
final class Initiator
{
    private final EngineNic nic;
    private final ViConnection vi;
    private final ViRecord record;
    private final LocalAccess localAccess;
    private final SegmentList local;
    private final int livenessMask;
    private final ReliabilityLevel reliability;
    private int posts;

    Initiator(final EngineNic nic, final ViConnection vi)
    {
        this.nic = nic;
        this.vi = vi;
        this.record = vi.record();
        this.localAccess = new LocalAccess(nic, vi);
        this.local = localAccess.local();
        this.livenessMask = nic.livenessPeriod - 1;
        this.reliability = vi.reliability();
    }

    void execute(final Descriptor descriptor)
    {
        switch (descriptor.operation())
        {
            case DescriptorLayout.OP_RDMA_READ:
                executeRead(descriptor);
                break;
            case DescriptorLayout.OP_RDMA_WRITE:
                executeWrite(descriptor);
                break;
            case DescriptorLayout.OP_SEND:
                executeSend(descriptor);
                break;
            default:
                executeAtomic(descriptor);
                break;
        }
    }

    private void executeRead(final Descriptor descriptor)
    {
        final PeerVi connection = connectedPeer(descriptor, DescriptorStatus.OP_RDMA_READ);
        if (null == connection)
        {
            return;
        }
        final int localError = localAccess.checkRead(descriptor);
        if (0 != localError)
        {
            onLocalError(descriptor, DescriptorStatus.OP_RDMA_READ, localError);
            return;
        }
        final int length = descriptor.length();
        final TargetAccess access = connection.access;
        final int outcome = access.rdmaRead(descriptor.remoteHandle(), descriptor.remoteAddress(), local, length);
        localAccess.reset();
        complete(descriptor, DescriptorLayout.OP_RDMA_READ, DescriptorStatus.OP_RDMA_READ, outcome, length, length,
            access);
    }

    private void executeWrite(final Descriptor descriptor)
    {
        final PeerVi connection = connectedPeer(descriptor, DescriptorStatus.OP_RDMA_WRITE);
        if (null == connection)
        {
            return;
        }
        final int localError = localAccess.check(descriptor, DescriptorLayout.OP_RDMA_WRITE);
        if (0 != localError)
        {
            onLocalError(descriptor, DescriptorStatus.OP_RDMA_WRITE, localError);
            return;
        }
        final int length = descriptor.length();
        final TargetAccess access = connection.access;
        final int outcome = access.rdmaWrite(descriptor.remoteHandle(), descriptor.remoteAddress(), local, length,
            descriptor.hasImmediateData(), descriptor.immediateData());
        localAccess.reset();
        complete(descriptor, DescriptorLayout.OP_RDMA_WRITE, DescriptorStatus.OP_RDMA_WRITE, outcome, length, length,
            access);
    }

    private void executeSend(final Descriptor descriptor)
    {
        final PeerVi connection = connectedPeer(descriptor, DescriptorStatus.OP_SEND);
        if (null == connection)
        {
            return;
        }
        final int localError = localAccess.check(descriptor, DescriptorLayout.OP_SEND);
        if (0 != localError)
        {
            onLocalError(descriptor, DescriptorStatus.OP_SEND, localError);
            return;
        }
        final int length = descriptor.length();
        final TargetAccess access = connection.access;
        final int outcome = access.send(local, length, descriptor.hasImmediateData(), descriptor.immediateData());
        localAccess.reset();
        complete(descriptor, DescriptorLayout.OP_SEND, DescriptorStatus.OP_SEND, outcome, length, length, access);
    }

    private void executeAtomic(final Descriptor descriptor)
    {
        final PeerVi connection = connectedPeer(descriptor, DescriptorStatus.OP_ATOMIC);
        if (null == connection)
        {
            return;
        }
        final int localError = localAccess.checkAtomic(descriptor);
        if (0 != localError)
        {
            onLocalError(descriptor, DescriptorStatus.OP_ATOMIC, localError);
            return;
        }
        final int length = descriptor.length();
        final TargetAccess access = connection.access;
        final boolean add = (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) != 0;
        final int outcome = access.atomic(descriptor.remoteHandle(), descriptor.remoteAddress(), add,
            descriptor.compareOrAdd(), descriptor.swapValue());
        if (TargetAccess.OK == outcome)
        {
            local.buffer(0).putLong(local.offset(0), access.atomicResult());
        }
        localAccess.reset();
        complete(descriptor, DescriptorLayout.OP_ATOMIC, DescriptorStatus.OP_ATOMIC, outcome, length, 8, access);
    }

    /**
     * The connection a descriptor is executed on, or null once the descriptor has been completed as flushed: the VI
     * is not connected, or its peer is gone (then the VI learns so).
     */
    private PeerVi connectedPeer(final Descriptor descriptor, final int opStatus)
    {
        final PeerVi connection = vi.peerVi();
        if (ViRecordLayout.STATE_CONNECTED != record.state() || null == connection)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
            return null;
        }
        if (!isPeerReachable(connection) || !connection.peerRecord.isConnectedTo(nic.nicId(), vi.id()))
        {
            onPeerGone(descriptor, opStatus, connection);
            return null;
        }
        return connection;
    }

    private void complete(
        final Descriptor descriptor,
        final int op,
        final int opStatus,
        final int outcome,
        final int length,
        final int transferred,
        final TargetAccess access)
    {
        if (TargetAccess.OK == outcome)
        {
            vi.completeSend(descriptor, DONE | opStatus, transferred);
        }
        else
        {
            onTargetFailure(descriptor, op, opStatus, outcome, length, access);
        }
    }

    private void onPeerGone(final Descriptor descriptor, final int opStatus, final PeerVi connection)
    {
        vi.onPeerLost("peer VI " + connection.peerViId + " of " + connection.peer.address() + " is gone");
        vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
    }

    private void onLocalError(final Descriptor descriptor, final int opStatus, final int localError)
    {
        vi.completeSend(descriptor, DONE | localError | opStatus, 0);
        if (reliability.isReliable())
        {
            vi.breakConnection(null, "VI " + vi.id() + " of " + nic.address() + " broke the connection after " +
                DescriptorStatus.toString(localError) + ": " + localAccess.detail());
        }
    }

    private void onTargetFailure(
        final Descriptor descriptor,
        final int op,
        final int opStatus,
        final int outcome,
        final int length,
        final TargetAccess access)
    {
        if (TargetAccess.NOT_CONNECTED == outcome)
        {
            vi.onPeerLost(access.detail());
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
        }
        else if (TargetAccess.TARGET_FAULT == outcome)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.TRANSPORT_ERROR | opStatus, 0);
            vi.breakConnection(AsyncError.RDMA_TRANSPORT, access.detail());
        }
        else
        {
            final int errorBit = TargetAccess.initiatorError(reliability, op, outcome);
            if (0 != errorBit)
            {
                vi.completeSend(descriptor, DONE | errorBit | opStatus, 0);
            }
            else
            {
                vi.completeSend(descriptor, DONE | opStatus, length);
            }
            if (reliability.isReliable())
            {
                vi.breakConnection(TargetAccess.asyncError(outcome), access.detail());
            }
        }
    }

    private boolean isPeerReachable(final PeerVi connection)
    {
        if (!connection.peer.isOpen())
        {
            return false;
        }
        return 0 != (++posts & livenessMask) || connection.peer.isAlive();
    }
}
