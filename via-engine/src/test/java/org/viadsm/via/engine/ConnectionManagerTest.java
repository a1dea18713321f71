package org.viadsm.via.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A requester accepts only the connection it asked for: its record must be connected to the VI that answered, on
 * the NIC it asked, and a record that is no live VI fails the request with the state undone.
 */
@Timeout(30)
class ConnectionManagerTest
{
    private static final long T = 10_000_000_000L;

    private final String tag = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private EngineNic client;
    private EngineNic server;

    @AfterEach
    void tearDown()
    {
        for (final Nic nic : new Nic[] {client, server})
        {
            if (null != nic)
            {
                nic.close();
            }
        }
    }

    private static EngineVi vi(final Nic nic)
    {
        return (EngineVi)nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
    }

    private void open()
    {
        client = (EngineNic)Nic.open("jvm:cmc" + tag);
        server = (EngineNic)Nic.open("jvm:cms" + tag);
    }

    /**
     * Starts a request of {@code vi} to the server, answers it by hand as the server's VI {@code answeringVi}, and
     * establishes the client's record towards {@code establishedNic}/{@code answeringVi}; returns what the request
     * threw.
     */
    private ViaException answerByHand(final EngineVi vi, final int answeringVi, final long establishedNic)
        throws Exception
    {
        final CompletableFuture<Void> request =
            CompletableFuture.runAsync(() -> vi.connectRequest(server.address(), 4, T));
        while (ViRecordLayout.RESULT_PENDING != ViRecordLayout.connectResult(vi.record().connectWord()))
        {
            Thread.onSpinWait();
        }
        final int sequence = ViRecordLayout.connectSequence(vi.record().connectWord());
        vi.record().settle(sequence, answeringVi, ViRecordLayout.RESULT_ACCEPTED);
        vi.record().establish(ViRecordLayout.STATE_CONNECT_PENDING, establishedNic, answeringVi, 4096);
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> request.get(20, TimeUnit.SECONDS));
        assertEquals(ViState.IDLE, vi.state(), "the failed request leaves the VI idle");
        assertNull(vi.remoteAddress());
        return assertInstanceOf(ViaException.class, ex.getCause());
    }

    @Test
    void connectRequestShouldRefuseARecordConnectedToAnotherNic() throws Exception
    {
        open();
        final EngineVi serverVi = vi(server);
        final ViaException ex = answerByHand(vi(client), serverVi.id(), server.nicId() + 1);
        assertEquals(ViaError.NOT_REACHABLE, ex.error());
        assertEquals(ViState.IDLE, serverVi.state());
    }

    @Test
    void connectRequestShouldRefuseAnAnswerWhosePeerRecordIsNotConnectedBack() throws Exception
    {
        open();
        final EngineVi serverVi = vi(server);
        final ViaException ex = answerByHand(vi(client), serverVi.id(), server.nicId());
        assertEquals(ViaError.NOT_REACHABLE, ex.error());
    }

    @Test
    void connectRequestShouldTurnAPeerRecordThatIsNoLiveViIntoViaException() throws Exception
    {
        open();
        final EngineVi vi = vi(client);
        server.area().viRecord(7).establish(ViRecordLayout.STATE_FREE, client.nicId(), vi.id(), 4096);
        final ViaException ex = answerByHand(vi, 7, server.nicId());
        assertEquals(ViaError.NOT_REACHABLE, ex.error());
    }

    @Test
    void aReusedRecordShouldNotReuseItsConnectSequence()
    {
        open();
        final EngineVi first = vi(client);
        first.connectPeerRequest(server.address(), 1, T);
        final int used = ViRecordLayout.connectSequence(first.record().connectWord());
        first.close();
        final EngineVi second = vi(client);
        assertEquals(first.id(), second.id());
        assertEquals(ViRecordLayout.RESULT_ABANDONED,
            ViRecordLayout.connectResult(second.record().connectWord()), "an idle record settles nothing");
        second.connectPeerRequest(server.address(), 1, T);
        assertEquals(used + 1, ViRecordLayout.connectSequence(second.record().connectWord()));
    }

    @Test
    void aSenderOfAnEarlierConnectionShouldNotClaimAReceiveOfTheNextOne()
    {
        open();
        final EngineVi vx = vi(client);
        final EngineVi vy = vi(server);
        final EngineVi vz = vi(server);
        connectPeers(vx, vy);
        final PeerVi earlier = vy.connection().peerVi();
        vx.disconnect();
        vy.disconnect();
        connectPeers(vx, vz);
        final MemoryRegion region = client.registerMemory(client.allocateMemory(4096),
            MemoryAttributes.localOnly(vx.attributes().ptag()));
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(region, 0, 8);
        vx.postRecv(recv);
        final long consumed = vx.record().recvConsumerIndex();

        final SegmentList stale = new SegmentList(1).add(new UnsafeBuffer(new byte[8]), 0, 8);
        assertEquals(TargetAccess.NOT_CONNECTED, earlier.access.send(stale, 8, false, 0));
        assertEquals(consumed, vx.record().recvConsumerIndex(), "the receive of the new connection is untouched");
        assertNull(vx.recvDone());

        final MemoryRegion source = server.registerMemory(server.allocateMemory(4096),
            MemoryAttributes.localOnly(vz.attributes().ptag()));
        source.buffer().putLong(0, 0x7777777777777777L);
        vz.postSend(Descriptor.allocate(1).reset().send().addSegment(source, 0, 8));
        assertSame(recv, vx.recvDone());
        assertEquals(0x7777777777777777L, region.buffer().getLong(0));
    }

    private static void connectPeers(final EngineVi a, final EngineVi b)
    {
        a.connectPeerRequest(b.nic().address(), 6, T);
        b.connectPeerRequest(a.nic().address(), 6, T);
        a.connectPeerWait(T);
        b.connectPeerWait(T);
    }
}
