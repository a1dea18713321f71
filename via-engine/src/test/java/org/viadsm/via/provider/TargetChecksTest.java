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
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The target's checks while operations alternate between target regions: every operation is checked against its own
 * region (remembered per region, not only the last one), and a target region deregistered after it was remembered is
 * refused while the others still pass.
 */
@Timeout(30)
class TargetChecksTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;
    private static final int REGIONS = 3;
    private static final int REGION_LENGTH = 4096;

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void readsAndAtomicsAlternatingBetweenTargetRegionsAreEachCheckedAgainstTheirRegion(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion[] targets = new MemoryRegion[REGIONS];
        for (int r = 0; r < REGIONS; r++)
        {
            targets[r] = pair.b.register(32 * 1024 + r * REGION_LENGTH, REGION_LENGTH, true, true);
            for (int k = 0; k < REGION_LENGTH / 8; k++)
            {
                targets[r].buffer().putLong(8 * k, 1000L * r + k);
            }
        }
        final MemoryRegion local = pair.a.register(0, REGION_LENGTH, false, false);
        final Descriptor read = Descriptor.allocate(1);
        final Descriptor add = Descriptor.allocate(1);
        final int rounds = 60;
        for (int n = 0; n < rounds; n++)
        {
            final int r = n % REGIONS;
            final int other = (n + 1) % REGIONS;
            pair.viA.postSend(read.reset().rdmaRead(targets[r].handle(), 8L * n).addSegment(local, 0, 8));
            assertSame(read, pair.viA.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, read.status());
            assertEquals(1000L * r + n, local.buffer().getLong(0));
            pair.viA.postSend(add.reset().fetchAndAdd(targets[other].handle(), 8L * n, 1).addSegment(local, 8, 8));
            assertSame(add, pair.viA.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_ATOMIC, add.status());
            assertEquals(1000L * other + n, local.buffer().getLong(8));
        }
        for (int n = 0; n < rounds; n++)
        {
            assertEquals(1000L * ((n + 1) % REGIONS) + n + 1, targets[(n + 1) % REGIONS].buffer().getLong(8 * n));
        }

        pair.b.nic.deregisterMemory(targets[1]);
        for (final int r : new int[] {0, 2})
        {
            pair.viA.postSend(read.reset().rdmaRead(targets[r].handle(), 4000).addSegment(local, 0, 8));
            assertSame(read, pair.viA.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, read.status(), "region " + r + " still passes");
            assertEquals(1000L * r + 500, local.buffer().getLong(0));
        }
        pair.viA.postSend(read.reset().rdmaRead(targets[1].handle(), 0).addSegment(local, 0, 8));
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.RDMA_PROT_ERROR, read.status(),
            "a target region deregistered after it was remembered");
        assertEquals(0, read.length());
        pair.a.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        assertEquals(List.of("RDMA_READ_PROTECTION@0: invalid or deregistered memory handle: handle 0x" +
            Integer.toHexString(targets[1].handle()) + " address 0 length 8 on " + pair.b.nic.address()),
            pair.a.details());
        Providers.awaitState(pair.viA, ViState.ERROR);
    }
}
