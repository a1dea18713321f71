package org.viadsm.via.provider;

import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The initiator's checks of local data segments while descriptors alternate between regions: every segment is
 * checked against its own region (remembered per region, not only the last one), and a region deregistered after
 * it was remembered is refused while the others still pass; an atomic off the common case of its own check (two
 * segments, a region deregistered after it was remembered, an unaligned remote address) is checked as any
 * descriptor, and so is an RDMA Read off its own (two segments, a length beyond its segment, a region deregistered
 * after it was remembered, a VI whose reads are not enabled).
 */
@Timeout(30)
class LocalChecksTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;
    private static final int REGIONS = 3;
    private static final int REGION_LENGTH = 4096;

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void segmentsAlternatingBetweenRegionsAreEachCheckedAgainstTheirRegion(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.UNRELIABLE);
        final MemoryRegion[] locals = new MemoryRegion[REGIONS];
        for (int r = 0; r < REGIONS; r++)
        {
            locals[r] = pair.a.register(r * REGION_LENGTH, REGION_LENGTH, false, false);
            for (int k = 0; k < REGION_LENGTH; k++)
            {
                pair.a.memory.put(r * REGION_LENGTH + k, (byte)(r * 31 + k));
            }
        }
        final MemoryRegion target = pair.b.register(32 * 1024, 16 * 1024, true, true);
        final int rounds = 60;
        for (int n = 0; n < rounds; n++)
        {
            final int r = n % REGIONS;
            final int other = (n + 1) % REGIONS;
            // two segments of two regions, 8 bytes each, at offsets that move with the round
            final Descriptor write = Descriptor.allocate(2).reset().rdmaWrite(target.handle(), 16L * n)
                .addSegment(locals[r], 8 * n, 8).addSegment(locals[other], 8 * n + 8, 8);
            pair.viA.postSend(write);
            assertSame(write, pair.viA.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, write.status());
            assertEquals(16, write.length());
        }
        for (int n = 0; n < rounds; n++)
        {
            for (int k = 0; k < 8; k++)
            {
                assertEquals((byte)(n % REGIONS * 31 + 8 * n + k), pair.b.memory.get(32 * 1024 + 16 * n + k));
                assertEquals((byte)((n + 1) % REGIONS * 31 + 8 * n + 8 + k),
                    pair.b.memory.get(32 * 1024 + 16 * n + 8 + k));
            }
        }

        pair.a.nic.deregisterMemory(locals[1]);
        final Descriptor refused = Descriptor.allocate(2).reset().rdmaWrite(target.handle(), 0)
            .addSegment(locals[0], 0, 8).addSegment(locals[1], 0, 8);
        pair.viA.postSend(refused);
        assertSame(refused, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.PROTECTION_ERROR, refused.status());
        assertEquals(0, refused.length());

        final Descriptor still = Descriptor.allocate(2).reset().rdmaWrite(target.handle(), 8192)
            .addSegment(locals[2], 100, 8).addSegment(locals[0], 200, 8);
        pair.viA.postSend(still);
        assertSame(still, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, still.status());
        for (int k = 0; k < 8; k++)
        {
            assertEquals((byte)(2 * 31 + 100 + k), pair.b.memory.get(32 * 1024 + 8192 + k));
            assertEquals((byte)(200 + k), pair.b.memory.get(32 * 1024 + 8192 + 8 + k));
        }
        assertEquals(ViState.CONNECTED, pair.viA.state());
        pair.deliverErrors();
        assertEquals(0, pair.a.errors().size());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void anAtomicOffTheCommonCaseIsCheckedLikeAnyDescriptor(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = pair.b.register(32 * 1024, 4096, true, true);
        target.buffer().putLong(0, 11);
        final MemoryRegion local = pair.a.register(0, 4096, false, false);
        local.buffer().putLong(24, -1);
        final Descriptor two = Descriptor.allocate(2);
        pair.viA.postSend(two.reset().fetchAndAdd(target.handle(), 0, 3).addSegment(local, 16, 8)
            .addSegment(local, 24, 8));
        assertSame(two, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, two.status(), "two segments: the first takes the result");
        assertEquals(8, two.length());
        assertEquals(11, local.buffer().getLong(16));
        assertEquals(-1, local.buffer().getLong(24));

        final MemoryRegion other = pair.a.register(REGION_LENGTH, REGION_LENGTH, false, false);
        final Descriptor atomic = Descriptor.allocate(1);
        pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 0, 1).addSegment(other, 0, 8));
        assertSame(atomic, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, atomic.status());
        assertEquals(14, other.buffer().getLong(0), "a region checked once, remembered");
        pair.a.nic.deregisterMemory(other);
        pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 0, 1).addSegment(other, 0, 8));
        assertSame(atomic, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC | DescriptorStatus.PROTECTION_ERROR, atomic.status(),
            "a region deregistered after it was remembered");
        assertEquals(0, atomic.length());
        assertEquals(15, target.buffer().getLong(0));
        assertBrokenAfterDeregistered(other);

        pair.close();
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion fresh = pair.b.register(0, 4096, true, true);
        pair.viA.postSend(atomic.reset().fetchAndAdd(fresh.handle(), 4, 1).addSegment(pair.a.region, 0, 8));
        assertSame(atomic, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC | DescriptorStatus.FORMAT_ERROR, atomic.status(),
            "a remote address not 8-byte aligned");
        assertEquals(0, fresh.buffer().getLong(0));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void anRdmaReadOffTheCommonCaseIsCheckedLikeAnyDescriptor(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = pair.b.register(32 * 1024, 4096, true, true);
        for (int k = 0; k < 4096; k++)
        {
            target.buffer().putByte(k, (byte)(k * 7));
        }
        final MemoryRegion local = pair.a.register(0, 4096, false, false);
        final Descriptor read = Descriptor.allocate(2);
        for (int n = 0; n < 3; n++)
        {
            // the first checked against the table, the next ones against the region remembered
            pair.viA.postSend(read.reset().rdmaRead(target.handle(), 64L * n).addSegment(local, 100 * n, 64));
            assertSame(read, pair.viA.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, read.status());
            assertEquals(64, read.length());
            for (int k = 0; k < 64; k++)
            {
                assertEquals((byte)((64 * n + k) * 7), local.buffer().getByte(100 * n + k));
            }
        }

        pair.viA.postSend(read.reset().rdmaRead(target.handle(), 1024).addSegment(local, 2048, 8)
            .addSegment(local, 3072, 8));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, read.status(), "two segments, scattered in order");
        assertEquals(16, read.length());
        for (int k = 0; k < 8; k++)
        {
            assertEquals((byte)((1024 + k) * 7), local.buffer().getByte(2048 + k));
            assertEquals((byte)((1032 + k) * 7), local.buffer().getByte(3072 + k));
        }

        pair.viA.postSend(read.reset().rdmaRead(target.handle(), 0).addSegment(local, 0, 8).length(16));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.LENGTH_ERROR, read.status(),
            "a length beyond its one segment");
        assertEquals(0, read.length());
        Providers.awaitState(pair.viB, ViState.ERROR);
        pair.b.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertEquals(List.of("CONNECTION_LOST@0: VI 0 of " + pair.a.nic.address() +
            " broke the connection after LENGTH_ERROR op=SEND: length 16 exceeds the 8 bytes of the data segments"),
            pair.b.details());

        pair.close();
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion fresh = pair.b.register(0, 4096, true, true);
        fresh.buffer().putLong(0, 42);
        final MemoryRegion other = pair.a.register(REGION_LENGTH, REGION_LENGTH, false, false);
        pair.viA.postSend(read.reset().rdmaRead(fresh.handle(), 0).addSegment(other, 0, 8));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, read.status());
        assertEquals(42, other.buffer().getLong(0), "a region checked once, remembered");
        pair.a.nic.deregisterMemory(other);
        pair.viA.postSend(read.reset().rdmaRead(fresh.handle(), 0).addSegment(other, 0, 8));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.PROTECTION_ERROR, read.status(),
            "a region deregistered after it was remembered");
        assertEquals(0, read.length());
        assertBrokenAfterDeregistered(other);

        pair.close();
        pair = new Pair(scheme, ReliabilityLevel.UNRELIABLE);
        final MemoryRegion unreliable = pair.b.register(0, 4096, true, true);
        pair.viA.postSend(read.reset().rdmaRead(unreliable.handle(), 0).addSegment(pair.a.region, 0, 8));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.FORMAT_ERROR, read.status(),
            "RDMA Read on an unreliable VI");
        assertEquals(ViState.CONNECTED, pair.viA.state(), "an unreliable VI stays connected");
    }

    /**
     * The target side's VI went to ERROR because the initiator broke the connection after a protection error on its
     * data segment 0, in {@code deregistered}.
     */
    private void assertBrokenAfterDeregistered(final MemoryRegion deregistered)
    {
        Providers.awaitState(pair.viB, ViState.ERROR);
        pair.b.awaitErrors(List.of("CONNECTION_LOST@0"));
        final String detail = pair.b.details().get(0);
        assertTrue(detail.startsWith("CONNECTION_LOST@0: VI 0 of " + pair.a.nic.address() +
            " broke the connection after PROTECTION_ERROR op=SEND: data segment 0: "), detail);
        assertTrue(detail.endsWith(" (handle 0x" + Integer.toHexString(deregistered.handle()) +
            ", address 0, length 8)"), detail);
    }
}
