package org.viadsm.via.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Failure detection: a connected VI whose peer is gone, or whose peer's record is no longer connected to it, is
 * put in error, its receives flushed, and the loss reported.
 */
@Timeout(30)
class HousekeeperTest
{
    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private EngineNic x;
    private EngineNic y;
    private EngineVi vx;
    private EngineVi vy;
    private MemoryRegion region;

    @AfterEach
    void tearDown()
    {
        for (final Nic nic : new Nic[] {x, y})
        {
            if (null != nic)
            {
                nic.close();
            }
        }
    }

    /** Connects vx and vy and posts a receive on vx. */
    private Descriptor connectAndPostReceive()
    {
        x = (EngineNic)Nic.open("jvm:hkx" + tag);
        y = (EngineNic)Nic.open("jvm:hky" + tag);
        x.errorHandler((error, vi, detail) -> errors.add(error + "@" + (null == vi ? -1 : vi.id())));
        vx = vi(x);
        vy = vi(y);
        vx.connectPeerRequest(y.address(), 2, 10_000_000_000L);
        vy.connectPeerRequest(x.address(), 2, 10_000_000_000L);
        vx.connectPeerWait(10_000_000_000L);
        vy.connectPeerWait(10_000_000_000L);
        region = x.registerMemory(x.allocateMemory(4096), MemoryAttributes.localOnly(vx.attributes().ptag()));
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 64);
        vx.postRecv(recv);
        return recv;
    }

    private static EngineVi vi(final Nic nic)
    {
        return (EngineVi)nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
    }

    @Test
    void aWaitShouldNoticeThatThePeerRecordIsNoLongerConnectedToItsVi()
    {
        final Descriptor recv = connectAndPostReceive();
        vy.record().state(ViRecordLayout.STATE_IDLE);
        assertSame(recv, vx.recvWait(TimeUnit.SECONDS.toNanos(5)));
        assertEquals(RecvCompletion.FLUSHED_STATUS, recv.status());
        assertEquals(ViState.ERROR, vx.state());
        assertEquals(List.of("CONNECTION_LOST@" + vx.id()), errors);
    }

    @Test
    void aLostConnectionShouldLeaveAReceiveClaimedByALivePeerToThatPeer()
    {
        final Descriptor recv = connectAndPostReceive();
        final RecvRing ring = x.area().recvRing(vx.id());
        assertEquals(0, ring.claim(), "the peer's sender claims the receive");
        vy.record().state(ViRecordLayout.STATE_IDLE);
        assertNull(vx.recvWait(TimeUnit.MILLISECONDS.toNanos(100)), "nobody may complete it but its claimer");
        assertEquals(ViState.ERROR, vx.state());
        RecvCompletion.complete(x.self(), vx.record(), ring, 0, DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE,
            64, 0);
        assertSame(recv, vx.recvDone());
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE, recv.status());
        assertEquals(64, recv.length());
        assertNull(vx.recvDone());
    }

    @Test
    void aDonePollingLoopShouldLearnThatThePeerRecordIsNoLongerConnected()
    {
        final Descriptor recv = connectAndPostReceive();
        vy.record().state(ViRecordLayout.STATE_IDLE);
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Descriptor done;
        while (null == (done = vx.recvDone()) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
        assertSame(recv, done, "recvDone alone noticed the lost connection within the check interval");
        assertEquals(RecvCompletion.FLUSHED_STATUS, recv.status());
        assertNull(vx.recvDone());
        assertEquals(List.of("CONNECTION_LOST@" + vx.id()), errors, "handed to the handler on the next call");
    }
}
