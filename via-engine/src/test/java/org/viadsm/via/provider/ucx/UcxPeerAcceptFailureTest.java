package org.viadsm.via.provider.ucx;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpMemMapParams;
import org.openucx.jucx.ucp.UcpMemory;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.engine.ViConnection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Peer to peer, the side that accepts the other's request (the smaller NIC id) may fail to make the connection after
 * it decided to accept (here: the peer's worker address is malformed). Its own request is then never sent again and
 * nothing else answers its VI, so its wait fails at once with the cause, the VI idle again, and its request is
 * withdrawn; before, the wait ran to its timeout and reported the request as unmatched.
 */
@Timeout(120)
class UcxPeerAcceptFailureTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(30);
    private static final int RAW_VI = 3;
    private static final int RAW_SEQUENCE = 1;
    private static final long DISCRIMINATOR = 11;
    private static final long MARKER = 12;

    /** The raw peer's messages in flight: UCX reads their buffers until they complete. */
    private final List<ByteBuffer> buffers = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void acceptorShouldFailAtOnceNamingWhyItsAcceptanceFailed() throws Exception
    {
        final List<Handshake> received = new CopyOnWriteArrayList<>();
        try (Nic nic = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(received::add))
        {
            final UcpWorker worker = peer.worker();
            final String raw = peer.address();
            final Vi vi = reliableVi(nic);
            vi.connectPeerRequest(raw, DISCRIMINATOR, T);
            final CompletableFuture<Throwable> waited = failureOf(() -> vi.connectPeerWait(T));
            final long deadlineNs = System.nanoTime() + T;
            while (received.isEmpty() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            assertEquals(1, received.size(), "the NIC's request reached the raw peer");
            final Handshake asked = received.get(0);
            assertEquals(Handshake.PEER_REQUEST, asked.type);
            // the raw peer's own request, with the largest NIC id, so that the NIC's VI accepts it
            final byte[] workerAddress = new byte[64];
            workerAddress[0] = (byte)0xFF; // a format version no UCX packs
            final Handshake request = new Handshake(Handshake.PEER_REQUEST, RAW_VI, 0, RAW_SEQUENCE, -1L,
                DISCRIMINATOR, 7, 4096, asked.reliability, 65536, 0, 0, 16, 0, workerAddress, new byte[32], raw);
            final UcpEndpoint endpoint = peer.connect(UcxAddress.parse(nic.address()).socketAddress());
            final UcpRequest sent = send(endpoint, request);
            while ((!waited.isDone() || received.size() < 2) && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            assertTrue(sent.isCompleted(), "the raw peer's request left");
            final Throwable failed = waited.get(T, TimeUnit.NANOSECONDS);
            assertTrue(failed instanceof ViaException, String.valueOf(failed));
            assertEquals(ViaError.NOT_REACHABLE, ((ViaException)failed).error());
            assertEquals(ViaError.NOT_REACHABLE + ": VI " + vi.id() + " cannot connect to the peer at " + raw +
                ": the worker address of " + raw + " (64 bytes) is malformed: format version 15 is not one UCX " +
                "packs (0 or 1)",
                failed.getMessage());
            assertEquals(ViState.IDLE, vi.state());
            assertEquals(2, received.size(), "the raw peer got the NIC's request and its withdrawal only");
            final Handshake withdrawal = received.get(1);
            assertEquals(Handshake.WITHDRAW, withdrawal.type);
            assertEquals(vi.id(), withdrawal.viId);
            assertEquals(asked.sequence, withdrawal.sequence);
            endpoint.closeNonBlockingForce();
            peer.accepted().forEach(UcpEndpoint::closeNonBlockingForce);
        }
    }

    /**
     * The requester's listener is gone, so every acceptance's endpoint to it fails before the acceptance leaves: the
     * acceptor accepts again (as it does when UCX fails a new connection of a starved process), a bounded number of
     * times, then its wait fails naming UCX's cause instead of waiting out its timeout.
     */
    @Test
    void acceptorShouldAcceptAgainThenFailNamingUcxCauseWhenAcceptancesNeverLeave() throws Exception
    {
        final String gone;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            gone = "ucx:127.0.0.1:" + socket.getLocalPort();
        }
        try (Nic nic = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(message -> { });
             Described described = new Described())
        {
            final UcpWorker worker = peer.worker();
            final Vi vi = reliableVi(nic);
            vi.connectPeerRequest(gone, DISCRIMINATOR, T);
            final CompletableFuture<Throwable> waited = failureOf(() -> vi.connectPeerWait(T));
            // the request describes a real worker and mirror, so that each acceptance makes its link
            final Handshake request = describe(Handshake.PEER_REQUEST, RAW_SEQUENCE, DISCRIMINATOR, described, gone);
            final UcpEndpoint endpoint = peer.connect(UcxAddress.parse(nic.address()).socketAddress());
            final UcpRequest sent = send(endpoint, request);
            final long deadlineNs = System.nanoTime() + T;
            while (!waited.isDone() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            assertTrue(sent.isCompleted(), "the raw peer's request left");
            final Throwable failed = waited.get(T, TimeUnit.NANOSECONDS);
            assertTrue(failed instanceof ViaException, String.valueOf(failed));
            assertEquals(ViaError.NOT_REACHABLE, ((ViaException)failed).error());
            final String expected = ViaError.NOT_REACHABLE + ": the peer at " + gone + " went away while VI " +
                vi.id() + " accepted its request: control endpoint to /127.0.0.1:" + gone.substring(14) +
                " failed: UCS_ERR_";
            assertTrue(failed.getMessage().startsWith(expected), failed.getMessage());
            assertEquals(ViState.IDLE, vi.state());
            endpoint.closeNonBlockingForce();
        }
    }

    /**
     * The VI's request was settled (here as its wait giving up does first) while its acceptance waited for the
     * confirmation, which then arrives before the VI forgot the request: the VI must not become connected after its
     * caller was told it failed, and the link made for it is released.
     */
    @Test
    void confirmationAfterTheVisRequestWasSettledShouldNotConnectIt() throws Exception
    {
        final List<Handshake> received = new CopyOnWriteArrayList<>();
        try (Nic nic = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(received::add);
             Described described = new Described())
        {
            final UcxTransport transport = (UcxTransport)((EngineNic)nic).transport();
            final Vi vi = reliableVi(nic);
            final UcpEndpoint endpoint = acceptRawRequest(nic, peer, received, described, vi);
            final ViConnection connection = ((EngineNic)nic).connectionOf(vi);
            assertTrue(connection.settle(received.get(0).sequence, 0, ViConnection.CONNECT_REJECTED));
            assertNotNull(transport.link(vi.id()), "the acceptance made its link");
            send(endpoint, Handshake.bare(Handshake.CONFIRM, RAW_VI, vi.id(), RAW_SEQUENCE, -1L));
            final long deadlineNs = System.nanoTime() + T;
            while (ViState.CONNECT_PENDING == vi.state() && null != transport.link(vi.id()) &&
                System.nanoTime() - deadlineNs < 0)
            {
                peer.worker().progress();
                transport.progress(false);
            }
            assertEquals(ViState.CONNECT_PENDING, vi.state(), "the confirmation did not connect the VI");
            assertNull(transport.link(vi.id()), "the link made for the acceptance was released");
            connection.backToIdle();
            endpoint.closeNonBlockingForce();
            peer.accepted().forEach(UcpEndpoint::closeNonBlockingForce);
        }
    }

    /**
     * The requester withdraws its request twice (its own withdrawal, then its answer to the acceptance it no longer
     * waits for): the second finds the acceptance failed, and the accepting VI's wait still releases the link made
     * for it, failing at once as the peer gone.
     */
    @Test
    void acceptanceWithdrawnTwiceShouldReleaseItsLinkWhenTheWaitFails() throws Exception
    {
        final List<Handshake> received = new CopyOnWriteArrayList<>();
        try (Nic nic = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(received::add);
             Described described = new Described())
        {
            final UcxTransport transport = (UcxTransport)((EngineNic)nic).transport();
            final Vi vi = reliableVi(nic);
            final UcpEndpoint endpoint = acceptRawRequest(nic, peer, received, described, vi);
            assertNotNull(transport.link(vi.id()), "the acceptance made its link");
            send(endpoint, Handshake.bare(Handshake.WITHDRAW, RAW_VI, 0, RAW_SEQUENCE, -1L));
            send(endpoint, Handshake.bare(Handshake.WITHDRAW, RAW_VI, 0, RAW_SEQUENCE, -1L));
            // a client's request after them in the same stream: once a connection wait takes it, both were handled
            send(endpoint, describe(Handshake.CLIENT_REQUEST, RAW_SEQUENCE + 1, MARKER, described, peer.address()));
            final CompletableFuture<Throwable> marked = failureOf(() -> nic.connectWait(MARKER, T).reject());
            final long deadlineNs = System.nanoTime() + T;
            while (!marked.isDone() && System.nanoTime() - deadlineNs < 0)
            {
                peer.worker().progress();
            }
            assertNull(marked.get(T, TimeUnit.NANOSECONDS));
            final CompletableFuture<Throwable> waited = failureOf(() -> vi.connectPeerWait(T));
            while (!waited.isDone() && System.nanoTime() - deadlineNs < 0)
            {
                peer.worker().progress();
            }
            final Throwable failed = waited.get(T, TimeUnit.NANOSECONDS);
            assertTrue(failed instanceof ViaException, String.valueOf(failed));
            assertEquals(ViaError.NOT_REACHABLE + ": the peer at " + peer.address() + " went away while VI " +
                vi.id() + " accepted its request", failed.getMessage());
            assertEquals(ViState.IDLE, vi.state());
            assertNull(transport.link(vi.id()), "the link made for the acceptance was released");
            endpoint.closeNonBlockingForce();
            peer.accepted().forEach(UcpEndpoint::closeNonBlockingForce);
        }
    }

    /**
     * The VI requests the raw peer, the raw peer requests the VI (with a real worker and mirror, the larger NIC id),
     * and the VI accepts: returns once the acceptance reached the raw peer.
     *
     * @return the raw peer's endpoint to the NIC's listener, over which its request went.
     */
    private UcpEndpoint acceptRawRequest(final Nic nic, final RawUcxPeer peer, final List<Handshake> received,
        final Described described, final Vi vi) throws Exception
    {
        final UcxTransport transport = (UcxTransport)((EngineNic)nic).transport();
        vi.connectPeerRequest(peer.address(), DISCRIMINATOR, T);
        final long deadlineNs = System.nanoTime() + T;
        while (received.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            peer.worker().progress();
            transport.progress(false);
        }
        assertEquals(Handshake.PEER_REQUEST, received.get(0).type);
        final UcpEndpoint endpoint = peer.connect(UcxAddress.parse(nic.address()).socketAddress());
        send(endpoint, describe(Handshake.PEER_REQUEST, RAW_SEQUENCE, DISCRIMINATOR, described, peer.address()));
        while (received.size() < 2 && System.nanoTime() - deadlineNs < 0)
        {
            peer.worker().progress();
            transport.progress(false);
        }
        assertEquals(Handshake.ACCEPT, received.get(1).type, "the VI accepted the raw peer's request");
        return endpoint;
    }

    private static Handshake describe(final int type, final int sequence, final long discriminator,
        final Described described, final String address) throws Exception
    {
        final UcpMemory mirror = described.mirror;
        final ByteBuffer packedWorker = described.worker.getAddress();
        final byte[] workerAddress = new byte[packedWorker.remaining()];
        packedWorker.get(workerAddress);
        final ByteBuffer packedKey = mirror.getRemoteKeyBuffer();
        final byte[] key = new byte[packedKey.remaining()];
        packedKey.get(key);
        return new Handshake(type, RAW_VI, 0, sequence, -1L, discriminator, 7, mirror.getAddress(),
            ReliabilityLevel.RELIABLE_DELIVERY.vipValue(), 65536, 0, 0, 16, 0, workerAddress, key, address);
    }

    private static Vi reliableVi(final Nic nic)
    {
        return nic.createVi(new ViAttributes().ptag(nic.createPtag())
            .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
    }

    /**
     * Runs a wait on another thread.
     *
     * @return what the wait threw, or null once it returned.
     */
    private static CompletableFuture<Throwable> failureOf(final Runnable wait)
    {
        return CompletableFuture.supplyAsync(() ->
        {
            try
            {
                wait.run();
                return null;
            }
            catch (final RuntimeException ex)
            {
                return ex;
            }
        });
    }

    /**
     * Sends a message from the raw peer, its buffers kept until the test ends.
     *
     * @return UCX's request for the send.
     */
    private UcpRequest send(final UcpEndpoint endpoint, final Handshake message)
    {
        final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
        final ByteBuffer data = ByteBuffer.allocateDirect(Math.max(1, message.dataLength()));
        message.encodeHeader(new UnsafeBuffer(header));
        message.encodeData(new UnsafeBuffer(data));
        buffers.add(header);
        buffers.add(data);
        return endpoint.sendAmNonBlocking(Handshake.AM_ID, new UnsafeBuffer(header).addressOffset(),
            Handshake.HEADER_LENGTH, new UnsafeBuffer(data).addressOffset(), message.dataLength(), 0, null);
    }

    /** A worker and a mirror of UCX's own that a raw peer's request describes, so that accepting it makes a link. */
    private static final class Described implements AutoCloseable
    {
        final UcpContext context = new UcpContext(new UcpParams().requestRmaFeature().requestAmFeature());
        final UcpWorker worker = context.newWorker(new UcpWorkerParams());
        final UcpMemory mirror = context.memoryMap(new UcpMemMapParams().allocate().setLength(4096));

        @Override
        public void close()
        {
            CloseHelper.closeAll(mirror, worker, context);
        }
    }
}
