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
import org.viadsm.via.provider.ChildPeer;
import org.viadsm.via.provider.PeerMain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.viadsm.via.descriptor.DescriptorStatus.DONE;

/**
 * What only the shm provider does between two processes: the files of a NIC whose process was killed, and receives
 * a killed peer had claimed (the two-process behaviour of every provider is in {@code TwoProcessTest}).
 */
@Timeout(120)
class TwoProcessShmTest
{
    private static final long T = PeerMain.TIMEOUT_NS;

    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final String address = "shm:p" + tag;
    private final String childAddress = "shm:c" + tag;
    private ChildPeer child;
    private Nic nic;
    private MemoryRegion region;

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
    void shouldRemoveFilesOfKilledChildWhenItsAddressIsOpenedAgain()
    {
        child = new ChildPeer(childAddress, "shm:p" + tag, ReliabilityLevel.RELIABLE_DELIVERY);
        final String childName = childAddress.substring(4);
        final Path dir = SparseMemory.directory();
        assertTrue(Files.exists(ShmFiles.nicFile(dir, childName)));
        assertTrue(Files.exists(ShmFiles.memFile(dir, childName, child.pid, 1)));

        child.kill();
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
        final Vi vi = openConnectedPeer(4);
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
        final Vi vi = openConnectedPeer(5);
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

    /** Opens this side and the child, and connects them peer to peer at reliable delivery. */
    private Vi openConnectedPeer(final int discriminator)
    {
        final ReliabilityLevel level = ReliabilityLevel.RELIABLE_DELIVERY;
        nic = Nic.open(address);
        final ProtectionTag ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(64 * 1024), MemoryAttributes.remoteAccess(ptag));
        child = new ChildPeer(childAddress, address, level);
        final Vi vi = nic.createVi(new ViAttributes().ptag(ptag).reliabilityLevel(level), null, null);
        child.send("peer " + discriminator);
        vi.connectPeerRequest(childAddress, discriminator, T);
        vi.connectPeerWait(T);
        child.expect("CONNECTED");
        return vi;
    }
}
