package org.viadsm.dsm.rendezvous;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.viadsm.testsupport.Await;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class RendezvousTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    /** One thread per rank: the common pool may have a single thread on a small machine. */
    private final ExecutorService ranks = Executors.newCachedThreadPool();

    @TempDir
    Path base;

    @Test
    void shouldExchangeAndGatherThroughADirectoryAndLeaveNothingBehind() throws Exception
    {
        final Path directory = base.resolve("job-1");
        exchangeAndGather(rank -> Rendezvous.directory(directory, rank, 3));
        assertFalse(Files.exists(directory), "the directory is removed");
    }

    @Test
    void shouldExchangeAndGatherThroughRankZerosPort() throws Exception
    {
        final InetSocketAddress endpoint = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        exchangeAndGather(rank -> Rendezvous.tcp(endpoint, rank, 3));
    }

    @Test
    void shouldNameTheRanksThatDidNotCome() throws Exception
    {
        final Path directory = base.resolve("job-2");
        final RendezvousException ex = assertThrows(RendezvousException.class, () ->
            Rendezvous.directory(directory, 1, 3).allGather("addresses", "b", TimeUnit.MILLISECONDS.toNanos(50)));
        assertTrue(ex.getMessage().startsWith("rank 1: rank(s) [0, 2] did not publish 'addresses' in "),
            ex.getMessage());
        final InetSocketAddress endpoint = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        final RendezvousException tcp = assertThrows(RendezvousException.class, () ->
            Rendezvous.tcp(endpoint, 0, 2).allGather("addresses", "a", TimeUnit.MILLISECONDS.toNanos(50)));
        assertTrue(tcp.getMessage().contains("rank(s) [1] did not come for 'addresses'"), tcp.getMessage());
    }

    @Test
    void shouldRefuseADirectoryLeftByAJobOfAnotherSize() throws Exception
    {
        final Path directory = base.resolve("job-3");
        assertThrows(RendezvousException.class, () ->
            Rendezvous.directory(directory, 0, 4).allGather("addresses", "old", TimeUnit.MILLISECONDS.toNanos(10)));
        final RendezvousException ex = assertThrows(RendezvousException.class, () ->
            Rendezvous.directory(directory, 1, 2).allGather("addresses", "new", TIMEOUT_NS));
        assertTrue(ex.getMessage().contains("says rank 0 of 4 published 'addresses', but this is rank 1 of 2"),
            ex.getMessage());
    }

    @Test
    void shouldTurnAwayAStrayClientAndGoOn() throws Exception
    {
        final InetSocketAddress endpoint = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        final CompletableFuture<List<String>> zero = CompletableFuture.supplyAsync(() ->
            Rendezvous.tcp(endpoint, 0, 2).allGather("addresses", "a", TIMEOUT_NS), ranks);
        awaitListening(endpoint);
        try (Socket stray = new Socket(endpoint.getAddress(), endpoint.getPort()))
        {
            final DataOutputStream out = new DataOutputStream(stray.getOutputStream());
            out.writeInt(Integer.MAX_VALUE);
            out.flush();
            assertEquals(-1, stray.getInputStream().read(), "rank 0 closes the stray connection");
        }
        assertEquals(List.of("a", "b"), Rendezvous.tcp(endpoint, 1, 2).allGather("addresses", "b", TIMEOUT_NS));
        assertEquals(List.of("a", "b"), zero.get());
    }

    @AfterEach
    void stopRanks()
    {
        ranks.shutdownNow();
    }

    private void exchangeAndGather(final IntFunction<Rendezvous> rendezvous) throws Exception
    {
        final List<CompletableFuture<List<String>>> results = new ArrayList<>();
        // retract's contract: only once every rank has read the values (a node retracts after its first barrier)
        final CyclicBarrier everyoneRead = new CyclicBarrier(3);
        for (int rank = 2; rank >= 0; rank--)
        {
            final Rendezvous r = rendezvous.apply(rank);
            results.add(0, CompletableFuture.supplyAsync(() ->
            {
                final List<String> addresses = r.allGather("addresses", "nic-" + r.rank(), TIMEOUT_NS);
                final List<String> stats = r.gather("stats", "{\"node\":" + r.rank() + "}", TIMEOUT_NS);
                awaitQuietly(everyoneRead);
                r.retract("addresses");
                final List<String> both = new ArrayList<>(addresses);
                both.addAll(stats);
                return both;
            }, ranks));
        }
        assertEquals(List.of("nic-0", "nic-1", "nic-2", "{\"node\":0}", "{\"node\":1}", "{\"node\":2}"),
            results.get(0).get());
        assertEquals(List.of("nic-0", "nic-1", "nic-2"), results.get(1).get());
        assertEquals(List.of("nic-0", "nic-1", "nic-2"), results.get(2).get());
    }

    private static void awaitQuietly(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await(TIMEOUT_NS, TimeUnit.NANOSECONDS);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("the ranks did not all finish their exchanges", ex);
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static void awaitListening(final InetSocketAddress endpoint) throws InterruptedException
    {
        Await.until(() -> accepts(endpoint), "the rendezvous listens at " + endpoint);
    }

    private static boolean accepts(final InetSocketAddress endpoint)
    {
        try (Socket probe = new Socket())
        {
            probe.connect(endpoint, 100);
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
