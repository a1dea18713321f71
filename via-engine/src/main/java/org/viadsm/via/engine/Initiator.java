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
        final int op = descriptor.operation();
        final int opStatus = LocalAccess.opStatus(op);
        final PeerVi connection = vi.peerVi();
        if (ViRecordLayout.STATE_CONNECTED != record.state() || null == connection)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
            return;
        }
        if (!isPeerReachable(connection) || !connection.peerRecord.isConnectedTo(nic.nicId(), vi.id()))
        {
            vi.onPeerLost("peer VI " + connection.peerViId + " of " + connection.peer.address() + " is gone");
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
            return;
        }
        final int localError = DescriptorLayout.OP_ATOMIC == op ? localAccess.checkAtomic(descriptor) :
            localAccess.check(descriptor, op);
        if (0 != localError)
        {
            vi.completeSend(descriptor, DONE | localError | opStatus, 0);
            if (reliability.isReliable())
            {
                vi.breakConnection(null, "VI " + vi.id() + " of " + nic.address() + " broke the connection after " +
                    DescriptorStatus.toString(localError) + ": " + localAccess.detail());
            }
            return;
        }
        final int length = descriptor.length();
        final int outcome = perform(descriptor, op, connection.access, length);
        localAccess.reset();
        if (TargetAccess.OK == outcome)
        {
            vi.completeSend(descriptor, DONE | opStatus, DescriptorLayout.OP_ATOMIC == op ? 8 : length);
        }
        else if (TargetAccess.NOT_CONNECTED == outcome)
        {
            vi.onPeerLost(connection.access.detail());
            vi.completeSend(descriptor, DONE | DescriptorStatus.DESC_FLUSHED_ERROR | opStatus, 0);
        }
        else if (TargetAccess.TARGET_FAULT == outcome)
        {
            vi.completeSend(descriptor, DONE | DescriptorStatus.TRANSPORT_ERROR | opStatus, 0);
            vi.breakConnection(AsyncError.RDMA_TRANSPORT, connection.access.detail());
        }
        else
        {
            onRemoteFailure(descriptor, op, opStatus, outcome, length, connection.access.detail());
        }
    }

    private int perform(final Descriptor descriptor, final int op, final TargetAccess access, final int length)
    {
        switch (op)
        {
            case DescriptorLayout.OP_SEND:
                return access.send(local, length, descriptor.hasImmediateData(), descriptor.immediateData());
            case DescriptorLayout.OP_RDMA_WRITE:
                return access.rdmaWrite(descriptor.remoteHandle(), descriptor.remoteAddress(), local, length,
                    descriptor.hasImmediateData(), descriptor.immediateData());
            case DescriptorLayout.OP_RDMA_READ:
                return access.rdmaRead(descriptor.remoteHandle(), descriptor.remoteAddress(), local, length);
            default:
                final boolean add = (descriptor.control() & DescriptorLayout.CONTROL_ATOMIC_ADD) != 0;
                final int outcome = access.atomic(descriptor.remoteHandle(), descriptor.remoteAddress(), add,
                    descriptor.compareOrAdd(), descriptor.swapValue());
                if (TargetAccess.OK == outcome)
                {
                    local.buffer(0).putLong(local.offset(0), access.atomicResult());
                }
                return outcome;
        }
    }

    private void onRemoteFailure(
        final Descriptor descriptor,
        final int op,
        final int opStatus,
        final int outcome,
        final int length,
        final String targetDetail)
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
            vi.breakConnection(TargetAccess.asyncError(outcome), targetDetail);
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
