package org.viadsm.via.provider;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer attempts RDMA outside its rights, on every provider: every operation (RDMA Write, RDMA Read,
 * compare-and-swap, fetch-and-add) against memory of another protection tag, outside a region (straddling its end,
 * past it, before it, far away), of a region deregistered or never registered, or against a region's access
 * rights. Each is refused (a misaligned atomic, which straddling is for atomics, by the initiator as malformed,
 * the others by the checks against the target's registration table) with an error that breaks the connection at
 * both ends, and canary bytes prove that not one byte of the target's memory changed, and that a refused read
 * brought nothing back.
 */
@Timeout(120)
class MisbehavingPeerTest
{
    private static final long T = Providers.TIMEOUT_NS;
    private static final byte CANARY = (byte)0xCA;
    private static final byte MINE = (byte)0x3C;
    private static final int TARGET_OFFSET = 8192;
    private static final int TARGET_LENGTH = 4096;

    private Pair pair;

    @AfterEach
    void close()
    {
        if (null != pair)
        {
            pair.close();
        }
    }

    static Stream<Arguments> providersAndOperations()
    {
        return Providers.providers().flatMap(scheme -> Stream.of("write", "read", "compare-and-swap",
            "fetch-and-add").map(operation -> Arguments.of(scheme, operation)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("providersAndOperations")
    void shouldRefuseEveryOperationOutsideThePeersRightsAndChangeNothing(final String scheme, final String operation)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        for (int i = 0; i < Node.MEMORY_LENGTH; i++)
        {
            pair.b.memory.put(i, CANARY);
        }
        final MemoryRegion target = pair.b.register(TARGET_OFFSET, TARGET_LENGTH, true, true);
        final MemoryRegion otherPtag = pair.b.nic.registerMemory(slice(TARGET_OFFSET, TARGET_LENGTH),
            MemoryAttributes.remoteAccess(pair.b.nic.createPtag()));
        final MemoryRegion deregistered = pair.b.register(TARGET_OFFSET, TARGET_LENGTH, true, true);
        pair.b.nic.deregisterMemory(deregistered);
        final MemoryRegion readOnly = pair.b.register(TARGET_OFFSET, TARGET_LENGTH, false, true);
        final MemoryRegion writeOnly = pair.b.register(TARGET_OFFSET, TARGET_LENGTH, true, false);
        final boolean writes = !"read".equals(operation);

        attempt(operation, otherPtag.handle(), 0);
        attempt(operation, target.handle(), TARGET_LENGTH - 4);
        attempt(operation, target.handle(), TARGET_LENGTH);
        attempt(operation, target.handle(), -8);
        attempt(operation, target.handle(), 1L << 40);
        attempt(operation, deregistered.handle(), 0);
        attempt(operation, 0x7FFF_FFF0, 0);
        attempt(operation, writes ? readOnly.handle() : writeOnly.handle(), 0);
    }

    private java.nio.ByteBuffer slice(final int offset, final int length)
    {
        return pair.b.memory.duplicate().position(offset).limit(offset + length).slice();
    }

    private void attempt(final String operation, final int handle, final long address)
    {
        final Function<Descriptor, Descriptor> post = d ->
        {
            switch (operation)
            {
                case "write":
                    return d.rdmaWrite(handle, address).addSegment(pair.a.region, 0, 8);
                case "read":
                    return d.rdmaRead(handle, address).addSegment(pair.a.region, 0, 8);
                case "compare-and-swap":
                    return d.compareAndSwap(handle, address, 0xCACACACACACACACAL, 7).addSegment(pair.a.region, 0, 8);
                default:
                    return d.fetchAndAdd(handle, address, 1).addSegment(pair.a.region, 0, 8);
            }
        };
        for (int i = 0; i < 8; i++)
        {
            pair.a.memory.put(i, MINE);
        }
        final Descriptor d = post.apply(Descriptor.allocate(1).reset());
        pair.viA.postSend(d);
        assertSame(d, pair.viA.sendWait(T), operation + " of handle 0x" + Integer.toHexString(handle) + " at " +
            address);
        final String what = operation + " of handle 0x" + Integer.toHexString(handle) + " at " + address + ": " +
            DescriptorStatus.toString(d.status());
        // a misaligned atomic is refused by the initiator itself, before anything goes out
        final boolean misaligned = !"write".equals(operation) && !"read".equals(operation) && 0 != (address & 7);
        assertTrue(0 != (d.status() & (misaligned ? DescriptorStatus.FORMAT_ERROR : DescriptorStatus.RDMA_PROT_ERROR)),
            what);
        for (int i = 0; i < Node.MEMORY_LENGTH; i++)
        {
            assertEquals(CANARY, pair.b.memory.get(i), what + ": target byte " + i + " changed");
        }
        for (int i = 0; i < 8; i++)
        {
            assertEquals(MINE, pair.a.memory.get(i), what + ": a refused operation brought data back");
        }
        assertEquals(ViState.ERROR, pair.viA.state(), what);
        awaitState(ViState.ERROR, what);
        pair.viA.disconnect();
        pair.viB.disconnect();
        Providers.connect(pair.viA, pair.b.nic.address(), pair.viB, pair.a.nic.address());
    }

    private void awaitState(final ViState state, final String what)
    {
        final long deadlineNs = System.nanoTime() + T;
        while (state != pair.viB.state() && System.nanoTime() - deadlineNs < 0)
        {
            pair.deliverErrors();
            Thread.onSpinWait();
        }
        assertEquals(state, pair.viB.state(), what + ": the target's VI");
        assertTrue(List.of(ViState.ERROR).contains(pair.viB.state()));
    }
}
