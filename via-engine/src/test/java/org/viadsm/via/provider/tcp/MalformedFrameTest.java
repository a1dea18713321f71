package org.viadsm.via.provider.tcp;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.via.Completion;
import org.viadsm.via.CompletionQueue;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;
import static org.viadsm.via.provider.tcp.FrameLayout.HEADER_LENGTH;

/**
 * A peer that breaks the protocol (from a raw socket) breaks its own connection with a transport error, writes
 * nothing to memory, and leaves the NIC and its other connections working.
 */
@Timeout(30)
class MalformedFrameTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(10);
    private static final byte CANARY = (byte)0xCA;
    private static final int MEMORY_LENGTH = 16 * 1024;

    private Nic victim;
    private Nic friend;
    private ProtectionTag ptag;
    private ByteBuffer memory;
    private MemoryRegion region;
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open()
    {
        victim = Nic.open("tcp:127.0.0.1:0");
        ptag = victim.createPtag();
        memory = victim.allocateMemory(MEMORY_LENGTH);
        for (int i = 0; i < MEMORY_LENGTH; i++)
        {
            memory.put(i, CANARY);
        }
        region = victim.registerMemory(memory, MemoryAttributes.remoteAccess(ptag));
        victim.errorHandler((error, vi, detail) -> errors.add(error + "@" + (null == vi ? -1 : vi.id())));
        friend = Nic.open("tcp:127.0.0.1:0");
    }

    @AfterEach
    void close()
    {
        friend.close();
        victim.close();
    }

    private Vi vi()
    {
        return victim.createVi(new ViAttributes().ptag(ptag).maxTransferSize(RawPeer.MAX_TRANSFER), null, null);
    }

    private Vi connectRaw(final RawPeer raw)
    {
        final Vi vi = vi();
        final CompletableFuture<Void> server = CompletableFuture.runAsync(() -> victim.connectWait(77, T).accept(vi));
        raw.connectAsClient(77, ReliabilityLevel.RELIABLE_RECEPTION);
        server.join();
        assertEquals(ViState.CONNECTED, vi.state());
        return vi;
    }

    private Vi[] connectFriend()
    {
        final ProtectionTag friendTag = friend.createPtag();
        final Vi mine = vi();
        final Vi theirs = friend.createVi(new ViAttributes().ptag(friendTag), null, null);
        mine.connectPeerRequest(friend.address(), 5, T);
        theirs.connectPeerRequest(victim.address(), 5, T);
        mine.connectPeerWait(T);
        theirs.connectPeerWait(T);
        return new Vi[] {mine, theirs};
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "oversized", "negative length", "garbage", "unknown type", "length mismatch", "wrong VI", "out of order",
        "bad version", "read on too much"})
    void shouldBreakOnlyTheOffendingConnection(final String kind)
    {
        final Vi[] healthy = connectFriend();
        try (RawPeer raw = new RawPeer(victim.address()))
        {
            final Vi vi = connectRaw(raw);
            final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
            vi.postRecv(recv);
            final Descriptor read = Descriptor.allocate(1).reset().rdmaRead(1, 0).addSegment(region, 128, 64);
            vi.postSend(read);
            memory.put(128, CANARY);

            misbehave(raw, vi, kind);

            assertSame(read, vi.sendWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.TRANSPORT_ERROR, read.status());
            assertSame(recv, vi.recvWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, recv.status());
            assertEquals(ViState.ERROR, vi.state());
            assertTrue(raw.isClosedByPeer());
            awaitErrors(List.of("RDMA_TRANSPORT@" + vi.id()));
            for (int i = 0; i < MEMORY_LENGTH; i++)
            {
                assertEquals(CANARY, memory.get(i), "byte " + i);
            }
        }
        exchange(healthy[0], healthy[1]);
        assertEquals(ViState.CONNECTED, healthy[0].state());
        assertTrue(!victim.isClosed());
    }

    private void misbehave(final RawPeer raw, final Vi vi, final String kind)
    {
        final int dst = vi.id();
        switch (kind)
        {
            case "oversized":
                raw.frame(FrameLayout.TYPE_RDMA_WRITE, RawPeer.MAX_TRANSFER + 1, dst)
                    .dataLength(RawPeer.MAX_TRANSFER + 1).handle(region.handle());
                raw.send(HEADER_LENGTH);
                break;
            case "negative length":
                raw.frame(FrameLayout.TYPE_SEND, 0, dst);
                raw.payload().putInt(FrameLayout.LENGTH_OFFSET, -8);
                raw.send(HEADER_LENGTH);
                break;
            case "garbage":
                final byte[] garbage = new byte[300];
                new Random(7).nextBytes(garbage);
                garbage[4] = 0x7F;
                raw.sendBytes(garbage);
                break;
            case "unknown type":
                raw.frame(99, 8, dst);
                raw.send(HEADER_LENGTH + 8);
                break;
            case "length mismatch":
                raw.frame(FrameLayout.TYPE_RDMA_WRITE, 8, dst).dataLength(16).handle(region.handle()).address(0);
                raw.payload().setMemory(HEADER_LENGTH, 8, (byte)1);
                raw.send(HEADER_LENGTH + 8);
                break;
            case "wrong VI":
                raw.frame(FrameLayout.TYPE_RDMA_WRITE, 8, dst + 1).dataLength(8).handle(region.handle()).address(0);
                raw.payload().setMemory(HEADER_LENGTH, 8, (byte)1);
                raw.send(HEADER_LENGTH + 8);
                break;
            case "out of order":
                raw.frame(FrameLayout.TYPE_RDMA_WRITE, 8, dst).sequence(5).dataLength(8).handle(region.handle())
                    .address(0);
                raw.payload().setMemory(HEADER_LENGTH, 8, (byte)1);
                raw.send(HEADER_LENGTH + 8);
                break;
            case "bad version":
                raw.frame(FrameLayout.TYPE_RDMA_WRITE, 8, dst).dataLength(8).handle(region.handle()).address(0);
                raw.payload().putByte(FrameLayout.VERSION_OFFSET, (byte)2);
                raw.send(HEADER_LENGTH + 8);
                break;
            default:
                raw.frame(FrameLayout.TYPE_RDMA_READ, 0, dst).dataLength(RawPeer.MAX_TRANSFER + 1)
                    .handle(region.handle());
                raw.send(HEADER_LENGTH);
                break;
        }
    }

    @Test
    void shouldTakeFramesArrivingByteByByte()
    {
        try (RawPeer raw = new RawPeer(victim.address()))
        {
            final Vi vi = connectRaw(raw);
            final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
            vi.postRecv(recv);
            raw.frame(FrameLayout.TYPE_RDMA_WRITE, 100, vi.id()).dataLength(100).handle(region.handle())
                .address(1000);
            for (int i = 0; i < 100; i++)
            {
                raw.payload().putByte(HEADER_LENGTH + i, (byte)i);
            }
            raw.sendBytewise(HEADER_LENGTH + 100);
            assertEquals(FrameLayout.TYPE_ACK, raw.read().type());
            raw.frame(FrameLayout.TYPE_SEND, 4, vi.id()).sequence(1).dataLength(4)
                .flags(FrameLayout.FLAG_IMMEDIATE).immediate(-9);
            raw.payload().putInt(HEADER_LENGTH, 0x01020304);
            raw.sendBytewise(HEADER_LENGTH + 4);
            assertSame(recv, vi.recvWait(T));
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.IMMEDIATE, recv.status());
            assertEquals(-9, recv.immediateData());
            assertEquals(0x01020304, region.buffer().getInt(0));
            for (int i = 0; i < 100; i++)
            {
                assertEquals((byte)i, memory.get(1000 + i));
            }
            assertEquals(CANARY, memory.get(999));
            assertEquals(CANARY, memory.get(1100));
            assertEquals(ViState.CONNECTED, vi.state());
        }
    }

    @Test
    void shouldIgnoreGarbageBeforeAnyRequest()
    {
        final byte[] garbage = new byte[4096];
        new Random(11).nextBytes(garbage);
        for (int attempt = 0; attempt < 3; attempt++)
        {
            try (RawPeer raw = new RawPeer(victim.address()))
            {
                raw.sendBytes(garbage);
                assertTrue(raw.isClosedByPeer());
            }
        }
        final Vi[] healthy = connectFriend();
        exchange(healthy[0], healthy[1]);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    private void exchange(final Vi mine, final Vi theirs)
    {
        final MemoryRegion theirMemory = friend.registerMemory(friend.allocateMemory(4096),
            MemoryAttributes.localOnly(theirs.attributes().ptag()));
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(theirMemory, 0, 8);
        theirs.postRecv(recv);
        region.buffer().putLong(8192, 0x5EEDL);
        mine.postSend(Descriptor.allocate(1).reset().send().addSegment(region, 8192, 8));
        assertEquals(DONE, mine.sendWait(T).status());
        assertSame(recv, theirs.recvWait(T));
        assertEquals(0x5EEDL, theirMemory.buffer().getLong(0));
    }

    private void awaitErrors(final List<String> expected)
    {
        final long deadlineNs = System.nanoTime() + T;
        final CompletionQueue probe = victim.createCq(1);
        while (!expected.equals(errors) && System.nanoTime() - deadlineNs < 0)
        {
            probe.done(new Completion());
            LockSupport.parkNanos(1_000_000L);
        }
        assertEquals(expected, errors);
    }
}
