package org.viadsm.via.provider;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.via.ConnectRequest;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorStatus;
import org.viadsm.via.engine.EngineNic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ConnectionTest extends TwoNodes
{
    private static final long T = Providers.TIMEOUT_NS;
    private static final long SHORT_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * How long a request to an address nobody listens at retries before it ends, in the first round of
     * {@link #assertRefused}: over tcp and ucx it ends NOT_REACHABLE at its deadline once a connection was refused,
     * TIMEOUT if none was yet (under load UCX's first refusal, which its worker's progress learns, came later than
     * 300 ms).
     */
    private static final long REFUSED_NS = TimeUnit.SECONDS.toNanos(2);
    /** Most rounds {@link #assertRefused} makes, each twice as long as the one before. */
    private static final int REFUSED_ROUNDS = 3;
    /**
     * How long a client waits before it gives up on a request the server must take first: over tcp and ucx the
     * request is a message, which on a busy machine can take longer than {@link #SHORT_NS} to arrive.
     */
    private static final long TAKEN_FIRST_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int REJECTED_ROUNDS = 5;

    /**
     * A thread per task: the common pool may have one thread on a small machine, and a task still blocked there
     * would keep the next test's server from ever running.
     */
    private final ExecutorService async = Executors.newCachedThreadPool();

    @AfterEach
    void stopTasks()
    {
        async.shutdownNow();
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldConnectClientToServerAndAgreeOnMaxTransfer(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi client = a.vi(a.attributes(ReliabilityLevel.RELIABLE_DELIVERY).maxTransferSize(4096), null, null);
        final Vi server = b.vi(b.attributes(ReliabilityLevel.RELIABLE_DELIVERY).enableRdmaWrite(false), null, null);
        final CompletableFuture<ConnectRequest> accepted = CompletableFuture.supplyAsync(() ->
        {
            final ConnectRequest request = b.nic.connectWait(99, T);
            request.accept(server);
            return request;
        }, async);
        client.connectRequest(b.nic.address(), 99, T);
        final ConnectRequest request = accepted.get(20, TimeUnit.SECONDS);

        assertEquals(a.nic.address(), request.remoteAddress());
        assertEquals(99, request.discriminator());
        assertEquals(4096, request.remoteAttributes().maxTransferSize());
        assertEquals(ViState.CONNECTED, client.state());
        assertEquals(ViState.CONNECTED, server.state());
        assertEquals(b.nic.address(), client.remoteAddress());
        assertEquals(a.nic.address(), server.remoteAddress());
        assertFalse(client.remoteAttributes().enableRdmaWrite());
        assertEquals(ReliabilityLevel.RELIABLE_DELIVERY, client.remoteAttributes().reliabilityLevel());
        assertThrows(IllegalStateException.class, () -> request.accept(server));
        assertThrows(IllegalStateException.class, request::reject);

        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(a.region, 0, 8192);
        client.postRecv(recv);
        server.postSend(Descriptor.allocate(1).reset().send().addSegment(b.region, 0, 4097));
        assertEquals(DescriptorStatus.DONE | DescriptorStatus.LENGTH_ERROR, server.sendWait(T).status());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRejectRequest(final String scheme)
    {
        nodes(scheme);
        final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final CompletableFuture<Void> server =
            CompletableFuture.runAsync(() -> b.nic.connectWait(5, T).reject(), async);
        final ViaException ex = assertThrows(ViaException.class, () -> client.connectRequest(b.nic.address(), 5, T));
        assertEquals(ViaError.REJECT, ex.error());
        assertEquals(ViState.IDLE, client.state());
        server.join();
    }

    /**
     * Refusals reach their clients while the server goes on waiting for requests, whose calls into its NIC run the
     * periodic check that closes the endpoints answers left on (over ucx): however late a client's thread takes
     * its refusal, it gets it; each request is refused once.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRejectRequestsWhileTheServerGoesOnWaiting(final String scheme) throws Exception
    {
        nodes(scheme);
        final AtomicBoolean answered = new AtomicBoolean();
        final CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() ->
        {
            int rejected = 0;
            while (!answered.get())
            {
                try
                {
                    b.nic.connectWait(6, SHORT_NS).reject();
                    rejected++;
                }
                catch (final ViaException ex)
                {
                    assertEquals(ViaError.TIMEOUT, ex.error());
                }
            }
            return rejected;
        }, async);
        for (int i = 0; i < REJECTED_ROUNDS; i++)
        {
            final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
            assertEquals(ViaError.REJECT, assertThrows(ViaException.class,
                () -> client.connectRequest(b.nic.address(), 6, T)).error(), "request " + i);
            assertEquals(ViState.IDLE, client.state());
        }
        answered.set(true);
        assertEquals(REJECTED_ROUNDS, server.get(20, TimeUnit.SECONDS));
    }

    /**
     * A request whose client timed out never connects. It ends TIMEOUT on every provider, since nothing refused it:
     * over tcp and ucx NOT_REACHABLE needs a refused connection to the listener, and b listens. Its message says
     * that b did not answer; over tcp and ucx the request may not have reached b before its deadline (a busy
     * machine), and then says that instead. Over shared areas the server's wait never sees it; over tcp and ucx the
     * withdrawal is a message, which may reach the server only after its next {@code connectWait} took the request
     * (under load): then accepting it fails with NOT_REACHABLE, the server's VI stays idle, and a later wait finds
     * nothing. (What {@code Nic.connectWait} promises, no more.)
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldTimeOutAndNeverConnectAnAbandonedRequest(final String scheme)
    {
        nodes(scheme);
        final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi server = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final ViaException gaveUp = assertThrows(ViaException.class,
            () -> client.connectRequest(b.nic.address(), 2, SHORT_NS));
        assertEquals(ViaError.TIMEOUT, gaveUp.error(), gaveUp.getMessage());
        final String unanswered = "TIMEOUT: " + b.nic.address() + " did not answer the connection request of VI " +
            client.id();
        if (Providers.sharedAreaProviders().toList().contains(scheme))
        {
            assertEquals(unanswered, gaveUp.getMessage());
        }
        else if (!unanswered.equals(gaveUp.getMessage()))
        {
            assertEquals(notRefused(client, b.nic.address()), gaveUp.getMessage());
        }
        assertNoConnectionOn(scheme, 2, server);
        assertEquals(ViState.IDLE, client.state());
    }

    /**
     * The message of a request over tcp or ucx that timed out before it reached its listener, nothing having
     * refused it.
     */
    private static String notRefused(final Vi vi, final String address)
    {
        return "TIMEOUT: the connection request of VI " + vi.id() + " timed out before it reached " + address +
            " (no connection to it was refused)";
    }

    /**
     * Connects a new VI of a node to an address nobody listens at, client or peer to peer, and returns the failure,
     * NOT_REACHABLE, the VI idle. Over tcp and ucx a request ends NOT_REACHABLE only if a connection to the listener
     * was refused before its deadline, which the thread that learns of the refusal must have run for: a round whose
     * request ended TIMEOUT saying exactly that nothing refused it (a loaded machine) is repeated with twice the
     * timeout, at most {@link #REFUSED_ROUNDS} rounds; any other outcome fails.
     */
    private static ViaException assertRefused(final Node node, final String address, final boolean peer)
    {
        long timeoutNs = REFUSED_NS;
        for (int round = 1; ; round++, timeoutNs *= 2)
        {
            final Vi vi = node.vi(ReliabilityLevel.RELIABLE_RECEPTION);
            final long requestNs = timeoutNs;
            final ViaException ex;
            if (peer)
            {
                vi.connectPeerRequest(address, 1, requestNs);
                ex = assertThrows(ViaException.class, () -> vi.connectPeerWait(T + requestNs));
            }
            else
            {
                ex = assertThrows(ViaException.class, () -> vi.connectRequest(address, 1, requestNs));
            }
            assertEquals(ViState.IDLE, vi.state());
            if (!peer)
            {
                assertThrows(IllegalStateException.class, vi::connectPeerDone);
            }
            if (ViaError.NOT_REACHABLE == ex.error())
            {
                return ex;
            }
            assertEquals(ViaError.TIMEOUT, ex.error(), ex.getMessage());
            assertEquals(notRefused(vi, address), ex.getMessage());
            assertTrue(round < REFUSED_ROUNDS, "no connection to " + address + " was refused in " + round +
                " rounds, the last of " + requestNs + " ns");
        }
    }

    /**
     * A request that {@code connectWait} took while its client still waited, and that the client then gave up on,
     * fails its accept with NOT_REACHABLE (the client gave up), not as a request already answered; both VIs stay
     * idle. The case needs its request taken before the client's timeout runs out, which a busy machine may delay
     * past any timeout: a round whose request was not taken while its client waited (observed by the client's
     * call having returned) is repeated with a fresh discriminator and twice the timeout.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldFailTheAcceptOfARequestWithdrawnAfterItWasTaken(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi server = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        long timeoutNs = TAKEN_FIRST_NS;
        for (long discriminator = 40; ; discriminator++, timeoutNs *= 2)
        {
            final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
            final long d = discriminator;
            final long clientTimeoutNs = timeoutNs;
            final CompletableFuture<ViaError> gaveUp = CompletableFuture.supplyAsync(() -> assertThrows(
                ViaException.class, () -> client.connectRequest(b.nic.address(), d, clientTimeoutNs)).error(), async);
            final ConnectRequest withdrawn = takeWhileItsClientWaits(d, gaveUp);
            if (null == withdrawn)
            {
                continue;
            }
            assertEquals(ViaError.TIMEOUT, gaveUp.get(20, TimeUnit.SECONDS));
            // the next wait handles the withdrawal, where it travels as a message
            assertEquals(ViaError.TIMEOUT,
                assertThrows(ViaException.class, () -> b.nic.connectWait(d, SHORT_NS)).error());
            final ViaException gone = assertThrows(ViaException.class, () -> withdrawn.accept(server));
            assertEquals(ViaError.NOT_REACHABLE, gone.error(), gone.getMessage());
            assertEquals(ViState.IDLE, server.state());
            assertEquals(ViState.IDLE, client.state());
            return;
        }
    }

    /**
     * Waits for the request with the discriminator as long as its client waits.
     *
     * @return the request, or null if the client's call returned before the request was taken.
     */
    private ConnectRequest takeWhileItsClientWaits(final long discriminator, final CompletableFuture<ViaError> gaveUp)
    {
        while (true)
        {
            try
            {
                final ConnectRequest request = b.nic.connectWait(discriminator, SHORT_NS);
                return gaveUp.isDone() ? null : request;
            }
            catch (final ViaException ex)
            {
                assertEquals(ViaError.TIMEOUT, ex.error());
                if (gaveUp.isDone())
                {
                    return null;
                }
            }
        }
    }

    /**
     * What {@code Nic.connectWait} promises about requests whose requester gave up: over shared areas the wait
     * times out; over tcp and ucx it may return such a request (its withdrawal still on the way), and accepting it
     * fails with NOT_REACHABLE, the VI idle; either way a later wait finds nothing.
     */
    private void assertNoConnectionOn(final String scheme, final long discriminator, final Vi server)
    {
        final ConnectRequest withdrawn;
        try
        {
            withdrawn = b.nic.connectWait(discriminator, SHORT_NS);
        }
        catch (final ViaException ex)
        {
            assertEquals(ViaError.TIMEOUT, ex.error());
            return;
        }
        assertFalse(Providers.sharedAreaProviders().toList().contains(scheme), "a withdrawn request was taken");
        assertEquals(ViaError.NOT_REACHABLE,
            assertThrows(ViaException.class, () -> withdrawn.accept(server)).error());
        assertEquals(ViState.IDLE, server.state());
        assertEquals(ViaError.TIMEOUT,
            assertThrows(ViaException.class, () -> b.nic.connectWait(discriminator, SHORT_NS)).error());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseDifferentReliabilityLevelsWithNoMatch(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi server = b.vi(ReliabilityLevel.RELIABLE_DELIVERY);
        final CompletableFuture<ViaException> accept = CompletableFuture.supplyAsync(() ->
            assertThrows(ViaException.class, () -> b.nic.connectWait(3, T).accept(server)), async);
        final ViaException ex = assertThrows(ViaException.class, () -> client.connectRequest(b.nic.address(), 3, T));
        assertEquals(ViaError.NO_MATCH, ex.error());
        assertEquals(ViaError.NO_MATCH, accept.get(20, TimeUnit.SECONDS).error());
        assertEquals(ViState.IDLE, client.state());
        assertEquals(ViState.IDLE, server.state());
    }

    /**
     * A request to an address nobody listens at fails NOT_REACHABLE (over tcp and ucx once a connection to it was
     * refused, {@link #assertRefused}), the VI idle; over ucx it names UCX's cause, client and peer to peer.
     */
    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    @Timeout(60)
    void shouldFailToReachUnknownAddress(final String scheme)
    {
        nodes(scheme);
        final String address = Providers.unreachableAddress(scheme);
        final ViaException ex = assertRefused(a, address, false);
        if ("ucx".equals(scheme))
        {
            // a request that never reached its listener says why, as UCX's endpoint error named it
            assertNamesUcxCause(ex);
            assertNamesUcxCause(assertRefused(a, address, true));
        }
    }

    private static void assertNamesUcxCause(final ViaException ex)
    {
        assertTrue(ex.getMessage().contains(": connections failed, the last: control endpoint to ") &&
            ex.getMessage().contains(" failed: UCS_ERR_"), ex.getMessage());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldConnectPeerToPeerOnOneNicAndExchange(final String scheme)
    {
        a = new Node(Providers.address(scheme));
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        x.connectPeerRequest(a.nic.address(), 11, T);
        assertFalse(x.connectPeerDone());
        y.connectPeerRequest(a.nic.address(), 11, T);
        y.connectPeerWait(T);
        x.connectPeerWait(T);
        assertTrue(x.connectPeerDone());
        assertEquals(ViState.CONNECTED, x.state());
        assertEquals(ViState.CONNECTED, y.state());

        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(a.region, 100, 4);
        y.postRecv(recv);
        a.region.buffer().putInt(0, 1234);
        x.postSend(Descriptor.allocate(1).reset().send().addSegment(a.region, 0, 4));
        assertSame(recv, y.recvWait(T));
        assertEquals(1234, a.region.buffer().getInt(100));
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldTimeOutUnmatchedPeerRequest(final String scheme)
    {
        nodes(scheme);
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        x.connectPeerRequest(b.nic.address(), 1, SHORT_NS);
        final ViaException ex = assertThrows(ViaException.class, () -> x.connectPeerWait(T));
        assertEquals(ViaError.TIMEOUT, ex.error());
        assertEquals(ViState.IDLE, x.state());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldDisconnectFlushingReceivesAndBreakingThePeer(final String scheme)
    {
        nodes(scheme);
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        final Descriptor[] xs = new Descriptor[3];
        final Descriptor[] ys = new Descriptor[3];
        for (int i = 0; i < 3; i++)
        {
            xs[i] = Descriptor.allocate(1).reset().send().addSegment(a.region, 8 * i, 8);
            ys[i] = Descriptor.allocate(1).reset().send().addSegment(b.region, 8 * i, 8);
            x.postRecv(xs[i]);
            y.postRecv(ys[i]);
        }
        x.disconnect();
        assertEquals(ViState.IDLE, x.state());
        Providers.awaitState(y, ViState.ERROR);
        for (int i = 0; i < 3; i++)
        {
            assertSame(xs[i], x.recvDone());
            assertSame(ys[i], y.recvWait(T));
            assertEquals(RecvFlushed.STATUS, xs[i].status());
            assertEquals(RecvFlushed.STATUS, ys[i].status());
        }
        assertNull(x.recvDone());
        b.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertTrue(a.errors().isEmpty());

        y.disconnect();
        assertEquals(ViState.IDLE, y.state());
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        assertEquals(ViState.CONNECTED, x.state());
        x.disconnect();
        x.disconnect();
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    @Timeout(60)
    void shouldWakeWaiterWhenThePeerNicCloses(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi x = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi y = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        Providers.connect(x, b.nic.address(), y, a.nic.address());
        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(b.region, 0, 8);
        y.postRecv(recv);
        final CompletableFuture<Descriptor> waiter = CompletableFuture.supplyAsync(() -> y.recvWait(T), async);
        Thread.sleep(50);
        a.close();
        assertSame(recv, waiter.get(20, TimeUnit.SECONDS));
        assertEquals(RecvFlushed.STATUS, recv.status());
        assertEquals(ViState.ERROR, y.state());
        b.awaitErrors(List.of("CONNECTION_LOST@0"));
        assertRefused(b, a.nic.address(), false);
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldRefuseAcceptOnBusyVi(final String scheme) throws Exception
    {
        nodes(scheme);
        final Vi client = a.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi busy = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi other = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        final Vi partner = b.vi(ReliabilityLevel.RELIABLE_RECEPTION);
        Providers.connect(busy, b.nic.address(), partner, b.nic.address());
        final CompletableFuture<Void> server = CompletableFuture.runAsync(() ->
        {
            final ConnectRequest request = b.nic.connectWait(8, T);
            assertThrows(IllegalStateException.class, () -> request.accept(busy));
            assertThrows(IllegalArgumentException.class, () -> request.accept(client));
            request.accept(other);
        }, async);
        client.connectRequest(b.nic.address(), 8, T);
        server.get(20, TimeUnit.SECONDS);
        assertEquals(ViState.CONNECTED, other.state());
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void staleRequestOfAReusedViRecordShouldNotConnectTheNewVi(final String scheme) throws Exception
    {
        nodes(scheme);
        try (Node c = new Node(Providers.address(scheme)))
        {
            final Vi old = a.vi(ReliabilityLevel.RELIABLE_DELIVERY);
            assertThrows(ViaException.class, () -> old.connectRequest(b.nic.address(), 5, SHORT_NS));
            final int id = old.id();
            old.close();
            final Vi fresh = a.vi(ReliabilityLevel.RELIABLE_DELIVERY);
            assertEquals(id, fresh.id());
            final CompletableFuture<Void> connecting =
                CompletableFuture.runAsync(() -> fresh.connectRequest(c.nic.address(), 5, T), async);
            while (ViState.CONNECT_PENDING != fresh.state())
            {
                Thread.onSpinWait();
            }

            assertNoConnectionOn(scheme, 5, b.vi(ReliabilityLevel.RELIABLE_DELIVERY));
            assertEquals(ViState.CONNECT_PENDING, fresh.state(), "the request the VI's previous incarnation left at b");
            final Vi server = c.vi(ReliabilityLevel.RELIABLE_DELIVERY);
            c.nic.connectWait(5, T).accept(server);
            connecting.get(20, TimeUnit.SECONDS);
            assertEquals(ViState.CONNECTED, fresh.state());
            assertEquals(c.nic.address(), fresh.remoteAddress());
            assertEquals(ViState.CONNECTED, server.state());
        }
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#sharedAreaProviders")
    void disconnectBeforeConnectPeerDoneShouldBreakThePeer(final String scheme)
    {
        nodes(scheme);
        final boolean aMatches = ((EngineNic)a.nic).nicId() < ((EngineNic)b.nic).nicId();
        final Node matcher = aMatches ? a : b;
        final Node other = aMatches ? b : a;
        final Vi matching = matcher.vi(ReliabilityLevel.RELIABLE_DELIVERY);
        final Vi late = other.vi(ReliabilityLevel.RELIABLE_DELIVERY);
        matching.connectPeerRequest(other.nic.address(), 9, T);
        late.connectPeerRequest(matcher.nic.address(), 9, T);
        assertTrue(matching.connectPeerDone(), "the side with the smaller NIC id matched both requests");
        assertEquals(ViState.CONNECTED, late.state(), "and established the other side's record");

        final Descriptor recv = Descriptor.allocate(1).reset().send().addSegment(matcher.region, 0, 64);
        matching.postRecv(recv);
        late.disconnect();
        assertEquals(ViState.IDLE, late.state());
        assertSame(recv, matching.recvWait(TimeUnit.SECONDS.toNanos(5)));
        assertEquals(RecvFlushed.STATUS, recv.status());
        assertEquals(ViState.ERROR, matching.state());
        assertEquals(List.of("CONNECTION_LOST@" + matching.id()), matcher.errors());
    }

    private static final class RecvFlushed
    {
        static final int STATUS = DescriptorStatus.DONE | DescriptorStatus.OP_RECEIVE |
            DescriptorStatus.DESC_FLUSHED_ERROR;
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.via.provider.Providers#providers")
    void shouldValidateViAttributes(final String scheme)
    {
        nodes(scheme);
        assertThrows(IllegalArgumentException.class, () -> a.vi(new ViAttributes(), null, null));
        assertThrows(IllegalArgumentException.class, () -> a.vi(new ViAttributes().ptag(b.ptag), null, null));
        assertThrows(IllegalArgumentException.class,
            () -> a.vi(a.attributes(ReliabilityLevel.RELIABLE_RECEPTION).maxTransferSize(0), null, null));
        assertThrows(IllegalArgumentException.class,
            () -> a.vi(a.attributes(ReliabilityLevel.RELIABLE_RECEPTION), b.nic.createCq(4), null));
    }
}
