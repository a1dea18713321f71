package org.viadsm.via.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
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
}
