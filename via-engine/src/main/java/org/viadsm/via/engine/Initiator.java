package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
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
    private static final int[] OP_STATUS =
    {
        DescriptorStatus.OP_SEND, DescriptorStatus.OP_RDMA_WRITE, DescriptorStatus.OP_RDMA_READ,
        DescriptorStatus.OP_ATOMIC
    };

    private final EngineNic nic;
    private final EngineVi vi;
    private final ViRecord record;
    private final RegistrationTable table;
    private final SegmentList local;
    private final int maxSegments;
    private final int livenessMask;
    private final ReliabilityLevel reliability;
    private int posts;
    private String detail;

    Initiator(final EngineNic nic, final EngineVi vi)
    {
        this.nic = nic;
        this.vi = vi;
        this.record = vi.record();
        this.table = nic.area().table();
        this.maxSegments = nic.attributes().maxSegmentsPerDescriptor();
        this.local = new SegmentList(maxSegments);
        this.livenessMask = nic.livenessPeriod - 1;
        this.reliability = vi.reliability();
    }

    void execute(final Descriptor descriptor)
    {
        final int op = descriptor.operation();
        final int opStatus = OP_STATUS[op];
        final Connection connection = vi.connection();
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
        final int localError = checkLocal(descriptor, op);
        if (0 != localError)
        {
            local.reset();
            vi.completeSend(descriptor, DONE | localError | opStatus, 0);
            if (reliability.isReliable())
            {
                vi.breakConnection(null, "VI " + vi.id() + " of " + nic.address() + " broke the connection after " +
                    DescriptorStatus.toString(localError) + ": " + detail);
            }
            return;
        }
        final int length = descriptor.length();
        final int outcome = perform(descriptor, op, connection.access, length);
        local.reset();
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
        if (!reliability.isReliable())
        {
            vi.completeSend(descriptor, DONE | opStatus, length);
            return;
        }
        final boolean rdma = TargetAccess.RDMA_WRITE_PROTECTION == outcome ||
            TargetAccess.RDMA_READ_PROTECTION == outcome;
        final boolean carriesError = ReliabilityLevel.RELIABLE_RECEPTION == reliability ||
            DescriptorLayout.OP_RDMA_READ == op || DescriptorLayout.OP_ATOMIC == op;
        final int errorBit = rdma ? DescriptorStatus.RDMA_PROT_ERROR : DescriptorStatus.REMOTE_DESC_ERROR;
        if (carriesError)
        {
            vi.completeSend(descriptor, DONE | errorBit | opStatus, 0);
        }
        else
        {
            vi.completeSend(descriptor, DONE | opStatus, length);
        }
        vi.breakConnection(asyncError(outcome), targetDetail);
    }

    private int checkLocal(final Descriptor descriptor, final int op)
    {
        final int flags = record.flags();
        final boolean readLike = DescriptorLayout.OP_RDMA_READ == op || DescriptorLayout.OP_ATOMIC == op;
        if (DescriptorLayout.OP_ATOMIC == op && !nic.attributes().atomicsSupport() ||
            readLike && (!reliability.allowsRdmaRead() || 0 == (flags & RegistrationLayout.FLAG_RDMA_READ)) ||
            DescriptorLayout.OP_RDMA_WRITE == op && 0 == (flags & RegistrationLayout.FLAG_RDMA_WRITE))
        {
            detail = "operation " + op + " is not enabled on VI " + vi.id();
            return DescriptorStatus.FORMAT_ERROR;
        }
        final int count = descriptor.segmentCount();
        if (count > maxSegments || count > descriptor.maxSegments())
        {
            detail = "descriptor has " + count + " segments, the NIC takes " + maxSegments;
            return DescriptorStatus.FORMAT_ERROR;
        }
        if (DescriptorLayout.OP_ATOMIC == op &&
            (count < 1 || 8 != descriptor.segmentLength(0) || 0 != (descriptor.remoteAddress() & 7)))
        {
            detail = "atomic needs an 8-byte first segment and an 8-byte aligned remote address";
            return DescriptorStatus.FORMAT_ERROR;
        }
        final int length = descriptor.length();
        if (length < 0 || length > record.effectiveMaxTransfer())
        {
            detail = "length " + length + " exceeds the maximum transfer size " + record.effectiveMaxTransfer();
            return DescriptorStatus.LENGTH_ERROR;
        }
        return gather(descriptor, op, count, length);
    }

    private int gather(final Descriptor descriptor, final int op, final int count, final int length)
    {
        final int ptag = record.ptag();
        long total = 0;
        for (int i = 0; i < count; i++)
        {
            final int handle = descriptor.segmentHandle(i);
            final long address = descriptor.segmentAddress(i);
            final int segmentLength = descriptor.segmentLength(i);
            final int check = table.check(handle, ptag, 0, address, segmentLength);
            if (RegistrationTable.CHECK_OK != check)
            {
                detail = "data segment " + i + ": " + RegistrationTable.describe(check) + " (handle 0x" +
                    Integer.toHexString(handle) + ", address " + address + ", length " + segmentLength + ")";
                return DescriptorStatus.PROTECTION_ERROR;
            }
            final AtomicBuffer buffer =
                nic.localRegionBuffer(table.handleIndex(handle), table.handleGeneration(handle));
            if (null == buffer)
            {
                detail = "data segment " + i + ": memory deregistered during the check";
                return DescriptorStatus.PROTECTION_ERROR;
            }
            local.add(buffer, (int)address, segmentLength);
            total += segmentLength;
        }
        if (DescriptorLayout.OP_ATOMIC != op && length > total)
        {
            detail = "length " + length + " exceeds the " + total + " bytes of the data segments";
            return DescriptorStatus.LENGTH_ERROR;
        }
        return 0;
    }

    private boolean isPeerReachable(final Connection connection)
    {
        if (!connection.peer.isOpen())
        {
            return false;
        }
        return 0 != (++posts & livenessMask) || connection.peer.isAlive();
    }

    private static AsyncError asyncError(final int outcome)
    {
        switch (outcome)
        {
            case TargetAccess.RECV_QUEUE_EMPTY:
                return AsyncError.RECEIVE_QUEUE_EMPTY;
            case TargetAccess.RDMA_WRITE_PROTECTION:
                return AsyncError.RDMA_WRITE_PROTECTION;
            case TargetAccess.RDMA_READ_PROTECTION:
                return AsyncError.RDMA_READ_PROTECTION;
            default:
                return AsyncError.CONNECTION_LOST;
        }
    }
}
