package org.viadsm.via.provider.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.EngineNic;
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
 * What only the shm provider does between two processes: the files of a NIC whose process was killed, receives a
 * killed peer had claimed, and bells that wake a receiver asleep in another process (the two-process behaviour
 * of every provider is in {@code TwoProcessTest}).
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
        final Path dir = new NicContext().conclude().shmDirectory();
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

    @Test
    void shouldWakeAReceiverAsleepOnItsBellWhenTheOtherProcessSends() throws Exception
    {
        // a sleep longer than the wait: only the child's ring can end it before the wait times out (the ring's byte
        // itself may be read only at a later await, so the count of rings heard is not asserted)
        final NicContext context = new NicContext();
        context.waits().sleepMaxNs(600_000_000_000L);
        final Vi vi = openConnectedPeer(6, context);
        final EngineNic shm = (EngineNic)nic;
        final ShmTransport bells = (ShmTransport)shm.transport();
        final Descriptor received = receiveWhileAsleep(vi, shm);

        assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.IMMEDIATE, received.status());
        assertEquals(7, received.immediateData());
        assertEquals(1, shm.sleeps());
        assertEquals(1, bells.bellsMade());
        final Path bell = ShmFiles.bellFile(nic.context().shmDirectory(), address.substring(4),
            ProcessHandle.current().pid(), 0);
        assertTrue(Files.exists(bell));
        nic.close();
        assertFalse(Files.exists(bell));
    }

    @Test
    void shouldPollForReceivesWhenBellsAreOff() throws Exception
    {
        final Vi vi = openConnectedPeer(7, new NicContext().shmWakeup(false));
        final EngineNic shm = (EngineNic)nic;
        final ShmTransport bells = (ShmTransport)shm.transport();
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
        vi.postRecv(recv);
        final CompletableFuture<Descriptor> waiter = CompletableFuture.supplyAsync(() -> vi.recvWait(T));
        assertEquals("SENT " + DONE, child.command("send 7", "SENT"));

        assertSame(recv, waiter.get(T, TimeUnit.NANOSECONDS));
        assertEquals(7, recv.immediateData());
        assertEquals(0, shm.sleeps());
        assertEquals(0, bells.bellsMade());
        assertEquals(0, bells.bellWakeups());
    }

    /**
     * Posts a receive, waits for it in another thread until that thread sleeps, then has the child send; returns
     * what the wait returned.
     */
    private Descriptor receiveWhileAsleep(final Vi vi, final EngineNic shm) throws Exception
    {
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
        vi.postRecv(recv);
        final CompletableFuture<Descriptor> waiter = CompletableFuture.supplyAsync(() -> vi.recvWait(T));
        final long deadlineNs = System.nanoTime() + T;
        while (0 == shm.sleeps() && System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(1);
        }
        assertEquals(1, shm.sleeps(), "the receiver never went to sleep");
        assertEquals("SENT " + DONE, child.command("send 7", "SENT"));
        final Descriptor received = waiter.get(T, TimeUnit.NANOSECONDS);
        assertSame(recv, received);
        return received;
    }

    /** Opens this side and the child, and connects them peer to peer at reliable delivery. */
    private Vi openConnectedPeer(final int discriminator)
    {
        return openConnectedPeer(discriminator, new NicContext());
    }

    /**
     * Opens this side with the given settings, then the child, and connects them peer to peer at reliable delivery.
     */
    private Vi openConnectedPeer(final int discriminator, final NicContext context)
    {
        final ReliabilityLevel level = ReliabilityLevel.RELIABLE_DELIVERY;
        nic = Nic.open(address, context);
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
