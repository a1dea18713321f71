package org.viadsm.via.provider.ucx;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
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
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryAttributes;
import org.viadsm.via.memory.MemoryRegion;
import org.viadsm.via.memory.ProtectionTag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Seeded fuzzing of the ucx provider's control messages: the connection-setup decoder refuses whatever is not a
 * well-formed message with an {@link IllegalArgumentException} naming the fault and never allocates beyond its
 * field limit; a raw UCX peer that sends a NIC malformed setup and data messages, connects and leaves, or asks for
 * a connection from nowhere, gets nothing from it, and the NIC keeps connecting and moving data; a raw UCX server
 * that accepts a NIC's request with a malformed worker address fails the request by name, and the NIC's VI is idle
 * again; one that accepts a request the NIC no longer holds gets a withdrawal back.
 */
@Timeout(120)
class ControlMessageFuzzTest
{
    private static final long SEED = 0x5EED_0C0DEL;
    private static final long T = TimeUnit.SECONDS.toNanos(10);
    private static final int CASES = 20_000;
    private static final int RAW_MESSAGES = 600;

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void decoderShouldAcceptOrRefuseEveryMutationByName()
    {
        final Random random = new Random(SEED);
        final byte[] header = new byte[Handshake.HEADER_LENGTH];
        final byte[] data = new byte[2 * Handshake.MAX_FIELD_LENGTH];
        int refused = 0;
        for (int i = 0; i < CASES; i++)
        {
            final Handshake valid = request(random);
            valid.encodeHeader(new UnsafeBuffer(header));
            valid.encodeData(new UnsafeBuffer(data));
            int headerLength = Handshake.HEADER_LENGTH;
            long dataLength = valid.dataLength();
            switch (random.nextInt(5))
            {
                case 0 -> random.nextBytes(header);
                case 1 -> header[random.nextInt(header.length)] ^= (byte)(1 + random.nextInt(255));
                case 2 -> new UnsafeBuffer(header).putInt(4 * random.nextInt(20), random.nextInt());
                case 3 -> headerLength = random.nextInt(2 * Handshake.HEADER_LENGTH);
                default -> dataLength = random.nextInt(data.length);
            }
            try
            {
                final Handshake decoded = Handshake.decode(new UnsafeBuffer(header), headerLength,
                    new UnsafeBuffer(data), dataLength);
                assertTrue(decoded.dataLength() <= 3 * Handshake.MAX_FIELD_LENGTH, decoded.toString());
            }
            catch (final IllegalArgumentException ex)
            {
                assertTrue(ex.getMessage().startsWith("connection message"), ex.getMessage());
                refused++;
            }
        }
        assertTrue(refused > CASES / 2, refused + " of " + CASES + " mutations refused");
    }

    // Excluded from the default suite: UCX 1.13 aborts the process now and then. The SIGSEGV in ucp_am_handler (a
    // call to a handler address read from uninitialized memory, for the ids this raw peer sends that the NIC never
    // registered) is gone since the NIC sets every entry of its worker's handler table (UcxHandlers.install), but
    // three workers in one process still trip UCX's own assertions: async.c:643 (a missed event of a closed file
    // descriptor that another worker's handler reuses) and, when the raw peer's context closes with sends in
    // flight, rcache.c:409. Run it with -Dviadsm.excludedGroups=.
    @Test
    @Tag("slow")
    void nicShouldShrugOffARawPeerAndKeepConnecting() throws Exception
    {
        final Random random = new Random(SEED);
        try (Nic victim = Nic.open("ucx:127.0.0.1:0");
             Nic friend = Nic.open("ucx:127.0.0.1:0");
             UcpContext context = new UcpContext(new UcpParams().requestAmFeature().requestWakeupFeature());
             UcpWorker worker = context.newWorker(new UcpWorkerParams()))
        {
            // the victim's server waits for a request, and so takes in whatever arrives meanwhile
            final Vi server = victim.createVi(attributes(victim), null, null);
            final CompletableFuture<Throwable> served = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    victim.connectWait(77, 2 * T).accept(server);
                    return null;
                }
                catch (final RuntimeException ex)
                {
                    return ex;
                }
            });
            final InetSocketAddress target = UcxAddress.parse(victim.address()).socketAddress();
            final List<UcpRequest> requests = new ArrayList<>();
            for (int i = 0; i < 20; i++)
            {
                // connects and leaves at once
                final UcpEndpoint endpoint = RawUcxPeer.connect(worker, target);
                worker.progress();
                endpoint.closeNonBlockingForce();
            }
            final UcpEndpoint endpoint = RawUcxPeer.connect(worker, target);
            final List<ByteBuffer> held = new ArrayList<>();
            for (int i = 0; i < RAW_MESSAGES; i++)
            {
                requests.add(send(endpoint, random, held));
                worker.progress();
            }
            // a well-formed request from nowhere, with a worker address of a foreign format: the acceptor fails
            // cleanly
            requests.add(sendRequest(endpoint, random, "ucx:127.0.0.1:1", 77, held));
            await(worker, requests);
            final Throwable refused = served.get(3 * T, TimeUnit.NANOSECONDS);
            assertTrue(refused instanceof ViaException, String.valueOf(refused));
            assertNotNull(refused.getMessage());
            endpoint.closeNonBlockingForce();
            assertWorks(victim, friend);
        }
    }

    @Test
    void requesterShouldFailByNameOnAMalformedAcceptance() throws Exception
    {
        final AtomicReference<Handshake> request = new AtomicReference<>();
        try (Nic victim = Nic.open("ucx:127.0.0.1:0");
             Nic friend = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(message -> request.compareAndSet(null, message)))
        {
            final UcpWorker worker = peer.worker();
            final String server = peer.address();
            final Vi vi = victim.createVi(attributes(victim), null, null);
            final CompletableFuture<Throwable> connected = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    vi.connectRequest(server, 5, T);
                    return null;
                }
                catch (final RuntimeException ex)
                {
                    return ex;
                }
            });
            final long deadlineNs = System.nanoTime() + T;
            while ((null == request.get() || peer.accepted().isEmpty()) && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            final Handshake asked = request.get();
            assertNotNull(asked, "the request arrived");
            final byte[] workerAddress = new byte[64];
            workerAddress[0] = (byte)0xFF; // a format version no UCX packs
            final Handshake accept = new Handshake(Handshake.ACCEPT, 0, asked.viId, asked.sequence, 42,
                asked.discriminator, 7, 4096, asked.reliability, 65536, 0, 0, 16, 0, workerAddress, new byte[32],
                server);
            final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
            final ByteBuffer data = ByteBuffer.allocateDirect(accept.dataLength());
            accept.encodeHeader(new UnsafeBuffer(header));
            accept.encodeData(new UnsafeBuffer(data));
            final List<UcpRequest> sent = new ArrayList<>();
            final UcpEndpoint client = peer.accepted().get(0);
            sent.add(send(client, Handshake.AM_ID, header, data, new ArrayList<>()));
            await(worker, sent);
            while (!connected.isDone() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            final Throwable failed = connected.get(T, TimeUnit.NANOSECONDS);
            assertTrue(failed instanceof ViaException, String.valueOf(failed));
            assertEquals(ViaError.NOT_REACHABLE, ((ViaException)failed).error());
            assertTrue(failed.getMessage().endsWith(": VI " + vi.id() + " cannot connect to the server at " + server +
                ": the worker address of " + server + " (64 bytes) is malformed: format version 15 is not one UCX " +
                "packs (0 or 1)"), failed.getMessage());
            assertEquals(ViState.IDLE, vi.state());
            client.closeNonBlockingForce();
            assertWorks(victim, friend);
        }
    }

    @Test
    void requesterShouldWithdrawAnAcceptanceOfARequestItNoLongerHolds() throws Exception
    {
        final AtomicReference<Handshake> answer = new AtomicReference<>();
        try (Nic victim = Nic.open("ucx:127.0.0.1:0");
             RawUcxPeer peer = new RawUcxPeer(message -> answer.compareAndSet(null, message)))
        {
            final UcpWorker worker = peer.worker();
            final String server = peer.address();
            final Vi vi = victim.createVi(attributes(victim), null, null);
            // the victim's worker makes progress while it waits for requests that never come; the server waits as
            // long as a withdrawal's endpoint stays open for it, however late its worker runs
            final long deadlineNs = System.nanoTime() + SetupMessages.LINGER_NS;
            final CompletableFuture<Void> waiting = CompletableFuture.runAsync(() ->
            {
                while (null == answer.get() && System.nanoTime() - deadlineNs < 0)
                {
                    assertEquals(ViaError.TIMEOUT, assertThrows(ViaException.class,
                        () -> victim.connectWait(99, TimeUnit.MILLISECONDS.toNanos(20))).error());
                }
            });
            // the acceptance of a request of vi with a sequence it never used, as a server sends for a request
            // whose withdrawal reached it after it took the request
            final byte[] workerAddress = new byte[64];
            workerAddress[0] = (byte)0xFF; // a format version no UCX packs: unpacking it would abort the process
            final Handshake accept = new Handshake(Handshake.ACCEPT, 3, vi.id(), 41, 42, 5, 7, 4096, 2, 65536, 0, 0,
                16, 0, workerAddress, new byte[32], server);
            final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
            final ByteBuffer data = ByteBuffer.allocateDirect(accept.dataLength());
            accept.encodeHeader(new UnsafeBuffer(header));
            accept.encodeData(new UnsafeBuffer(data));
            final UcpEndpoint endpoint = peer.connect(UcxAddress.parse(victim.address()).socketAddress());
            await(worker, List.of(send(endpoint, Handshake.AM_ID, header, data, new ArrayList<>())));
            while (null == answer.get() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
            waiting.get(SetupMessages.LINGER_NS, TimeUnit.NANOSECONDS);
            final Handshake withdrawal = answer.get();
            assertNotNull(withdrawal, "no withdrawal reached the server");
            assertEquals(Handshake.WITHDRAW, withdrawal.type);
            assertEquals(vi.id(), withdrawal.viId);
            assertEquals(41, withdrawal.sequence);
            assertEquals(ViState.IDLE, vi.state());
            endpoint.closeNonBlockingForce();
            peer.accepted().forEach(UcpEndpoint::closeNonBlockingForce);
        }
    }

    private static void assertWorks(final Nic victim, final Nic friend)
    {
        final ProtectionTag victimTag = victim.createPtag();
        final ProtectionTag friendTag = friend.createPtag();
        final ByteBuffer in = victim.allocateMemory(4096);
        final ByteBuffer out = friend.allocateMemory(4096);
        final MemoryRegion inRegion = victim.registerMemory(in, MemoryAttributes.localOnly(victimTag));
        final MemoryRegion outRegion = friend.registerMemory(out, MemoryAttributes.localOnly(friendTag));
        final Vi a = friend.createVi(new ViAttributes().ptag(friendTag).reliabilityLevel(
            ReliabilityLevel.RELIABLE_DELIVERY), null, null);
        final Vi b = victim.createVi(new ViAttributes().ptag(victimTag).reliabilityLevel(
            ReliabilityLevel.RELIABLE_DELIVERY), null, null);
        a.connectPeerRequest(victim.address(), 9, T);
        b.connectPeerRequest(friend.address(), 9, T);
        a.connectPeerWait(T);
        b.connectPeerWait(T);
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(inRegion, 0, 64);
        b.postRecv(recv);
        outRegion.buffer().putStringWithoutLengthAscii(0, "still here");
        a.postSend(Descriptor.allocate(1).reset().send().addSegment(outRegion, 0, 10));
        assertSame(recv, b.recvWait(T));
        assertEquals("still here", inRegion.buffer().getStringWithoutLengthAscii(0, recv.length()));
    }

    private static ViAttributes attributes(final Nic nic)
    {
        return new ViAttributes().ptag(nic.createPtag()).reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY);
    }

    /** One message of a random kind: a setup or data message, valid but for a mutation, or noise. */
    private static UcpRequest send(final UcpEndpoint endpoint, final Random random, final List<ByteBuffer> held)
    {
        final int kind = random.nextInt(4);
        final ByteBuffer header;
        final ByteBuffer data;
        if (0 == kind)
        {
            final Handshake valid = request(random);
            header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
            data = ByteBuffer.allocateDirect(valid.dataLength());
            valid.encodeHeader(new UnsafeBuffer(header));
            valid.encodeData(new UnsafeBuffer(data));
            header.put(random.nextInt(Handshake.HEADER_LENGTH), (byte)random.nextInt(256));
        }
        else
        {
            header = noise(random, random.nextInt(2) * (16 + random.nextInt(96)));
            data = noise(random, random.nextInt(3) * random.nextInt(2048));
        }
        final int id = 0 == kind ? Handshake.AM_ID : 1 == kind ? DataHeader.AM_ID : 1 + random.nextInt(4);
        return send(endpoint, id, header, data, held);
    }

    private static UcpRequest sendRequest(final UcpEndpoint endpoint, final Random random, final String address,
        final long discriminator, final List<ByteBuffer> held)
    {
        final byte[] workerAddress = new byte[64];
        final byte[] key = new byte[32];
        random.nextBytes(workerAddress);
        random.nextBytes(key);
        workerAddress[0] = (byte)0xFF; // a format version no UCX packs: unpacking it would abort the process
        final Handshake request = new Handshake(Handshake.CLIENT_REQUEST, 0, -1, 1, random.nextLong(), discriminator,
            random.nextLong(), 4096, 2, 65536, 0, 0, 16, 0, workerAddress, key, address);
        final ByteBuffer header = ByteBuffer.allocateDirect(Handshake.HEADER_LENGTH);
        final ByteBuffer data = ByteBuffer.allocateDirect(request.dataLength());
        request.encodeHeader(new UnsafeBuffer(header));
        request.encodeData(new UnsafeBuffer(data));
        return send(endpoint, Handshake.AM_ID, header, data, held);
    }

    private static UcpRequest send(final UcpEndpoint endpoint, final int id, final ByteBuffer header,
        final ByteBuffer data, final List<ByteBuffer> held)
    {
        held.add(header);
        held.add(data);
        return endpoint.sendAmNonBlocking(id, addressOf(header), header.capacity(), addressOf(data), data.capacity(),
            0, null);
    }

    /** Progresses the raw peer until its messages left (or a bound passed: the victim may drop the connection). */
    private static void await(final UcpWorker worker, final List<UcpRequest> requests) throws Exception
    {
        final long deadlineNs = System.nanoTime() + T;
        for (final UcpRequest request : requests)
        {
            while (null != request && !request.isCompleted() && System.nanoTime() - deadlineNs < 0)
            {
                worker.progress();
            }
        }
    }

    private static Handshake request(final Random random)
    {
        final byte[] workerAddress = new byte[1 + random.nextInt(200)];
        final byte[] key = new byte[1 + random.nextInt(100)];
        random.nextBytes(workerAddress);
        random.nextBytes(key);
        return new Handshake(1 + random.nextInt(Handshake.WITHDRAW), random.nextInt(8), random.nextInt(8) - 1,
            random.nextInt(4), random.nextLong(), 100 + random.nextInt(100), random.nextLong(), random.nextLong(),
            1 << random.nextInt(3), 1 + random.nextInt(1 << 20), random.nextInt(4), random.nextInt(4),
            1 + random.nextInt(64), random.nextInt(2), workerAddress, key,
            "ucx:127.0.0.1:" + (1 + random.nextInt(65535)));
    }

    private static ByteBuffer noise(final Random random, final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return ByteBuffer.allocateDirect(length).put(bytes).flip();
    }

    private static long addressOf(final ByteBuffer buffer)
    {
        return new UnsafeBuffer(buffer).addressOffset();
    }
}
