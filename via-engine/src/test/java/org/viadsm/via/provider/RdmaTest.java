package org.viadsm.via.provider;

import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.AtomicBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_ATOMIC;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_READ;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_WRITE;
import static org.viadsm.via.descriptor.DescriptorStatus.RDMA_PROT_ERROR;

@Timeout(30)
class RdmaTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;
    private static final byte CANARY = (byte)0xCA;
    private static final int TARGET_OFFSET = 4096;
    private static final int TARGET_LENGTH = 8192;
    /** A word of eight canaries. */
    private static final long CANARY_WORD = 0xCACACACACACACACAL;

    /** Fills the target node's whole memory with canaries and registers the middle of it. */
    private MemoryRegion target(final boolean rdmaWrite, final boolean rdmaRead)
    {
        pair.b.memory.duplicate().clear();
        for (int i = 0; i < Node.MEMORY_LENGTH; i++)
        {
            pair.b.memory.put(i, CANARY);
        }
        return pair.b.register(TARGET_OFFSET, TARGET_LENGTH, rdmaWrite, rdmaRead);
    }

    private void assertAllCanary()
    {
        for (int i = 0; i < Node.MEMORY_LENGTH; i++)
        {
            assertEquals(CANARY, pair.b.memory.get(i), "byte " + i);
        }
    }

    private void assertCanaryOutsideTarget()
    {
        for (int i = 0; i < Node.MEMORY_LENGTH; i++)
        {
            if (i < TARGET_OFFSET || i >= TARGET_OFFSET + TARGET_LENGTH)
            {
                assertEquals(CANARY, pair.b.memory.get(i), "byte " + i);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRdmaWriteAndReadBackAcrossWholeRegion(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, true);
        final AtomicBuffer local = pair.a.region.buffer();
        for (int i = 0; i < TARGET_LENGTH; i++)
        {
            local.putByte(i, (byte)(i * 31 + 1));
        }
        final Descriptor write = Descriptor.allocate(2).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 100).addSegment(pair.a.region, 100, TARGET_LENGTH - 100);
        pair.viA.postSend(write);
        assertSame(write, pair.viA.sendWait(T));
        assertEquals(DONE | OP_RDMA_WRITE, write.status());
        assertEquals(TARGET_LENGTH, write.length());
        for (int i = 0; i < TARGET_LENGTH; i++)
        {
            assertEquals((byte)(i * 31 + 1), target.buffer().getByte(i));
        }
        assertCanaryOutsideTarget();
        assertNull(pair.viB.recvDone());

        final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(target.handle(), 1000)
            .addSegment(pair.a.region, 20000, 3000);
        pair.viA.postSend(read);
        assertSame(read, pair.viA.sendWait(T));
        assertEquals(DONE | OP_RDMA_READ, read.status());
        for (int i = 0; i < 3000; i++)
        {
            assertEquals((byte)((i + 1000) * 31 + 1), local.getByte(20000 + i));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRdmaWriteWithImmediateDataConsumingAReceive(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, false);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 16);
        pair.viB.postRecv(recv);
        pair.a.region.buffer().putLong(0, 0x1122334455667788L);
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 64)
            .addSegment(pair.a.region, 0, 8).immediateData(-5);
        pair.viA.postSend(write);
        assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | DescriptorStatus.OP_REMOTE_RDMA_WRITE | DescriptorStatus.IMMEDIATE, recv.status());
        assertEquals(-5, recv.immediateData());
        assertEquals(8, recv.length());
        assertEquals(0x1122334455667788L, target.buffer().getLong(64));
        assertEquals(CANARY, pair.b.memory.get(0));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRdmaWriteZeroBytesWithImmediateData(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, false);
        final Descriptor recv = Descriptor.allocate(1).reset().send();
        pair.viB.postRecv(recv);
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0).immediateData(1234);
        pair.viA.postSend(write);
        assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());
        assertEquals(0, write.length());
        assertSame(recv, pair.viB.recvWait(T));
        assertEquals(DONE | DescriptorStatus.OP_REMOTE_RDMA_WRITE | DescriptorStatus.IMMEDIATE, recv.status());
        assertEquals(0, recv.length());
        assertEquals(1234, recv.immediateData());
        assertAllCanary();
    }

    /**
     * A fenced Send gathers its data only once the RDMA Read before it has completed, so it carries what the read
     * brought in.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldStartAFencedDescriptorAfterEarlierReadsComplete(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, true);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(pair.b.region, 0, 8);
        pair.viB.postRecv(recv);
        for (int round = 1; round <= 50; round++)
        {
            target.buffer().putLong(64, 0xABCD0000L + round);
            pair.a.region.buffer().putLong(0, 0);
            final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(target.handle(), 64)
                .addSegment(pair.a.region, 0, 8);
            final Descriptor send = Descriptor.allocate(1).reset().send().addSegment(pair.a.region, 0, 8)
                .queueFence(true);
            pair.viA.postSend(read);
            pair.viA.postSend(send);
            assertSame(read, pair.viA.sendWait(T));
            assertSame(send, pair.viA.sendWait(T));
            assertEquals(DONE, send.status());
            assertSame(recv, pair.viB.recvWait(T));
            assertEquals(0xABCD0000L + round, pair.b.region.buffer().getLong(0));
            pair.viB.postRecv(recv.reset().send().addSegment(pair.b.region, 0, 8));
        }
    }

    /**
     * One descriptor at a time on a queue that is idle at each post, past a queue's depth of them: a read after a
     * write of the same bytes (at reliable delivery, where a write completes before it is flushed) reads what the
     * write put, and each fetch-and-add takes effect exactly once.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldOrderOperationsPostedOneAtATimeOnAnIdleQueue(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = target(true, true);
        target.buffer().putLong(0, 0);
        final AtomicBuffer local = pair.a.region.buffer();
        final Descriptor descriptor = Descriptor.allocate(1);
        final int rounds = pair.a.nic.attributes().maxDescriptorsPerQueue() + 8;
        for (int round = 1; round <= rounds; round++)
        {
            local.putLong(0, 1000L + round);
            pair.viA.postSend(descriptor.reset().rdmaWrite(target.handle(), 64).addSegment(pair.a.region, 0, 8));
            assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status(), "write " + round);
            local.putLong(8, 0);
            pair.viA.postSend(descriptor.reset().rdmaRead(target.handle(), 64).addSegment(pair.a.region, 8, 8));
            assertEquals(DONE | OP_RDMA_READ, pair.viA.sendWait(T).status(), "read " + round);
            assertEquals(1000L + round, local.getLong(8), "read " + round);
            pair.viA.postSend(descriptor.reset().fetchAndAdd(target.handle(), 0, 1).addSegment(pair.a.region, 16, 8));
            assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status(), "fetch-and-add " + round);
            assertEquals(round - 1, local.getLong(16), "fetch-and-add " + round);
        }
        assertEquals(rounds, target.buffer().getLong(0));
        assertEquals(1000L + rounds, target.buffer().getLong(64));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldCompareAndSwapAndFetchAndAdd(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = target(true, true);
        target.buffer().putLong(8, 10);
        final Descriptor atomic = Descriptor.allocate(1);

        pair.viA.postSend(atomic.reset().compareAndSwap(target.handle(), 8, 10, 20).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        assertEquals(8, atomic.length());
        assertEquals(10, pair.a.region.buffer().getLong(0));
        assertEquals(20, target.buffer().getLong(8));

        pair.viA.postSend(atomic.reset().compareAndSwap(target.handle(), 8, 10, 30).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        assertEquals(20, pair.a.region.buffer().getLong(0));
        assertEquals(20, target.buffer().getLong(8));

        pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 8, 5).addSegment(pair.a.region, 16, 8));
        assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        assertEquals(20, pair.a.region.buffer().getLong(16));
        assertEquals(25, target.buffer().getLong(8));
        assertEquals(CANARY, target.buffer().getByte(0));
        assertEquals(CANARY, target.buffer().getByte(16));
    }

    /**
     * A write and the atomic or read posted after it, without waiting in between: the later operation sees the
     * write, on every provider and both reliable levels (UCX itself orders none of them).
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldApplyAnAtomicOrAReadAfterTheWritePostedBeforeIt(final String scheme)
    {
        for (final ReliabilityLevel level : List.of(ReliabilityLevel.RELIABLE_DELIVERY,
            ReliabilityLevel.RELIABLE_RECEPTION))
        {
            if (null != pair)
            {
                pair.close();
            }
            pair = new Pair(scheme, level);
            final MemoryRegion target = target(true, true);
            final AtomicBuffer local = pair.a.region.buffer();
            final Descriptor write = Descriptor.allocate(1);
            final Descriptor later = Descriptor.allocate(1);
            for (int i = 1; i <= 500; i++)
            {
                local.putLong(0, i * 10L);
                pair.viA.postSend(write.reset().rdmaWrite(target.handle(), 8).addSegment(pair.a.region, 0, 8));
                pair.viA.postSend(later.reset().fetchAndAdd(target.handle(), 8, 1).addSegment(pair.a.region, 16, 8));
                assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());
                assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
                assertEquals(i * 10L, local.getLong(16), level + " atomic after write " + i);

                local.putLong(32, i * 10L + 3);
                pair.viA.postSend(write.reset().rdmaWrite(target.handle(), 64).addSegment(pair.a.region, 32, 8));
                pair.viA.postSend(later.reset().rdmaRead(target.handle(), 64).addSegment(pair.a.region, 48, 8));
                assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());
                assertEquals(DONE | OP_RDMA_READ, pair.viA.sendWait(T).status());
                assertEquals(i * 10L + 3, local.getLong(48), level + " read after write " + i);
            }
            assertEquals(5001L, target.buffer().getLong(8));
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldFetchAndAddAtomicallyWithTargetCpuAtomics(final String scheme) throws Exception
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, true);
        target.buffer().putLong(0, 0);
        final int n = 20_000;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread local = new Thread(() ->
        {
            try
            {
                for (int i = 0; i < n; i++)
                {
                    target.buffer().getAndAddLong(0, 1);
                }
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        });
        local.start();
        final Descriptor atomic = Descriptor.allocate(1);
        for (int i = 0; i < n; i++)
        {
            pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 0, 1).addSegment(pair.a.region, 0, 8));
            assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        }
        local.join();
        assertNull(failure.get());
        assertEquals(2L * n, target.buffer().getLongVolatile(0));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseRdmaFailingTargetChecksAndWriteNothing(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target = target(true, true);
        final MemoryRegion readOnly = pair.b.nic.registerMemory(
            pair.b.memory.duplicate().position(TARGET_OFFSET).limit(TARGET_OFFSET + 4096).slice(),
            new MemoryAttributes(pair.b.ptag, false, true));
        final MemoryRegion otherPtag = pair.b.nic.registerMemory(
            pair.b.memory.duplicate().position(TARGET_OFFSET).limit(TARGET_OFFSET + 4096).slice(),
            MemoryAttributes.remoteAccess(pair.b.nic.createPtag()));
        final MemoryRegion gone = pair.b.register(TARGET_OFFSET, 4096, true, true);
        pair.b.nic.deregisterMemory(gone);

        assertWriteRefused(target.handle(), TARGET_LENGTH - 4, 8);
        assertWriteRefused(target.handle(), -1, 8);
        assertWriteRefused(readOnly.handle(), 0, 8);
        assertWriteRefused(otherPtag.handle(), 0, 8);
        assertWriteRefused(gone.handle(), 0, 8);
        assertWriteRefused(0, 0, 8);
    }

    private void assertWriteRefused(final int handle, final long address, final int length)
    {
        final Descriptor write = Descriptor.allocate(1).reset().rdmaWrite(handle, address)
            .addSegment(pair.a.region, 0, length);
        pair.viA.postSend(write);
        assertEquals(DONE | OP_RDMA_WRITE | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertAllCanary();
        assertEquals(ViState.ERROR, pair.viA.state());
        assertEquals(ViState.ERROR, pair.viB.state());
        pair.a.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_WRITE_PROTECTION@0"));
        reconnect();
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseRdmaReadAndAtomicsFailingTargetChecks(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion writeOnly = pair.b.register(TARGET_OFFSET, TARGET_LENGTH, true, false);
        pair.a.region.buffer().setMemory(0, 64, (byte)1);
        final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(writeOnly.handle(), 0)
            .addSegment(pair.a.region, 0, 64);
        pair.viA.postSend(read);
        assertEquals(DONE | OP_RDMA_READ | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(1, pair.a.region.buffer().getByte(0));
        pair.a.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));

        reconnect();
        final Descriptor atomic = Descriptor.allocate(1).reset().fetchAndAdd(writeOnly.handle(), 0, 1)
            .addSegment(pair.a.region, 0, 8);
        pair.viA.postSend(atomic);
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(0, writeOnly.buffer().getLong(0));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseRdmaDisabledOnTargetVi(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION, null,
            new ViAttributes().enableRdmaWrite(false).enableRdmaRead(false));
        final MemoryRegion target = target(true, true);
        pair.viA.postSend(Descriptor.allocate(1).reset().rdmaWrite(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_WRITE | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertAllCanary();
        reconnect();
        pair.viA.postSend(Descriptor.allocate(1).reset().rdmaRead(target.handle(), 0)
            .addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_READ | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(ViState.ERROR, pair.viB.state());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldCompleteWithFormatErrorWhenInitiatorViDisablesRdmaOrAtomicIsMalformed(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.UNRELIABLE, new ViAttributes().enableRdmaWrite(false), null);
        final MemoryRegion target = target(true, true);
        final Descriptor d = Descriptor.allocate(1);
        pair.viA.postSend(d.reset().rdmaWrite(target.handle(), 0).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_WRITE | DescriptorStatus.FORMAT_ERROR, pair.viA.sendWait(T).status());
        pair.viA.postSend(d.reset().rdmaRead(target.handle(), 0).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_READ | DescriptorStatus.FORMAT_ERROR, pair.viA.sendWait(T).status());
        pair.viA.postSend(d.reset().fetchAndAdd(target.handle(), 0, 1).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC | DescriptorStatus.FORMAT_ERROR, pair.viA.sendWait(T).status());
        assertAllCanary();
        assertEquals(ViState.CONNECTED, pair.viA.state());
        pair.close();

        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion target2 = target(true, true);
        pair.viA.postSend(d.reset().fetchAndAdd(target2.handle(), 4, 1).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC | DescriptorStatus.FORMAT_ERROR, pair.viA.sendWait(T).status());
        assertAllCanary();
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldNotReissueAHandleWithinFourThousandRegistrationsOfOneEntry(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION, new NicContext().maxRegions(2));
        final MemoryRegion first = target(true, false);
        final int firstHandle = first.handle();
        pair.b.nic.deregisterMemory(first);
        MemoryRegion last = null;
        for (int i = 0; i < 4096; i++)
        {
            last = pair.b.register(0, 4096, true, false);
            assertNotEquals(firstHandle, last.handle(), "registration " + (i + 2) + " of the same entry");
            if (i < 4095)
            {
                pair.b.nic.deregisterMemory(last);
            }
        }
        final Descriptor write = Descriptor.allocate(1);
        pair.a.memory.putLong(0, 0x4444444444444444L);
        pair.viA.postSend(write.reset().rdmaWrite(firstHandle, 0).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_WRITE | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(CANARY, pair.b.memory.get(0));
        assertEquals(CANARY, pair.b.memory.get(TARGET_OFFSET));
    }

    /**
     * A region the initiator's operations went to before is checked again at every operation: once the peer
     * deregistered it, an atomic on it is refused as on a handle never used, and changes nothing.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseAnAtomicOnARegionUsedBeforeOnceThePeerDeregistersIt(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion target = target(true, true);
        target.buffer().putLong(8, 0);
        final Descriptor atomic = Descriptor.allocate(1);
        for (int i = 0; i < 3; i++)
        {
            pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 8, 1).addSegment(pair.a.region, 0, 8));
            assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
            assertEquals(i, pair.a.region.buffer().getLong(0));
        }
        pair.b.nic.deregisterMemory(target);

        pair.viA.postSend(atomic.reset().fetchAndAdd(target.handle(), 8, 1).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(3, peerWord(TARGET_OFFSET + 8));
        pair.a.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        assertEquals(ViState.ERROR, pair.viA.state());
    }

    /**
     * The peer deregisters a region the initiator used and registers other memory in its table entry: the old
     * handle is refused, and the new one reaches the new memory, not the old.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldReachTheMemoryRegisteredAnewInTheEntryOfARegionUsedBefore(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION, new NicContext().maxRegions(2));
        final MemoryRegion first = target(true, true);
        final Descriptor atomic = Descriptor.allocate(1);
        pair.viA.postSend(atomic.reset().fetchAndAdd(first.handle(), 8, 1).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        assertEquals(CANARY_WORD + 1, peerWord(TARGET_OFFSET + 8));
        pair.b.nic.deregisterMemory(first);
        final MemoryRegion second = pair.b.register(TARGET_OFFSET + 4096, 4096, true, true);

        pair.viA.postSend(atomic.reset().fetchAndAdd(second.handle(), 8, 2).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
        assertEquals(CANARY_WORD, pair.a.region.buffer().getLong(0));
        assertEquals(CANARY_WORD + 2, peerWord(TARGET_OFFSET + 4096 + 8));
        assertEquals(CANARY_WORD + 1, peerWord(TARGET_OFFSET + 8));

        pair.viA.postSend(atomic.reset().fetchAndAdd(first.handle(), 8, 4).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(CANARY_WORD + 1, peerWord(TARGET_OFFSET + 8));
        assertEquals(CANARY_WORD + 2, peerWord(TARGET_OFFSET + 4096 + 8));
    }

    /**
     * A region an RDMA Write reached is still checked for the rights of the next operation: an atomic, which also
     * reads, is refused on a region the peer registered for RDMA Write only.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseAnAtomicOnAWriteOnlyRegionAfterAWriteToItPassed(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final MemoryRegion writeOnly = target(true, false);
        final Descriptor d = Descriptor.allocate(1);
        pair.a.region.buffer().putLong(0, 7);
        pair.viA.postSend(d.reset().rdmaWrite(writeOnly.handle(), 8).addSegment(pair.a.region, 0, 8));
        assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());

        pair.viA.postSend(d.reset().fetchAndAdd(writeOnly.handle(), 8, 1).addSegment(pair.a.region, 16, 8));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, pair.viA.sendWait(T).status());
        assertEquals(7, writeOnly.buffer().getLong(8));
        pair.a.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
        pair.b.awaitErrors(List.of("RDMA_READ_PROTECTION@0"));
    }

    /** Operations alternating between two regions of the peer each reach their own. */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldReachEachOfTwoRegionsOperationsAlternateBetween(final String scheme)
    {
        pair = new Pair(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        final MemoryRegion one = target(true, true);
        final MemoryRegion other = pair.b.register(0, 4096, true, true);
        final Descriptor d = Descriptor.allocate(1);
        for (int i = 1; i <= 50; i++)
        {
            final MemoryRegion region = 0 == (i & 1) ? one : other;
            pair.viA.postSend(d.reset().fetchAndAdd(region.handle(), 16, 1).addSegment(pair.a.region, 0, 8));
            assertEquals(DONE | OP_ATOMIC, pair.viA.sendWait(T).status());
            pair.a.region.buffer().putLong(8, i);
            pair.viA.postSend(d.reset().rdmaWrite(region.handle(), 24).addSegment(pair.a.region, 8, 8));
            assertEquals(DONE | OP_RDMA_WRITE, pair.viA.sendWait(T).status());
        }
        assertEquals(CANARY_WORD + 25, one.buffer().getLong(16));
        assertEquals(CANARY_WORD + 25, other.buffer().getLong(16));
        assertEquals(50, one.buffer().getLong(24));
        assertEquals(49, other.buffer().getLong(24));
    }

    /** The word at {@code offset} of the peer node's memory, in the byte order the NICs write it. */
    private long peerWord(final int offset)
    {
        return pair.b.memory.duplicate().order(ByteOrder.nativeOrder()).getLong(offset);
    }

    private void reconnect()
    {
        pair.viA.disconnect();
        pair.viB.disconnect();
        pair.a.errors.clear();
        pair.b.errors.clear();
        Providers.connect(pair.viA, pair.b.nic.address(), pair.viB, pair.a.nic.address());
    }
}
