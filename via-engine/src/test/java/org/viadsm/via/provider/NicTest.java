package org.viadsm.via.provider;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.NicAttributes;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class NicTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseSecondOpenOfAnAddressAndCloseIdempotently(final String scheme)
    {
        final Nic nic = Nic.open(Providers.address(scheme));
        final String address = nic.address();
        final ViaException ex = assertThrows(ViaException.class, () -> Nic.open(address));
        assertEquals(ViaError.ERROR_RESOURCE, ex.error());
        assertTrue(ex.getMessage().contains("address in use"), ex.getMessage());
        nic.close();
        nic.close();
        assertTrue(nic.isClosed());
        assertThrows(IllegalStateException.class, nic::createPtag);
        try (Nic reopened = Nic.open(address))
        {
            assertFalse(reopened.isClosed());
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldDescribeItself(final String scheme)
    {
        try (Nic nic = Nic.open(Providers.address(scheme)))
        {
            final NicAttributes attributes = nic.attributes();
            assertEquals(nic.address(), attributes.name());
            assertEquals(1024, attributes.maxDescriptorsPerQueue());
            assertEquals(16, attributes.maxSegmentsPerDescriptor());
            assertEquals(256, attributes.maxVis());
            assertEquals(1 << 16, attributes.maxCqEntries());
            assertTrue(attributes.rdmaReadSupport());
            assertTrue(attributes.atomicsSupport());
            // only over tcp does the target perform a VI's reads and atomics strictly one after the other
            assertEquals("tcp".equals(scheme), attributes.orderedTargetAccess());
            assertEquals(3, attributes.reliabilityLevels().size());
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldTrackProtectionTagUse(final String scheme)
    {
        try (Nic nic = Nic.open(Providers.address(scheme)); Nic other = Nic.open(Providers.address(scheme)))
        {
            final ProtectionTag ptag = nic.createPtag();
            final ByteBuffer memory = nic.allocateMemory(4096);
            final MemoryRegion region = nic.registerMemory(memory, MemoryAttributes.localOnly(ptag));
            assertThrows(IllegalStateException.class, () -> nic.destroyPtag(ptag));
            assertThrows(IllegalArgumentException.class, () -> nic.destroyPtag(other.createPtag()));
            assertThrows(IllegalArgumentException.class,
                () -> nic.registerMemory(memory, MemoryAttributes.localOnly(other.createPtag())));
            nic.deregisterMemory(region);
            assertFalse(region.isRegistered());
            assertThrows(IllegalArgumentException.class, () -> nic.deregisterMemory(region));
            final Vi vi = nic.createVi(new org.viadsm.via.ViAttributes().ptag(ptag), null, null);
            assertThrows(IllegalStateException.class, () -> nic.destroyPtag(ptag));
            vi.close();
            nic.destroyPtag(ptag);
            assertThrows(IllegalArgumentException.class, () -> nic.destroyPtag(ptag));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldAllocateZeroedPageAlignedMemoryAndGuardItsRelease(final String scheme)
    {
        try (Nic nic = Nic.open(Providers.address(scheme)))
        {
            final ProtectionTag ptag = nic.createPtag();
            final ByteBuffer memory = nic.allocateMemory(1 << 20);
            assertEquals(1 << 20, memory.capacity());
            assertEquals(0, org.agrona.BufferUtil.address(memory) & 4095);
            for (int i = 0; i < memory.capacity(); i += 4096)
            {
                assertEquals(0, memory.get(i));
            }
            final MemoryRegion region = nic.registerMemory(memory.slice(100, 200), MemoryAttributes.localOnly(ptag));
            assertEquals(200, region.length());
            assertThrows(IllegalStateException.class, () -> nic.freeMemory(memory));
            assertThrows(IllegalArgumentException.class, () -> nic.freeMemory(ByteBuffer.allocateDirect(8)));
            assertThrows(IllegalArgumentException.class,
                () -> nic.registerMemory(ByteBuffer.allocate(8), MemoryAttributes.localOnly(ptag)));
            assertThrows(IllegalArgumentException.class, () -> nic.allocateMemory(0));
            nic.deregisterMemory(region);
            nic.freeMemory(memory);
            assertThrows(IllegalArgumentException.class, () -> nic.freeMemory(memory));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldGuardCompletionQueues(final String scheme)
    {
        try (Nic nic = Nic.open(Providers.address(scheme)))
        {
            assertThrows(IllegalArgumentException.class, () -> nic.createCq(0));
            assertThrows(IllegalArgumentException.class, () -> nic.createCq(nic.attributes().maxCqEntries() + 1));
            final CompletionQueue cq = nic.createCq(8);
            final Vi vi = nic.createVi(new org.viadsm.via.ViAttributes().ptag(nic.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, cq);
            assertThrows(IllegalStateException.class, cq::close);
            vi.close();
            cq.close();
            cq.close();
            assertThrows(IllegalStateException.class, () -> cq.resize(4));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseMalformedAddresses(final String scheme)
    {
        assertThrows(IllegalArgumentException.class, () -> Nic.open(scheme + ":"));
        assertThrows(IllegalArgumentException.class, () -> Nic.open(scheme + ":a/b"));
        assertThrows(IllegalArgumentException.class, () -> Nic.open("nosuch:a"));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void registerMemoryShouldRefuseReadOnlyBuffers(final String scheme)
    {
        try (Nic nic = Nic.open(Providers.address(scheme)))
        {
            final ByteBuffer memory = nic.allocateMemory(8192);
            final MemoryAttributes attributes = MemoryAttributes.remoteAccess(nic.createPtag());
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> nic.registerMemory(memory.asReadOnlyBuffer(), attributes));
            assertTrue(ex.getMessage().contains("read-only"), ex.getMessage());
            assertEquals(8192, nic.registerMemory(memory, attributes).length());
        }
    }
}
