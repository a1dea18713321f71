package org.viadsm.via.provider;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * The providers that connect processes, between two real ones: this JVM and a {@link PeerMain} child.
 */
@Timeout(120)
class TwoProcessTest
{
    private static final long T = PeerMain.TIMEOUT_NS;
    private static final int MESSAGES = 100_000;

    private Nic nic;
    private ProtectionTag ptag;
    private MemoryRegion region;
    private ChildPeer child;

    private Vi open(final String scheme, final ReliabilityLevel level)
    {
        nic = Nic.open(Providers.address(scheme));
        ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(64 * 1024), MemoryAttributes.remoteAccess(ptag));
        child = new ChildPeer(Providers.address(scheme), nic.address(), level);
        return nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(level), null, null);
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

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldEchoPipelinedSendsExactlyOnceInOrder(final String scheme)
    {
        final Vi vi = open(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        child.send("accept 42");
        vi.connectRequest(child.address, 42, T);
        child.expect("CONNECTED");
        assertEquals(ViState.CONNECTED, vi.state());

        final int window = PeerMain.WINDOW;
        final Descriptor[] recvs = new Descriptor[window];
        for (int i = 0; i < window; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(region, 32 * 1024 + i * 64, 64);
            vi.postRecv(recvs[i]);
        }
        child.command("echo " + MESSAGES, "POSTED");
        final Descriptor[] sends = new Descriptor[window];
        for (int i = 0; i < window; i++)
        {
            sends[i] = Descriptor.allocate(1);
        }
        long sent = 0;
        long echoed = 0;
        long completed = 0;
        while (echoed < MESSAGES)
        {
            while (sent < MESSAGES && sent - echoed < window)
            {
                final int slot = (int)(sent % window);
                if (sent - completed >= window)
                {
                    assertSame(sends[slot], vi.sendWait(T));
                    assertEquals(DONE, sends[slot].status());
                    completed++;
                }
                region.buffer().putLong(slot * 16, sent);
                region.buffer().putLong(slot * 16 + 8, ~sent);
                vi.postSend(sends[slot].reset().send().addSegment(region, slot * 16, 16).immediateData((int)sent));
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
        while (completed < sent)
        {
            assertEquals(DONE, vi.sendWait(T).status());
            completed++;
        }
        assertEquals("ECHOED " + MESSAGES, child.expect("ECHOED"));
        assertNull(vi.recvDone());
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldRdmaAndAtomicsOnChildMemoryWithoutTouchingCanaries(final String scheme)
    {
        final Vi vi = open(scheme, ReliabilityLevel.RELIABLE_RECEPTION);
        child.send("peer 9");
        vi.connectPeerRequest(child.address, 9, T);
        vi.connectPeerWait(T);
        child.expect("CONNECTED");
        final int handle = child.targetHandle;

        long expected = 0;
        for (int i = 0; i < PeerMain.TARGET_LENGTH; i++)
        {
            region.buffer().putByte(i, (byte)(i ^ 0x55));
            expected = expected * 31 + (byte)(i ^ 0x55);
        }
        final Descriptor d = Descriptor.allocate(1);
        vi.postSend(d.reset().rdmaWrite(handle, 0).addSegment(region, 0, PeerMain.TARGET_LENGTH));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE, vi.sendWait(T).status());
        assertEquals("SUM " + expected, child.command("sum", "SUM"));

        child.command("fill", "FILLED");
        vi.postSend(d.reset().rdmaRead(handle, 100).addSegment(region, 20000, 1000));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_READ, vi.sendWait(T).status());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals((byte)((i + 100) * 7 + 3), region.buffer().getByte(20000 + i));
        }

        vi.postSend(d.reset().compareAndSwap(handle, 64, child64(), 77).addSegment(region, 0, 8));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, vi.sendWait(T).status());
        vi.postSend(d.reset().fetchAndAdd(handle, 64, 23).addSegment(region, 8, 8));
        assertEquals(DONE | DescriptorStatus.OP_ATOMIC, vi.sendWait(T).status());
        assertEquals(77, region.buffer().getLong(8));
        assertEquals("WORD 100", child.command("word 64", "WORD"));

        vi.postSend(d.reset().rdmaWrite(handle, PeerMain.TARGET_LENGTH - 8).addSegment(region, 0, 16));
        assertEquals(DONE | DescriptorStatus.OP_RDMA_WRITE | DescriptorStatus.RDMA_PROT_ERROR,
            vi.sendWait(T).status());
        assertEquals(ViState.ERROR, vi.state());
        assertEquals("CANARY ok", child.command("canary", "CANARY"));
        assertEquals("STATE ERROR [RDMA_WRITE_PROTECTION]", child.command("state", "STATE"));
    }

    private long child64()
    {
        final String word = child.command("word 64", "WORD");
        return Long.parseLong(word.substring("WORD ".length()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void shouldDetectKilledPeerAndFlush(final String scheme)
    {
        final Vi vi = open(scheme, ReliabilityLevel.RELIABLE_DELIVERY);
        final List<String> errors = new CopyOnWriteArrayList<>();
        nic.errorHandler((error, v, detail) -> errors.add(error.name()));
        child.send("peer 3");
        vi.connectPeerRequest(child.address, 3, T);
        vi.connectPeerWait(T);
        child.expect("CONNECTED");
        final Descriptor[] recvs = new Descriptor[3];
        for (int i = 0; i < 3; i++)
        {
            recvs[i] = Descriptor.allocate(1).reset().send().addSegment(region, i * 64, 64);
            vi.postRecv(recvs[i]);
        }

        child.kill();
        for (int i = 0; i < 3; i++)
        {
            final Descriptor d = vi.recvWait(T);
            assertSame(recvs[i], d);
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, d.status());
        }
        assertEquals(ViState.ERROR, vi.state());
        vi.postSend(Descriptor.allocate(1).reset().send().addSegment(region, 0, 8));
        assertEquals(DONE | DescriptorStatus.DESC_FLUSHED_ERROR, vi.sendWait(T).status());
        final long deadlineNs = System.nanoTime() + T;
        while (errors.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            vi.sendDone();
            Thread.onSpinWait();
        }
        assertEquals(List.of("CONNECTION_LOST"), errors);
    }
}
