package org.viadsm.via.provider;

import java.util.List;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.EngineTestAccess;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The statuses a failed send-queue descriptor completes with, on the providers whose posting thread executes it,
 * and the asynchronous errors with the exact details each failure reports: a descriptor that fails the local checks,
 * a target that refuses the operation, and a peer VI that is gone, for each operation kind (each has its own path
 * through the initiator).
 */
@Timeout(30)
class InitiatorFailureTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void localProtectionErrorBreaksAReliableConnectionNamingTheSegment(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion small = pair.a.register(0, 4096, true, true);
        final MemoryRegion target = pair.b.register(0, 4096, true, true);
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(small, 4092, 8);
        pair.viA.postSend(write);

        assertSame(write, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.PROTECTION_ERROR, write.status());
        assertEquals(0, write.length());
        Providers.awaitState(pair.viA, ViState.ERROR);
        Providers.awaitState(pair.viB, ViState.ERROR);
        pair.b.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertEquals(List.of("CONNECTION_LOST@0: VI 0 of " + pair.a.nic.address() +
            " broke the connection after PROTECTION_ERROR op=SEND: data segment 0: range out of the region's bounds" +
            " (handle 0x" + Integer.toHexString(small.handle()) + ", address 4092, length 8)"), pair.b.details());
        pair.deliverErrors();
        assertEquals(List.of(), pair.a.errors());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void targetRefusalReportsTheTargetsCheckAtBothEnds(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion readOnly = pair.b.register(0, 4096, false, true);
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(readOnly.handle(), 16)
            .addSegment(pair.a.region, 0, 8);
        assertRefusedAtBothEnds(write, DescriptorStatus.OP_RDMA_WRITE, "RDMA_WRITE_PROTECTION", "RDMA Write", readOnly);
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void targetRefusalOfAReadAndOfAnAtomicReportsTheTargetsCheckAtBothEnds(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion writeOnly = pair.b.register(0, 4096, true, false);
        final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(writeOnly.handle(), 16)
            .addSegment(pair.a.region, 0, 8);
        assertRefusedAtBothEnds(read, DescriptorStatus.OP_RDMA_READ, "RDMA_READ_PROTECTION", "RDMA Read", writeOnly);
        assertEquals(0, read.length());

        pair.close();
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion readOnly = pair.b.register(0, 4096, false, true);
        readOnly.buffer().putLong(8, 5);
        pair.a.region.buffer().putLong(0, -1);
        final Descriptor atomic = Descriptor.allocate(1).reset().fetchAndAdd(readOnly.handle(), 8, 1)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(atomic);

        assertSame(atomic, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC | DescriptorStatus.RDMA_PROT_ERROR, atomic.status());
        assertEquals(0, atomic.length());
        assertEquals(5, readOnly.buffer().getLong(8), "the target word is untouched");
        assertEquals(-1, pair.a.region.buffer().getLong(0), "no result lands");
        final String atomicDetail = "RDMA Write not enabled on the region: handle 0x" +
            Integer.toHexString(readOnly.handle()) + " address 8 length 8 on " + pair.b.nic.address();
        pair.a.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        assertEquals(List.of("RDMA_READ_PROTECTION@0: " + atomicDetail), pair.a.details());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void postsToAPeerViThatLeftCompleteFlushedAndNameThePeerVi(final String scheme)
    {
        final int[] ops = {
            DescriptorStatus.OP_SEND, DescriptorStatus.OP_RDMA_READ, DescriptorStatus.OP_RDMA_WRITE,
            DescriptorStatus.OP_ATOMIC};
        for (final int op : ops)
        {
            final NicContext context = new NicContext();
            // no periodic failure check after the connection's: the post finds the peer gone itself
            context.waits().failureCheckIntervalNs(3_600_000_000_000L);
            pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY, context);
            final String addressOfB = pair.b.nic.address();
            final int handle = pair.b.region.handle();
            assertTrue(EngineTestAccess.leaveConnectionSilently(pair.a.nic, addressOfB, pair.viB.id()));
            final Descriptor d = Descriptor.allocate(1).reset();
            if (DescriptorStatus.OP_SEND == op)
            {
                d.send();
            }
            else if (DescriptorStatus.OP_RDMA_READ == op)
            {
                d.rdmaRead(handle, 0);
            }
            else if (DescriptorStatus.OP_RDMA_WRITE == op)
            {
                d.rdmaWrite(handle, 0);
            }
            else
            {
                d.compareAndSwap(handle, 0, 0, 1);
            }
            pair.viA.postSend(d.addSegment(pair.a.region, 0, 8));

            assertSame(d, pair.viA.sendWait(T));
            assertEquals(DONE | op | DescriptorStatus.DESC_FLUSHED_ERROR, d.status(), DescriptorStatus.toString(op));
            assertEquals(ViState.ERROR, pair.viA.state());
            pair.a.awaitErrors(List.of("CONNECTION_LOST@0"));
            assertEquals(List.of("CONNECTION_LOST@0: peer VI 0 of " + addressOfB + " is gone"), pair.a.details());
            pair.close();
            pair = null;
        }
    }

    /**
     * Posts {@code d} (8 bytes at address 16 of a region of B that does not enable its operation) from A: it
     * completes with the target's protection error, and both ends report {@code error} with the target's detail,
     * which names the region.
     */
    private void assertRefusedAtBothEnds(
        final Descriptor d, final int op, final String error, final String operation, final MemoryRegion region)
    {
        pair.viA.postSend(d);

        assertSame(d, pair.viA.sendWait(T));
        assertEquals(DONE | op | DescriptorStatus.RDMA_PROT_ERROR, d.status());
        final String detail = operation + " not enabled on the region: handle 0x" +
            Integer.toHexString(region.handle()) + " address 16 length 8 on " + pair.b.nic.address();
        pair.a.awaitErrors(List.of(error + "@0"));
        pair.b.awaitErrors(List.of(error + "@0"));
        assertEquals(List.of(error + "@0: " + detail), pair.a.details());
        assertEquals(List.of(error + "@0: " + detail), pair.b.details());
    }
}
