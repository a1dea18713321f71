package org.viadsm.via.provider;

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
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The initiator's checks of local data segments while descriptors alternate between regions: every segment is
 * checked against its own region (remembered per region, not only the last one), and a region deregistered after
 * it was remembered is refused while the others still pass.
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
}
