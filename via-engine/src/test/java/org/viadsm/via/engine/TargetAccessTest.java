package org.viadsm.via.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The target side of an operation never throws: a fault in the target's memory (the JVM turns a SIGBUS on a mapped
 * file into an InternalError) completes a claimed receive with an error and reports {@link TargetAccess#TARGET_FAULT}.
 */
class TargetAccessTest
{
    private static final int REGION = 1;
    private static final int PTAG = 3;

    /** Memory whose every bulk write faults, as a page the file system can no longer back does. */
    private static final class FaultingBuffer extends UnsafeBuffer
    {
        FaultingBuffer(final int length)
        {
            super(BufferUtil.allocateDirectAligned(length, 64));
        }

        @Override
        public void putBytes(final int index, final DirectBuffer srcBuffer, final int srcIndex, final int length)
        {
            throw new InternalError("a fault occurred in an unsafe memory access operation");
        }
    }

    private static final class FaultingPeer extends PeerNic
    {
        private final AtomicBuffer memory = new FaultingBuffer(4096);

        FaultingPeer(final NicArea area)
        {
            super("test:faulting", area);
        }

        @Override
        public AtomicBuffer regionBuffer(final int index, final int generation)
        {
            return memory;
        }

        @Override
        public boolean isAlive()
        {
            return true;
        }
    }

    private final NicGeometry geometry = NicGeometryTest.small();
    private final NicArea area = NicArea.create(
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(geometry.areaLength(), 64)), geometry, 42, 1, 0);
    private final PeerNic peer = new FaultingPeer(area);
    private final ViRecord record = area.viRecord(1);
    private final RecvRing ring = area.recvRing(1);
    private TargetAccess access;
    private final int handle = area.table().handle(REGION, 1);
    private final SegmentList source = new SegmentList(1)
        .add(new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64)), 0, 4096);

    private void postReceive()
    {
        record.initialize(PTAG, 4, RegistrationLayout.FLAG_RDMA_WRITE | RegistrationLayout.FLAG_RDMA_READ, 4096,
            -1, -1);
        area.table().publish(REGION, 1, PTAG, RegistrationLayout.FLAG_RDMA_WRITE | RegistrationLayout.FLAG_RDMA_READ,
            4096, 0, 0);
        ring.post(0, Descriptor.allocate(1).reset().send().addSegment(handle, 0, 4096));
        access = new TargetAccess(peer, record, ring);
    }

    @Test
    void sendShouldCompleteTheClaimedReceiveWithAnErrorWhenTheTargetMemoryFaults()
    {
        postReceive();
        assertEquals(TargetAccess.TARGET_FAULT, access.send(source, 64, false, 0));
        assertEquals(1, record.recvConsumerIndex(), "the receive was claimed");
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.TRANSPORT_ERROR,
            ring.status(0));
        assertTrue(access.detail().contains("fault"), access.detail());
    }

    @Test
    void rdmaWriteWithImmediateDataShouldCompleteTheClaimedReceiveWithAnErrorWhenTheTargetMemoryFaults()
    {
        postReceive();
        assertEquals(TargetAccess.TARGET_FAULT, access.rdmaWrite(handle, 0, source, 64, true, 7));
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_REMOTE_RDMA_WRITE | DescriptorStatus.TRANSPORT_ERROR,
            ring.status(0));
    }

    @Test
    void rdmaOperationsShouldReportTheFaultInsteadOfThrowing()
    {
        postReceive();
        assertEquals(TargetAccess.TARGET_FAULT, access.rdmaWrite(handle, 0, source, 64, false, 0));
        final SegmentList destination = new SegmentList(1).add(new FaultingBuffer(64), 0, 64);
        assertEquals(TargetAccess.TARGET_FAULT, access.rdmaRead(handle, 0, destination, 64));
        assertEquals(0, record.recvConsumerIndex(), "no receive was consumed");
    }

    @Test
    void postSendShouldCompleteWithATransportErrorAndBreakTheConnectionWhenTheTargetMemoryFaults()
    {
        postReceive();
        final List<String> errors = new CopyOnWriteArrayList<>();
        try (Nic nic = Nic.open("jvm:tfa" + Long.toString(ProcessHandle.current().pid(), 36) + System.nanoTime()))
        {
            nic.errorHandler((error, vi, detail) -> errors.add(error.name()));
            final ProtectionTag ptag = nic.createPtag();
            final EngineVi vi = (EngineVi)nic.createVi(new ViAttributes().ptag(ptag)
                .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION), null, null);
            final MemoryRegion local = nic.registerMemory(nic.allocateMemory(4096), MemoryAttributes.localOnly(ptag));
            record.establish(ViRecordLayout.STATE_IDLE, ((EngineNic)nic).nicId(), vi.id(), 4096);
            vi.record().beginConnect(1);
            vi.connection().onConnected(peer, record.viId(), peer.address());
            vi.record().establish(ViRecordLayout.STATE_CONNECT_PENDING, peer.nicId(), record.viId(), 4096);

            final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(local, 0, 64);
            vi.postSend(send);
            assertSame(send, vi.sendDone());
            assertEquals(DescriptorStatus.DONE | DescriptorStatus.TRANSPORT_ERROR, send.status());
            assertEquals(ViState.ERROR, vi.state());
            assertEquals(ViRecordLayout.STATE_ERROR, record.state(), "the target VI is broken too");
            assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.TRANSPORT_ERROR,
                ring.status(0));
            vi.sendDone();
            assertEquals(List.of("RDMA_TRANSPORT"), errors);
        }
    }
}
