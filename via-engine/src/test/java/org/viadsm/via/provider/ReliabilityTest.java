package org.viadsm.via.provider;

import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_WRITE;

@Timeout(30)
class ReliabilityTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;

    private MemoryRegion readOnlyTarget()
    {
        pair.b.memory.put(0, (byte)0x11);
        return pair.b.register(0, 4096, false, true);
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void unreliableDropsRefusedRdmaWriteSilently(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.UNRELIABLE);
        final MemoryRegion target = readOnlyTarget();
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(write);
        assertSame(write, pair.viA.sendDone());
        assertEquals(DONE | OP_RDMA_WRITE, write.status());
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 64, 8);
        pair.viB.postRecv(recv);
        pair.viA.postSend(Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 8));
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(0x11, pair.b.memory.get(0));
        pair.deliverErrors();
        assertTrue(pair.a.errors().isEmpty());
        assertTrue(pair.b.errors().isEmpty());
        assertEquals(ViState.CONNECTED, pair.viA.state());
        assertEquals(ViState.CONNECTED, pair.viB.state());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void unreliableViRefusesRdmaRead(final String scheme)
    {
        try (Node node = new Node(Providers.address(scheme)))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> node.vi(
                new ViAttributes().ptag(node.ptag).reliabilityLevel(ReliabilityLevel.UNRELIABLE), null, null));
            assertTrue(ex.getMessage().contains("RDMA Read"), ex.getMessage());
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void reliableDeliveryCompletesInitiatorAndReportsTargetErrorAtBothEnds(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = readOnlyTarget();
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 64, 8);
        pair.viB.postRecv(recv);
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(write);
        assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendDone().status());
        Providers.awaitState(pair.viA, ViState.ERROR);
        Providers.awaitState(pair.viB, ViState.ERROR);
        assertEquals(0x11, pair.b.memory.get(0));
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, recv.status());
        pair.a.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));

        final Descriptor later = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(later);
        assertEquals(DONE | OP_RDMA_WRITE | DescriptorStatus.DESC_FLUSHED_ERROR, pair.viA.sendDone().status());
        final Descriptor laterRecv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 64, 8);
        pair.viB.postRecv(laterRecv);
        assertSame(laterRecv, pair.viB.recvDone());
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, laterRecv.status());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void reliableReceptionCarriesTheErrorOnTheDescriptor(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = readOnlyTarget();
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(write);
        assertEquals(DONE | OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(0, write.length());
        assertEquals(0x11, pair.b.memory.get(0));
        assertEquals(ViState.ERROR, pair.viA.state());
        assertEquals(ViState.ERROR, pair.viB.state());
    }
}
