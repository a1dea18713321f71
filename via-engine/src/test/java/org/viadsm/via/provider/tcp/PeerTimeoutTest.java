package org.viadsm.via.provider.tcp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that goes silent (its link down, its process stopped, both invisible to TCP for minutes) is taken for
 * lost after the peer timeout; a quiet but live peer is not, because quiet connections carry heartbeats.
 */
@Timeout(60)
class PeerTimeoutTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(20);
    private static final long PEER_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(600);

    private Nic nic;
    private ProtectionTag ptag;
    private MemoryRegion region;
    private final List<String> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open()
    {
        nic = Nic.open("tcp:127.0.0.1:0", peerTimeout(PEER_TIMEOUT_NS));
        ptag = nic.createPtag();
        region = nic.registerMemory(nic.allocateMemory(4096), MemoryAttributes.remoteAccess(ptag));
        nic.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
    }

    @AfterEach
    void close()
    {
        nic.close();
    }

    @Test
    void shouldSendHeartbeatsOnAQuietConnectionAndLoseAPeerThatSendsNothing()
    {
        try (RawPeer raw = new RawPeer(nic.address()))
        {
            final Vi vi = nic.createVi(new ViAttributes().ptag(ptag).maxTransferSize(RawPeer.MAX_TRANSFER), null,
                null);
            final CompletableFuture<Void> server = CompletableFuture.runAsync(() -> nic.connectWait(9, T).accept(vi));
            raw.connectAsClient(9, ReliabilityLevel.RELIABLE_RECEPTION);
            server.join();
            final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
            vi.postRecv(recv);
            assertEquals(FrameLayout.TYPE_HEARTBEAT, raw.readAny().type(), "a quiet connection carries heartbeats");
            assertSame(recv, vi.recvWait(T));
            assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE | DescriptorStatus.DESC_FLUSHED_ERROR,
                recv.status());
            assertEquals(ViState.ERROR, vi.state());
            vi.recvDone();
            final long deadlineNs = System.nanoTime() + T;
            while (errors.isEmpty() && System.nanoTime() < deadlineNs)
            {
                vi.sendDone();
                Thread.onSpinWait();
            }
            assertTrue(errors.get(0).startsWith("CONNECTION_LOST: nothing arrived from ") &&
                errors.get(0).endsWith(" ms: its link is down or its process stopped"), errors.toString());
        }
    }

    @Test
    void shouldKeepAQuietConnectionToALivePeer() throws InterruptedException
    {
        // longer than the other test's: a live peer's heartbeats must get through however loaded the machine is
        final long timeoutNs = TimeUnit.SECONDS.toNanos(2);
        final Nic one = Nic.open("tcp:127.0.0.1:0", peerTimeout(timeoutNs));
        final Nic other = Nic.open("tcp:127.0.0.1:0", peerTimeout(timeoutNs));
        try
        {
            one.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            final Vi mine = one.createVi(new ViAttributes().ptag(one.createPtag()), null, null);
            final Vi theirs = other.createVi(new ViAttributes().ptag(other.createPtag()), null, null);
            Providers.connect(mine, other.address(), theirs, one.address());
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * timeoutNs));
            assertEquals(ViState.CONNECTED, mine.state());
            assertEquals(ViState.CONNECTED, theirs.state());
            assertEquals(List.of(), errors);
        }
        finally
        {
            other.close();
            one.close();
        }
    }

    private static NicContext peerTimeout(final long timeoutNs)
    {
        final NicContext context = new NicContext();
        context.tcp().peerTimeoutNs(timeoutNs);
        return context;
    }
}
