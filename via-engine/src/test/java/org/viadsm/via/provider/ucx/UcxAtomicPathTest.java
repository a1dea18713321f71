package org.viadsm.via.provider.ucx;


import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DESC_FLUSHED_ERROR;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.FORMAT_ERROR;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_ATOMIC;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_WRITE;
import static org.viadsm.via.descriptor.DescriptorStatus.PROTECTION_ERROR;
import static org.viadsm.via.descriptor.DescriptorStatus.RDMA_PROT_ERROR;

/**
 * An atomic posted on an idle send queue takes its own path, completed inside the post when UCX finishes it at once
 * (a CPU atomic over shared memory): the descriptor completes with its status and 8 bytes, the result in its
 * segment, the completion queue hears of it, and it sees the RDMA Write posted and completed before it.
 */
@Timeout(60)
class UcxAtomicPathTest
{
    private static final long T = 10_000_000_000L;
    private static final int WORD = 64;

    private Nic initiator;
    private Nic target;
    private MemoryRegion local;
    private MemoryRegion remote;
    private Vi vi;

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(initiator, target);
    }

    @Test
    void shouldCompleteAnAtomicInsideThePostWhenUcxFinishesItAtOnce()
    {
        // over UCX's tcp transport an atomic is a message to the target, never done inside the call
        assumeTrue(UcxConfiguration.sharedMemoryAllowed(), "UCX_TLS names no shared-memory transport");
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        remote.buffer().putLong(WORD, 40);
        final Descriptor atomic = Descriptor.allocate(1);
        for (int i = 0; i < 100; i++)
        {
            vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 2).addSegment(local, 8, 8));
            assertEquals(DONE | OP_ATOMIC, atomic.status(), "complete when the post returns, round " + i);
            assertEquals(8, atomic.length());
            assertSame(atomic, vi.sendWait(T));
            assertEquals(40 + 2L * i, local.buffer().getLong(8));
        }
        vi.postSend(atomic.reset().compareAndSwap(remote.handle(), WORD, 240, 7).addSegment(local, 16, 8));
        assertEquals(DONE | OP_ATOMIC, atomic.status());
        assertSame(atomic, vi.sendWait(T));
        assertEquals(240, local.buffer().getLong(16));
        assertEquals(7, remote.buffer().getLong(WORD));
        vi.postSend(atomic.reset().compareAndSwap(remote.handle(), WORD, 240, 9).addSegment(local, 16, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(7, local.buffer().getLong(16), "a failed compare returns the word");
        assertEquals(7, remote.buffer().getLong(WORD));
    }

    @Test
    void shouldAddFromTheDescriptorIntoTheSegmentWhereverTheDescriptorLives()
    {
        connect(new NicContext(), ReliabilityLevel.RELIABLE_RECEPTION, null);
        remote.buffer().putLong(WORD, 1_000);
        // native memory: UCX reads the operand from the descriptor and writes the old word into the segment
        final Descriptor direct = Descriptor.allocate(1);
        // heap memory: through slot 0's words, whose reply the completion copies into the segment
        final Descriptor onHeap = new Descriptor(new UnsafeBuffer(new byte[DescriptorLayout.length(1)]), 1);
        long expected = 1_000;
        for (int i = 0; i < 50; i++)
        {
            final Descriptor atomic = 0 == (i & 1) ? direct : onHeap;
            final long delta = -3L * i + (1L << 40);
            local.buffer().putLong(24, -1);
            vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, delta).addSegment(local, 24, 8));
            assertSame(atomic, vi.sendWait(T));
            assertEquals(DONE | OP_ATOMIC, atomic.status(), "round " + i);
            assertEquals(8, atomic.length());
            assertEquals(expected, local.buffer().getLong(24), "the word before the add, round " + i);
            assertEquals(delta, atomic.compareOrAdd(), "the operand stays as posted, round " + i);
            expected += delta;
            assertEquals(expected, remote.buffer().getLong(WORD));
        }
    }

    @Test
    void shouldAnnounceAnAtomicCompletedAtOnceOnTheCompletionQueue()
    {
        final CompletionQueue[] cq = new CompletionQueue[1];
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, cq);
        remote.buffer().putLong(WORD, 5);
        final Descriptor atomic = Descriptor.allocate(1);
        final Completion completion = new Completion();
        for (int i = 0; i < 3; i++)
        {
            vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 8));
            assertTrue(cq[0].await(T, completion), "completion " + i);
            assertSame(vi, completion.vi());
            assertFalse(completion.isRecvQueue());
            assertSame(atomic, vi.sendDone());
            assertEquals(DONE | OP_ATOMIC, atomic.status());
            assertEquals(5L + i, local.buffer().getLong(0));
        }
        assertFalse(cq[0].done(completion), "one completion per atomic");
    }

    @Test
    void shouldSeeTheRdmaWriteWaitedForBeforeAnAtomicOnAnIdleQueue()
    {
        for (final ReliabilityLevel level : new ReliabilityLevel[]{ReliabilityLevel.RELIABLE_DELIVERY,
            ReliabilityLevel.RELIABLE_RECEPTION})
        {
            close();
            connect(new NicContext(), level, null);
            final Descriptor write = Descriptor.allocate(1);
            final Descriptor atomic = Descriptor.allocate(1);
            for (int i = 1; i <= 300; i++)
            {
                // the put may still be unflushed when it completes (reliable delivery): the atomic flushes it first
                local.buffer().putLong(0, 100L * i);
                vi.postSend(write.reset().rdmaWrite(remote.handle(), WORD).addSegment(local, 0, 8));
                assertEquals(DONE | OP_RDMA_WRITE, vi.sendWait(T).status());
                vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 8, 8));
                assertEquals(DONE | OP_ATOMIC, vi.sendWait(T).status());
                assertEquals(100L * i, local.buffer().getLong(8), level + " atomic after write " + i);
            }
            assertEquals(30_001L, remote.buffer().getLong(WORD));
        }
    }

    @Test
    void shouldCheckAnAtomicOffTheCommonCaseLikeAnyDescriptor()
    {
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        remote.buffer().putLong(WORD, 11);
        local.buffer().putLong(24, -1);
        final Descriptor two = Descriptor.allocate(2);
        vi.postSend(two.reset().fetchAndAdd(remote.handle(), WORD, 3).addSegment(local, 16, 8)
            .addSegment(local, 24, 8));
        assertSame(two, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC, two.status(), "two segments: the first takes the result");
        assertEquals(8, two.length());
        assertEquals(11, local.buffer().getLong(16));
        assertEquals(-1, local.buffer().getLong(24));
        assertEquals(14, remote.buffer().getLong(WORD));

        final MemoryRegion other = initiator.registerMemory(initiator.allocateMemory(4096),
            MemoryAttributes.remoteAccess(initiator.createPtag()));
        final Descriptor atomic = Descriptor.allocate(1);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(other, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | PROTECTION_ERROR, atomic.status(), "a segment of another tag's region");
        assertEquals(0, atomic.length());
        assertEquals(14, remote.buffer().getLong(WORD));
        assertEquals(ViState.ERROR, vi.state());

        close();
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        remote.buffer().putLong(WORD, 20);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(20, local.buffer().getLong(0), "the local region, remembered");
        initiator.deregisterMemory(local);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | PROTECTION_ERROR, atomic.status(), "a region deregistered once remembered");
        assertEquals(21, remote.buffer().getLong(WORD));

        close();
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD + 4, 1).addSegment(local, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | FORMAT_ERROR, atomic.status(), "a remote address not 8-byte aligned");
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 4));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | DESC_FLUSHED_ERROR, atomic.status(), "flushed once the VI broke");
    }

    @Test
    void shouldLeaveTheRememberedAddRouteForTheFullChecksOnAnyOtherShape()
    {
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        remote.buffer().putLong(WORD, 100);
        remote.buffer().putLong(4088, 7);
        local.buffer().putLong(4088, -1);
        final Descriptor atomic = Descriptor.allocate(2);
        // remembered: the next adds on the same two regions take the route of the common case
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 4088, 5).addSegment(local, 4088, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC, atomic.status(), "the last words of both regions");
        assertEquals(7, local.buffer().getLong(4088));
        assertEquals(12, remote.buffer().getLong(4088));

        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 2).queueFence(true).addSegment(local, 8, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC, atomic.status(), "a fenced add, off the route");
        assertEquals(101, local.buffer().getLong(8));
        assertEquals(103, remote.buffer().getLong(WORD));

        local.buffer().putLong(32, -1);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 4096, 1).addSegment(local, 32, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, atomic.status(), "a remote word past the region's end");
        assertEquals(0, atomic.length());
        assertEquals(-1, local.buffer().getLong(32), "nothing fetched");
        assertEquals(103, remote.buffer().getLong(WORD));
        assertEquals(12, remote.buffer().getLong(4088));
        assertEquals(ViState.ERROR, vi.state());

        close();
        connect(new NicContext(), ReliabilityLevel.RELIABLE_DELIVERY, null);
        remote.buffer().putLong(WORD, 50);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), WORD, 1).addSegment(local.handle(), 4092, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | PROTECTION_ERROR, atomic.status(), "a result word past the local region");
        assertEquals(0, atomic.length());
        assertEquals(51, remote.buffer().getLong(WORD), "nothing added");
        assertEquals(ViState.ERROR, vi.state());
    }

    private void connect(final NicContext context, final ReliabilityLevel level, final CompletionQueue[] sendCq)
    {
        initiator = Nic.open("ucx:127.0.0.1:0", context);
        target = Nic.open("ucx:127.0.0.1:0", context);
        final ProtectionTag localTag = initiator.createPtag();
        final ProtectionTag remoteTag = target.createPtag();
        local = initiator.registerMemory(initiator.allocateMemory(4096), MemoryAttributes.remoteAccess(localTag));
        remote = target.registerMemory(target.allocateMemory(4096), MemoryAttributes.remoteAccess(remoteTag));
        final CompletionQueue cq = null == sendCq ? null : initiator.createCq(4);
        if (null != sendCq)
        {
            sendCq[0] = cq;
        }
        vi = initiator.createVi(new ViAttributes().ptag(localTag).reliabilityLevel(level).enableRdmaWrite(true)
            .enableRdmaRead(true), cq, null);
        final Vi peer = target.createVi(new ViAttributes().ptag(remoteTag).reliabilityLevel(level)
            .enableRdmaWrite(true).enableRdmaRead(true), null, null);
        Providers.connect(vi, target.address(), peer, initiator.address());
    }
}
