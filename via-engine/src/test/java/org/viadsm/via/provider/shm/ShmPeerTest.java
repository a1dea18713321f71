package org.viadsm.via.provider.shm;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.RegistrationTable;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * A peer's cached view of a registration must follow the registration table: a handle whose generation comes
 * back (after the generation counter wraps) names the region registered now, wherever it lies.
 */
@Timeout(30)
class ShmPeerTest
{
    private static final long T = 10_000_000_000L;

    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private Nic target;
    private Nic initiator;
    private ProtectionTag targetPtag;
    private ByteBuffer targetMemory;
    private MemoryRegion local;
    private Vi targetVi;
    private Vi initiatorVi;

    @AfterEach
    void tearDown()
    {
        if (null != initiator)
        {
            initiator.close();
        }
        if (null != target)
        {
            target.close();
        }
    }

    private void connect()
    {
        target = Nic.open("shm:pt" + tag);
        initiator = Nic.open("shm:pi" + tag);
        targetPtag = target.createPtag();
        final ProtectionTag initiatorPtag = initiator.createPtag();
        targetMemory = target.allocateMemory(8192);
        local = initiator.registerMemory(initiator.allocateMemory(4096), MemoryAttributes.remoteAccess(initiatorPtag));
        targetVi = target.createVi(new ViAttributes().ptag(targetPtag)
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION).enableRdmaWrite(true), null, null);
        initiatorVi = initiator.createVi(new ViAttributes().ptag(initiatorPtag)
            .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION).enableRdmaWrite(true), null, null);
        initiatorVi.connectPeerRequest(target.address(), 3, T);
        targetVi.connectPeerRequest(initiator.address(), 3, T);
        initiatorVi.connectPeerWait(T);
        targetVi.connectPeerWait(T);
    }

    private MemoryRegion registerTarget(final int offset, final int length, final MemoryAttributes attributes)
    {
        return target.registerMemory(targetMemory.slice(offset, length), attributes);
    }

    /**
     * RDMA-writes a long to offset 0 of a target handle and waits for the send's completion.
     *
     * @return the completion's status.
     */
    private int writeLong(final int handle, final long value)
    {
        local.buffer().putLong(0, value);
        initiatorVi.postSend(Descriptor.allocate(1).reset().rdmaWrite(handle, 0).addSegment(local, 0, 8));
        return initiatorVi.sendDone().status();
    }

    /**
     * Gives {@code handle} to the registration {@code now}, as the registration that finds the handle's generation
     * again after the counter wrapped would: the table entry of the handle's index describes {@code now}'s bytes.
     */
    private void reissue(final int handle, final MemoryRegion now)
    {
        final RegistrationTable table = ((EngineNic)target).area().table();
        final int from = table.handleIndex(now.handle());
        final int to = table.handleIndex(handle);
        table.publish(to, table.handleGeneration(handle), table.ptag(from), table.flags(from), table.length(from),
            table.allocationId(from), table.location(from));
    }

    @Test
    void rdmaWriteShouldLandInTheRegionThatReusedTheHandle()
    {
        connect();
        final MemoryRegion first = registerTarget(0, 4096, MemoryAttributes.remoteAccess(targetPtag));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, writeLong(first.handle(), 0x1111111111111111L));
        assertEquals(0x1111111111111111L, targetMemory.getLong(0));
        final int handle = first.handle();
        target.deregisterMemory(first);
        reissue(handle, registerTarget(4096, 4096, MemoryAttributes.remoteAccess(targetPtag)));

        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, writeLong(handle, 0x2222222222222222L));
        assertEquals(0x1111111111111111L, targetMemory.getLong(0), "the deregistered region must not change");
        assertEquals(0x2222222222222222L, targetMemory.getLong(4096), "the write lands where the handle points now");
    }

    /**
     * The initiator's last write reached the region, which a registration of the same bytes without remote rights
     * then replaced under the same handle: the next write is refused, as the full check would refuse it.
     */
    @Test
    void rdmaWriteShouldBeRefusedByTheRegistrationWithoutRightsThatReusedTheHandle()
    {
        connect();
        final MemoryRegion first = registerTarget(0, 4096, MemoryAttributes.remoteAccess(targetPtag));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, writeLong(first.handle(), 0x1111111111111111L));
        final int handle = first.handle();
        target.deregisterMemory(first);
        reissue(handle, registerTarget(0, 4096, MemoryAttributes.localOnly(targetPtag)));

        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR,
            writeLong(handle, 0x2222222222222222L));
        assertEquals(0x1111111111111111L, targetMemory.getLong(0), "a region without RDMA Write must not change");
    }

    @Test
    void sendShouldScatterIntoTheLongerRegionThatReusedTheHandle()
    {
        connect();
        final MemoryRegion first = registerTarget(0, 4096, MemoryAttributes.localOnly(targetPtag));
        final Descriptor recv = Descriptor.allocate(1);
        final Descriptor send = Descriptor.allocate(1);
        targetVi.postRecv(recv.reset().send().addSegment(first, 0, 64));
        initiatorVi.postSend(send.reset().send().addSegment(local, 0, 64));
        assertSame(send, initiatorVi.sendDone());
        assertSame(recv, targetVi.recvDone());
        final int handle = first.handle();
        target.deregisterMemory(first);
        reissue(handle, registerTarget(0, 8192, MemoryAttributes.localOnly(targetPtag)));

        local.buffer().putLong(0, 0x3333333333333333L);
        targetVi.postRecv(recv.reset().send().addSegment(handle, 4096, 64));
        initiatorVi.postSend(send.reset().send().addSegment(local, 0, 64));
        assertEquals(DONE, initiatorVi.sendDone().status());
        assertSame(recv, targetVi.recvWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE, recv.status());
        assertEquals(0x3333333333333333L, targetMemory.getLong(4096));
        assertEquals(ViState.CONNECTED, initiatorVi.state());
        assertEquals(ViState.CONNECTED, targetVi.state());
    }

    @Test
    void shouldDropItsMappingOfAnAllocationThePeerFreed()
    {
        connect();
        final MemoryRegion first = registerTarget(0, 4096, MemoryAttributes.remoteAccess(targetPtag));
        final Descriptor write = Descriptor.allocate(1);
        initiatorVi.postSend(write.reset().rdmaWrite(first.handle(), 0).addSegment(local, 0, 8));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, initiatorVi.sendDone().status());
        final ShmPeer peer = (ShmPeer)((EngineNic)initiator).peer(target.address());
        assertEquals(1, peer.mappedAllocations());
        target.deregisterMemory(first);
        target.freeMemory(targetMemory);

        targetMemory = target.allocateMemory(4096);
        final MemoryRegion second = registerTarget(0, 4096, MemoryAttributes.remoteAccess(targetPtag));
        initiatorVi.postSend(write.reset().rdmaWrite(second.handle(), 0).addSegment(local, 0, 8));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, initiatorVi.sendDone().status());
        assertEquals(1, peer.mappedAllocations(), "the freed allocation's mapping was dropped");
    }
}
