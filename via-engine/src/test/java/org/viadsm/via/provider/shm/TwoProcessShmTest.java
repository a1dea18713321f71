package org.viadsm.via.provider.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.SparseMemory;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The shm provider between two real processes: this JVM and a {@link ShmPeerMain} child.
 */
@Timeout(120)
class TwoProcessShmTest
{
    private static final long T = ShmPeerMain.TIMEOUT_NS;
    private static final int MESSAGES = 100_000;

    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final String address = "shm:p" + tag;
    private final String childAddress = "shm:c" + tag;
    private Nic nic;
    private ProtectionTag ptag;
    private MemoryRegion region;
    private ChildPeer child;

    private Vi open(final ReliabilityLevel level)
    {
        nic = Nic.open(address);
        ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(64 * 1024), MemoryAttributes.remoteAccess(ptag));
        child = new ChildPeer(childAddress, address, level);
        return nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(level), null, null);
    }

    /** Opens this side and the child, and connects them peer to peer. */
    private Vi openConnectedPeer(final ReliabilityLevel level, final int discriminator)
    {
        final Vi vi = open(level);
        child.send("peer " + discriminator);
        vi.connectPeerRequest(childAddress, discriminator, T);
        vi.connectPeerWait(T);
        child.expect("CONNECTED");
        return vi;
    }

    @AfterEach
    void tearDown()
    {
        if (null != child)
        {
            child.close();
        }
        if (null != nic)
        {
            nic.close();
        }
    }

    @Test
    void shouldEchoPipelinedSendsExactlyOnceInOrder()
    {
        final Vi vi = open(ReliabilityLevel.RELIABLE_RECEPTION);
        child.send("accept 42");
        vi.connectRequest(childAddress, 42, T);
        child.expect("CONNECTED");
        assertEquals(ViState.CONNECTED, vi.state());

        final int window = ShmPeerMain.WINDOW;
        final Descriptor[] recvs = new Descriptor[window];
        for (int i = 0; i < window; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(region, 32 * 1024 + i * 64, 64);
            vi.postRecv(recvs[i]);
        }
        child.command("echo " + MESSAGES, "POSTED");
        final Descriptor send = Descriptor.allocate(1);
        long sent = 0;
        long echoed = 0;
        while (echoed < MESSAGES)
        {
            while (sent < MESSAGES && sent - echoed < window)
            {
                region.buffer().putLong(0, sent);
                region.buffer().putLong(8, ~sent);
                vi.postSend(send.reset().send().addSegment(region, 0, 16).immediateData((int)sent));
                assertEquals(DONE, vi.sendDone().status());
                sent++;
            }
            final Descriptor d = vi.recvWait(T);
            final int slot = (int)(echoed % window);
            assertSame(recvs[slot], d);
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.IMMEDIATE, d.status());
            assertEquals(16, d.length());
            assertEquals((int)echoed, d.immediateData());
            assertEquals(echoed, region.buffer().getLong(32 * 1024 + slot * 64));
            assertEquals(~echoed, region.buffer().getLong(32 * 1024 + slot * 64 + 8));
            echoed++;
            if (echoed + window <= MESSAGES)
            {
                vi.postRecv(d.reset().send().addSegment(region, 32 * 1024 + slot * 64, 64));
            }
        }
        assertEquals("ECHOED " + MESSAGES, child.expect("ECHOED"));
        assertNull(vi.recvDone());
    }

    @Test
    void shouldRdmaAndAtomicsOnChildMemoryWithoutTouchingCanaries()
    {
        final Vi vi = openConnectedPeer(ReliabilityLevel.RELIABLE_RECEPTION, 9);
        final int handle = child.targetHandle;

        long expected = 0;
        for (int i = 0; i < ShmPeerMain.TARGET_LENGTH; i++)
        {
            region.buffer().putByte(i, (byte)(i ^ 0x55));
            expected = expected * 31 + (byte)(i ^ 0x55);
        }
        final Descriptor d = Descriptor.allocate(1);
        vi.postSend(d.reset().rdmaWrite(handle, 0).addSegment(region, 0, ShmPeerMain.TARGET_LENGTH));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, vi.sendDone().status());
        assertEquals("SUM " + expected, child.command("sum", "SUM"));

        child.command("fill", "FILLED");
        vi.postSend(d.reset().rdmaRead(handle, 100).addSegment(region, 20000, 1000));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, vi.sendDone().status());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals((byte)((i + 100) * 7 + 3), region.buffer().getByte(20000 + i));
        }

        vi.postSend(d.reset().compareAndSwap(handle, 64, child64(), 77).addSegment(region, 0, 8));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, vi.sendDone().status());
        vi.postSend(d.reset().fetchAndAdd(handle, 64, 23).addSegment(region, 8, 8));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, vi.sendDone().status());
        assertEquals(77, region.buffer().getLong(8));
        assertEquals("WORD 100", child.command("word 64", "WORD"));

        vi.postSend(d.reset().rdmaWrite(handle, ShmPeerMain.TARGET_LENGTH - 8).addSegment(region, 0, 16));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR,
            vi.sendDone().status());
        assertEquals(ViState.ERROR, vi.state());
        assertEquals("CANARY ok", child.command("canary", "CANARY"));
        assertEquals("STATE ERROR [RDMA_WRITE_PROTECTION]", child.command("state", "STATE"));
    }

    private long child64()
    {
        final String word = child.command("word 64", "WORD");
        return Long.parseLong(word.substring("WORD ".length()));
    }

    @Test
    void shouldDetectKilledPeerFlushAndCleanItsFiles()
    {
        final Vi vi = openConnectedPeer(ReliabilityLevel.RELIABLE_DELIVERY, 3);
        final java.util.List<String> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        nic.errorHandler((error, v, detail) -> errors.add(error.name()));
        final Descriptor[] recvs = new Descriptor[3];
        for (int i = 0; i < 3; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(region, i * 64, 64);
            vi.postRecv(recvs[i]);
        }
        final String childName = childAddress.substring(4);
        final Path dir = SparseMemory.directory();
        assertTrue(Files.exists(ShmFiles.nicFile(dir, childName)));
        assertTrue(Files.exists(ShmFiles.memFile(dir, childName, child.pid, 1)));

        child.kill();
        for (int i = 0; i < 3; i++)
        {
            final Descriptor d = vi.recvWait(T);
            assertSame(recvs[i], d);
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, d.status());
        }
        assertEquals(ViState.ERROR, vi.state());
        assertEquals(java.util.List.of("CONNECTION_LOST"), errors);
        vi.postSend(Descriptor.allocate(1).reset().send().addSegment(region, 0, 8));
        assertEquals(DONE | DescriptorStatus.DESC_FLUSHED_ERROR, vi.sendDone().status());

        assertTrue(Files.exists(ShmFiles.nicFile(dir, childName)));
        try (Nic reopened = Nic.open(childAddress))
        {
            assertFalse(reopened.isClosed());
            assertFalse(Files.exists(ShmFiles.memFile(dir, childName, child.pid, 1)));
        }
        assertFalse(Files.exists(ShmFiles.nicFile(dir, childName)));
    }

    @Test
    void shouldFlushAReceiveTheKilledPeerHadClaimedButNotCompleted()
    {
        final Vi vi = openConnectedPeer(ReliabilityLevel.RELIABLE_DELIVERY, 4);
        final Descriptor first = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
        final Descriptor second = Descriptor.allocate(1).reset().send().addSegment(region, 64, 64);
        vi.postRecv(first);
        vi.postRecv(second);
        assertEquals("CLAIMED 0", child.command("claim " + vi.id(), "CLAIMED"));
        child.kill();
        assertSame(first, vi.recvWait(T));
        assertSame(second, vi.recvWait(T));
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, first.status());
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, second.status());
        assertEquals(ViState.ERROR, vi.state());
    }

    @Test
    void shouldLetADonePollingLoopLearnThatThePeerProcessDied()
    {
        final Vi vi = openConnectedPeer(ReliabilityLevel.RELIABLE_DELIVERY, 5);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
        vi.postRecv(recv);
        child.kill();
        final long deadlineNs = System.nanoTime() + T;
        Descriptor done;
        while (null == (done = vi.recvDone()) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
        assertSame(recv, done);
        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, recv.status());
        assertEquals(ViState.ERROR, vi.state());
    }
}
