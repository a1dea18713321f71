package org.viadsm.via.provider.tcp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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

/**
 * Send descriptors still in flight (their responses never came, the peer being a raw socket that does not answer)
 * when the connection ends.
 */
@Timeout(30)
class TcpDisconnectTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(10);

    private Nic nic;
    private ProtectionTag ptag;
    private MemoryRegion region;
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open()
    {
        nic = Nic.open("tcp:127.0.0.1:0");
        ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(4096), MemoryAttributes.remoteAccess(ptag));
        nic.errorHandler((error, vi, detail) -> errors.add(error + "@" + (null == vi ? -1 : vi.id())));
    }

    @AfterEach
    void close()
    {
        nic.close();
    }

    private Vi connect(final RawPeer raw)
    {
        final Vi vi = nic.createVi(new ViAttributes().ptag(ptag).maxTransferSize(RawPeer.MAX_TRANSFER), null, null);
        final CompletableFuture<Void> server = CompletableFuture.runAsync(() -> nic.connectWait(8, T).accept(vi));
        raw.connectAsClient(8, ReliabilityLevel.RELIABLE_RECEPTION);
        server.join();
        return vi;
    }

    private Descriptor[] postReads(final Vi vi)
    {
        final Descriptor[] reads = new Descriptor[3];
        for (int i = 0; i < reads.length; i++)
        {
            reads[i] = Descriptor.allocate(1).reset().rdmaRead(1, 0).addSegment(region, 64 * i, 64);
            vi.postSend(reads[i]);
        }
        return reads;
    }

    @Test
    void shouldFlushDescriptorsInFlightWhenDisconnectingAndTellThePeer()
    {
        try (RawPeer raw = new RawPeer(nic.address()))
        {
            final Vi vi = connect(raw);
            final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 1024, 64);
            vi.postRecv(recv);
            final Descriptor[] reads = postReads(vi);
            for (int i = 0; i < reads.length; i++)
            {
                assertEquals(FrameLayout.TYPE_RDMA_READ, raw.read().type());
            }
            assertEquals(null, vi.sendDone());

            vi.disconnect();
            assertEquals(ViState.IDLE, vi.state());
            for (final Descriptor read : reads)
            {
                assertSame(read, vi.sendDone());
                assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | DescriptorStatus.DESC_FLUSHED_ERROR, read.status());
            }
            assertSame(recv, vi.recvDone());
            assertEquals(DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR, recv.status());
            assertEquals(FrameLayout.TYPE_DISCONNECT, raw.read().type());
            assertTrue(raw.isClosedByPeer());
            assertTrue(errors.isEmpty(), errors.toString());
        }
    }

    @Test
    void shouldFlushDescriptorsInFlightWhenThePeerDisconnectsOrVanishes()
    {
        for (final boolean orderly : new boolean[] {true, false})
        {
            errors.clear();
            try (RawPeer raw = new RawPeer(nic.address()))
            {
                final Vi vi = connect(raw);
                final Descriptor[] reads = postReads(vi);
                if (orderly)
                {
                    raw.frame(FrameLayout.TYPE_DISCONNECT, 0, vi.id());
                    raw.send(FrameLayout.HEADER_LENGTH);
                }
                else
                {
                    raw.vanish();
                }
                final int error = orderly ? DescriptorStatus.DESC_FLUSHED_ERROR : DescriptorStatus.TRANSPORT_ERROR;
                for (final Descriptor read : reads)
                {
                    assertSame(read, vi.sendWait(T));
                    assertEquals(DONE | DescriptorStatus.OP_RDMA_READ | error, read.status());
                }
                assertEquals(ViState.ERROR, vi.state());
                awaitErrors(List.of("CONNECTION_LOST@" + vi.id()));
                vi.close();
            }
        }
    }

    private void awaitErrors(final List<String> expected)
    {
        final long deadlineNs = System.nanoTime() + T;
        final CompletionQueue probe = nic.createCq(1);
        while (!expected.equals(errors) && System.nanoTime() - deadlineNs < 0)
        {
            probe.done(new Completion());
            LockSupport.parkNanos(1_000_000L);
        }
        probe.close();
        assertEquals(expected, errors);
    }
}
