package org.viadsm.via.provider.ucx;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.descriptor.DescriptorStatus.FORMAT_ERROR;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_ATOMIC;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_READ;
import static org.viadsm.via.descriptor.DescriptorStatus.OP_RDMA_WRITE;
import static org.viadsm.via.descriptor.DescriptorStatus.PROTECTION_ERROR;
import static org.viadsm.via.descriptor.DescriptorStatus.RDMA_PROT_ERROR;

/**
 * An atomic on the two regions of the atomic before it passes the checks that atomic remembered ({@link AtomicRoute});
 * these tests remember a route with a first atomic, then change what it remembered or step out of it, and expect
 * what the full checks give: the values, the statuses, the VI's state.
 */
@Timeout(60)
class UcxAtomicRouteTest
{
    private static final long T = 10_000_000_000L;
    private static final int REGION = 4096;

    private Nic initiator;
    private Nic target;
    private ProtectionTag localTag;
    private ProtectionTag remoteTag;
    private MemoryRegion local;
    private MemoryRegion remote;
    private Vi vi;
    private final Descriptor atomic = Descriptor.allocate(1);

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
    void shouldAddAtEveryWordOfTheRememberedRegionsUpToTheirLastOne()
    {
        connect();
        add(0, 0, 1, 0);
        for (int word = 8; word <= REGION - 8; word += 8)
        {
            remote.buffer().putLong(word, word);
            add(REGION - 8 - word, word, 3, word);
            assertEquals(word + 3, remote.buffer().getLong(word));
        }
        assertEquals(ViState.CONNECTED, vi.state());
    }

    @Test
    void shouldRefuseALocalWordPastTheRememberedRegionAsTheLocalCheckDoes()
    {
        connect();
        add(0, 0, 1, 0);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 0, 1).addSegment(local, REGION - 4, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | PROTECTION_ERROR, atomic.status());
        assertEquals(0, atomic.length());
        assertEquals(1, remote.buffer().getLong(0), "not performed");
        assertEquals(ViState.ERROR, vi.state());
    }

    @Test
    void shouldRefuseARemoteWordPastTheRememberedRegionAsTheMirrorDoes()
    {
        connect();
        add(0, 0, 1, 0);
        local.buffer().putLong(8, -1);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), REGION, 1).addSegment(local, 8, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, atomic.status());
        assertEquals(-1, local.buffer().getLong(8), "no result");
        assertEquals(1, remote.buffer().getLong(0));
    }

    @Test
    void shouldRefuseARemoteRegionDeregisteredOnceRemembered()
    {
        connect();
        add(0, 0, 1, 0);
        add(0, 0, 1, 1);
        target.deregisterMemory(remote);
        local.buffer().putLong(8, -1);
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 0, 1).addSegment(local, 8, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | RDMA_PROT_ERROR, atomic.status());
        assertEquals(-1, local.buffer().getLong(8), "no result");
    }

    @Test
    void shouldTakeOtherRegionsThroughTheFullChecksAndRememberThem()
    {
        connect();
        add(0, 0, 1, 0);
        final MemoryRegion otherLocal = initiator.registerMemory(initiator.allocateMemory(REGION),
            MemoryAttributes.remoteAccess(localTag));
        final MemoryRegion otherRemote = target.registerMemory(target.allocateMemory(REGION),
            MemoryAttributes.remoteAccess(remoteTag));
        otherRemote.buffer().putLong(16, 100);
        for (int i = 0; i < 3; i++)
        {
            vi.postSend(atomic.reset().fetchAndAdd(otherRemote.handle(), 16, 10).addSegment(otherLocal, 24, 8));
            assertSame(atomic, vi.sendWait(T));
            assertEquals(DONE | OP_ATOMIC, atomic.status());
            assertEquals(100 + 10L * i, otherLocal.buffer().getLong(24));
            add(0, 0, 1, 1 + i);
        }
        assertEquals(130, otherRemote.buffer().getLong(16));
        assertEquals(0, local.buffer().getLong(24), "results go to the descriptor's region");

        // a deregistered handle's entry changed generation: the full checks run again, and refuse it
        initiator.deregisterMemory(otherLocal);
        final MemoryRegion again = initiator.registerMemory(initiator.allocateMemory(REGION),
            MemoryAttributes.remoteAccess(localTag));
        vi.postSend(atomic.reset().fetchAndAdd(otherRemote.handle(), 16, 1).addSegment(again, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC, atomic.status());
        assertEquals(130, again.buffer().getLong(0));
        vi.postSend(atomic.reset().fetchAndAdd(otherRemote.handle(), 16, 1).addSegment(otherLocal, 0, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | PROTECTION_ERROR, atomic.status(), "the deregistered handle");
        assertEquals(131, otherRemote.buffer().getLong(16));
    }

    @Test
    void shouldTakeDescriptorsOfAnotherShapeOnTheRememberedRegionsThroughTheFullChecks()
    {
        connect();
        add(0, 0, 1, 0);
        final Descriptor none = Descriptor.allocate(0);
        vi.postSend(none.reset().fetchAndAdd(remote.handle(), 0, 1));
        assertSame(none, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | FORMAT_ERROR, none.status(), "no data segment");

        reconnect();
        final Descriptor two = Descriptor.allocate(2);
        vi.postSend(two.reset().fetchAndAdd(remote.handle(), 0, 1).addSegment(local, 8, 4).addSegment(local, 12, 4));
        assertSame(two, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | FORMAT_ERROR, two.status(), "two segments of 4 bytes");

        reconnect();
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 4, 1).addSegment(local, 8, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC | FORMAT_ERROR, atomic.status(), "a remote word off its alignment");
        assertEquals(1, remote.buffer().getLong(0), "none performed");
    }

    @Test
    void shouldCompleteAtomicsPostedBehindOthersInPostingOrder()
    {
        connect();
        add(0, 0, 1, 0);
        final Descriptor write = Descriptor.allocate(1);
        final Descriptor second = Descriptor.allocate(1);
        final Descriptor read = Descriptor.allocate(1);
        for (int i = 1; i <= 100; i++)
        {
            local.buffer().putLong(512, 1000L * i);
            vi.postSend(write.reset().rdmaWrite(remote.handle(), 0).addSegment(local, 512, 8));
            vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), 0, 1).addSegment(local, 8, 8));
            vi.postSend(second.reset().fetchAndAdd(remote.handle(), 0, 2).addSegment(local, 16, 8));
            vi.postSend(read.reset().rdmaRead(remote.handle(), 0).addSegment(local, 24, 8));
            assertSame(write, vi.sendWait(T));
            assertEquals(DONE | OP_RDMA_WRITE, write.status());
            assertSame(atomic, vi.sendWait(T));
            assertEquals(DONE | OP_ATOMIC, atomic.status());
            assertSame(second, vi.sendWait(T));
            assertEquals(DONE | OP_ATOMIC, second.status());
            assertSame(read, vi.sendWait(T));
            assertEquals(DONE | OP_RDMA_READ, read.status());
            assertEquals(1000L * i, local.buffer().getLong(8), "the first atomic sees the write, round " + i);
            assertEquals(1000L * i + 1, local.buffer().getLong(16), "the second sees the first, round " + i);
            assertEquals(1000L * i + 3, local.buffer().getLong(24), "the read sees both, round " + i);
        }
    }

    /**
     * Adds {@code delta} to the remote word at {@code remoteOffset} with the result at {@code localOffset}, and
     * expects it done with {@code expected} fetched.
     */
    private void add(final int localOffset, final int remoteOffset, final long delta, final long expected)
    {
        vi.postSend(atomic.reset().fetchAndAdd(remote.handle(), remoteOffset, delta)
            .addSegment(local, localOffset, 8));
        assertSame(atomic, vi.sendWait(T));
        assertEquals(DONE | OP_ATOMIC, atomic.status());
        assertEquals(8, atomic.length());
        assertEquals(expected, local.buffer().getLong(localOffset));
    }

    /** Opens a fresh pair and remembers a route on it. */
    private void reconnect()
    {
        CloseHelper.closeAll(initiator, target);
        connect();
        add(0, 0, 1, 0);
    }

    private void connect()
    {
        final NicContext context = new NicContext();
        initiator = Nic.open("ucx:127.0.0.1:0", context);
        target = Nic.open("ucx:127.0.0.1:0", context);
        localTag = initiator.createPtag();
        remoteTag = target.createPtag();
        local = initiator.registerMemory(initiator.allocateMemory(REGION), MemoryAttributes.remoteAccess(localTag));
        remote = target.registerMemory(target.allocateMemory(REGION), MemoryAttributes.remoteAccess(remoteTag));
        vi = initiator.createVi(new ViAttributes().ptag(localTag).reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY)
            .enableRdmaWrite(true).enableRdmaRead(true), null, null);
        final Vi peer = target.createVi(new ViAttributes().ptag(remoteTag)
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY).enableRdmaWrite(true).enableRdmaRead(true), null,
            null);
        Providers.connect(vi, target.address(), peer, initiator.address());
    }
}
