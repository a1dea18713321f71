package org.viadsm.via.provider.ucx;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.EngineNic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The control endpoints that carry a ucx NIC's answers and withdrawals: each stays open until its peer took the
 * message and closed its end (the receiver closes it as it takes the message), so the message arrives however late
 * the peer's worker runs; a peer that never closes its ends holds at most {@link SetupMessages#MAX_LINGERING} of
 * them.
 */
@Timeout(120)
class UcxSetupEndpointsTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(10);
    private static final long SHORT_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long a peer stays away: several periodic checks of its peer's NIC. */
    private static final long LATE_MS = 200;

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void refusalShouldReachTheClientWhichClosesItsEndAndSoTheServers() throws Exception
    {
        try (Nic client = Nic.open("ucx:127.0.0.1:0");
             Nic server = Nic.open("ucx:127.0.0.1:0"))
        {
            final Vi vi = client.createVi(attributes(client), null, null);
            final CompletableFuture<Void> rejecting = CompletableFuture.runAsync(() ->
                server.connectWait(5, T).reject());
            final ViaException refused = assertThrows(ViaException.class,
                () -> vi.connectRequest(server.address(), 5, T));
            assertEquals(ViaError.REJECT, refused.error());
            assertEquals(ViState.IDLE, vi.state());
            rejecting.get(T, TimeUnit.NANOSECONDS);
            // the refusal's endpoint was the only one the client's listener accepted; taking it closed it
            assertEquals(0, endpoints(client)[1], "endpoints the client's listener holds");
            // which the server's endpoint learns, and closes in its next check
            awaitLingering(server, 0);
        }
    }

    /**
     * A peer that posts its request and comes back to wait for it only later gets the refusal its peer answered
     * meanwhile, while that peer goes on calling into its NIC (whose periodic check closes the endpoints of
     * answers that were taken).
     */
    @Test
    void refusalShouldReachAPeerThatWaitsLate() throws Exception
    {
        try (Nic one = Nic.open("ucx:127.0.0.1:0");
             Nic other = Nic.open("ucx:127.0.0.1:0"))
        {
            // of the pair, the NIC with the smaller id answers the other's request
            final boolean oneAnswers = Long.compareUnsigned(nicId(one), nicId(other)) < 0;
            final Nic answering = oneAnswers ? one : other;
            final Nic late = oneAnswers ? other : one;
            final Vi answerer = answering.createVi(attributes(answering), null, null);
            final Vi latecomer = late.createVi(new ViAttributes().ptag(late.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_RECEPTION), null, null);
            final AtomicBoolean done = new AtomicBoolean();
            final CompletableFuture<ViaError> refusedThere = new CompletableFuture<>();
            latecomer.connectPeerRequest(answering.address(), 7, T);
            final CompletableFuture<Void> waiting = CompletableFuture.runAsync(() ->
            {
                answerer.connectPeerRequest(late.address(), 7, T);
                try
                {
                    answerer.connectPeerWait(T);
                    refusedThere.completeExceptionally(new AssertionError("the VIs connected"));
                }
                catch (final ViaException ex)
                {
                    refusedThere.complete(ex.error());
                }
                while (!done.get())
                {
                    waitOn(answering);
                }
            });
            assertEquals(ViaError.NO_MATCH, refusedThere.get(T, TimeUnit.NANOSECONDS));
            // the latecomer's NIC makes no progress for a while, as on a busy machine
            Thread.sleep(LATE_MS);
            final ViaError refused = assertThrows(ViaException.class, () -> latecomer.connectPeerWait(T)).error();
            done.set(true);
            waiting.get(T, TimeUnit.NANOSECONDS);
            assertEquals(ViaError.NO_MATCH, refused);
            assertEquals(ViState.IDLE, latecomer.state());
            awaitLingering(answering, 0);
        }
    }

    @Test
    void withdrawalShouldReachTheServerWhichClosesItsEndAndSoTheClients() throws Exception
    {
        try (Nic client = Nic.open("ucx:127.0.0.1:0");
             Nic server = Nic.open("ucx:127.0.0.1:0"))
        {
            final Vi vi = client.createVi(attributes(client), null, null);
            final ViaError gaveUp = assertThrows(ViaException.class,
                () -> vi.connectRequest(server.address(), 2, SHORT_NS)).error();
            assertTrue(ViaError.TIMEOUT == gaveUp || ViaError.NOT_REACHABLE == gaveUp, gaveUp.toString());
            // the server's waits take the request and its withdrawal, and close the endpoint they came on; the
            // client's waits run its failure check, which closes the withdrawal's endpoint once the server closed its
            final long deadlineNs = System.nanoTime() + SetupMessages.LINGER_NS;
            while ((0 != endpoints(server)[1] || 0 != endpoints(client)[0]) && System.nanoTime() - deadlineNs < 0)
            {
                waitOn(server);
                waitOn(client);
            }
            assertEquals(0, endpoints(server)[1], "endpoints the server's listener holds");
            assertEquals(0, endpoints(client)[0], "lingering endpoints of the client");
        }
    }

    // Excluded from the default suite (LingeringEndpointsTest checks the cap): the NIC opens 68 connections to the
    // raw peer, and several UCX workers in one process that open and close that many trip UCX 1.13's assertion
    // async.c:643 now and then, in a later test of the same JVM. Run it with -Dviadsm.excludedGroups=.
    @Test
    @Tag("slow")
    void answersToAPeerThatNeverClosesItsEndsShouldHoldAtMostTheirCap() throws Exception
    {
        final int busy = SetupMessages.MAX_LINGERING + 4;
        final ConcurrentLinkedQueue<Handshake> answers = new ConcurrentLinkedQueue<>();
        final AtomicBoolean done = new AtomicBoolean();
        try (Nic victim = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(answers::add))
        {
            final UcpWorker worker = peer.worker();
            // the victim's worker makes progress while it waits for requests that never come
            final CompletableFuture<Void> waiting = CompletableFuture.runAsync(() ->
            {
                while (!done.get())
                {
                    waitOn(victim);
                }
            });
            // requests the victim holds, nobody taking them, then as many again and more, each turned away over an
            // endpoint of its own to this peer's listener
            final String address = peer.address();
            final UcpEndpoint endpoint = peer.connect(UcxAddress.parse(victim.address()).socketAddress());
            final List<ByteBuffer> held = new ArrayList<>();
            final List<UcpRequest> sent = new ArrayList<>();
            for (int viId = 0; viId < UcxConnector.MAX_PENDING_REQUESTS + busy; viId++)
            {
                sent.add(sendRequest(endpoint, viId, address, held));
                worker.progress();
            }
            final long deadlineNs = System.nanoTime() + SetupMessages.LINGER_NS;
            int most = 0;
            while ((answers.size() < SetupMessages.MAX_LINGERING ||
                endpoints(victim)[0] < SetupMessages.MAX_LINGERING) && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
                most = Math.max(most, endpoints(victim)[0]);
            }
            done.set(true);
            waiting.get(T, TimeUnit.NANOSECONDS);
            assertEquals(SetupMessages.MAX_LINGERING, endpoints(victim)[0], "answers' endpoints lingering");
            assertTrue(most <= SetupMessages.MAX_LINGERING, most + " answers' endpoints lingered at once");
            // every answer whose endpoint still lingers arrived; those of the oldest ones, closed early, may not
            assertTrue(answers.size() >= SetupMessages.MAX_LINGERING && answers.size() <= busy,
                answers.size() + " answers arrived");
            final Set<Integer> answered = new HashSet<>();
            for (final Handshake answer : answers)
            {
                assertEquals(Handshake.BUSY, answer.type);
                assertEquals(1, answer.sequence);
                assertTrue(answered.add(answer.peerViId), "answered twice: VI " + answer.peerViId);
            }
            assertTrue(sent.stream().allMatch(request -> null == request || request.isCompleted()));
            endpoint.closeNonBlockingForce();
            peer.accepted().forEach(UcpEndpoint::closeNonBlockingForce);
        }
    }

    private static long nicId(final Nic nic)
    {
        return ((UcxTransport)((EngineNic)nic).transport()).nicId();
    }

    /** The lingering answers' and withdrawals' endpoints of a NIC, and its listener's accepted endpoints. */
    private static int[] endpoints(final Nic nic)
    {
        return ((UcxConnector)((EngineNic)nic).transport().connector()).setupEndpoints();
    }

    /** Waits, as long as an endpoint may linger, for a NIC's lingering endpoints to be as many as expected. */
    private static void awaitLingering(final Nic nic, final int expected)
    {
        final long deadlineNs = System.nanoTime() + SetupMessages.LINGER_NS;
        while (expected != endpoints(nic)[0] && System.nanoTime() - deadlineNs < 0)
        {
            waitOn(nic);
        }
        assertEquals(expected, endpoints(nic)[0], "lingering endpoints of " + nic.address());
    }

    /** A wait for a request that never comes: it makes progress and runs the NIC's failure check. */
    private static void waitOn(final Nic nic)
    {
        assertEquals(ViaError.TIMEOUT, assertThrows(ViaException.class,
            () -> nic.connectWait(99, TimeUnit.MILLISECONDS.toNanos(1))).error());
    }

    private static ViAttributes attributes(final Nic nic)
    {
        return new ViAttributes().ptag(nic.createPtag()).reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY);
    }

    private static UcpRequest sendRequest(final UcpEndpoint endpoint, final int viId, final String address,
        final List<ByteBuffer> held)
    {
        final byte[] workerAddress = new byte[64];
        workerAddress[0] = (byte)0xFF; // a format version no UCX packs: the victim never unpacks it here
        final Handshake request = new Handshake(Handshake.CLIENT_REQUEST, viId, -1, 1, 0x5EED, 77, 1, 4096, 2,
            65536, 0, 0, 16, 0, workerAddress, new byte[32], address);
        final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
        final ByteBuffer data = ByteBuffer.allocateDirect(request.dataLength());
        request.encodeHeader(new UnsafeBuffer(header));
        request.encodeData(new UnsafeBuffer(data));
        held.add(header);
        held.add(data);
        return endpoint.sendAmNonBlocking(Handshake.AM_ID, new UnsafeBuffer(header).addressOffset(),
            header.capacity(), new UnsafeBuffer(data).addressOffset(), data.capacity(), 0, null);
    }
}
