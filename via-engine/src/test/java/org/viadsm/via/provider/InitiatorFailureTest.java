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
 * a target that refuses the operation, and a peer VI that is gone.
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
        pair.viA.postSend(write);

        assertSame(write, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR, write.status());
        final String detail = "RDMA Write not enabled on the region: handle 0x" +
            Integer.toHexString(readOnly.handle()) + " address 16 length 8 on " + pair.b.nic.address();
        pair.a.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));
        assertEquals(List.of("RDMA_WRITE_PROTECTION@0: " + detail), pair.a.details());
        assertEquals(List.of("RDMA_WRITE_PROTECTION@0: " + detail), pair.b.details());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void postToAPeerViThatLeftCompletesFlushedAndNamesThePeerVi(final String scheme)
    {
        final NicContext context = new NicContext();
        // no periodic failure check after the connection's: the post finds the peer gone itself
        context.waits().failureCheckIntervalNs(3_600_000_000_000L);
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY, context);
        final String addressOfB = pair.b.nic.address();
        assertTrue(EngineTestAccess.leaveConnectionSilently(pair.a.nic, addressOfB, pair.viB.id()));
        final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(send);

        assertSame(send, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_SEND | DescriptorStatus.DESC_FLUSHED_ERROR, send.status());
        assertEquals(ViState.ERROR, pair.viA.state());
        pair.a.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertEquals(List.of("CONNECTION_LOST@0: peer VI 0 of " + addressOfB + " is gone"), pair.a.details());
    }
}
