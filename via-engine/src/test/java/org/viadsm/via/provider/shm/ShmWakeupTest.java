package org.viadsm.via.provider.shm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who rings whose bell: a completion that comes while its waiter spins or dozes rings nothing, and a waiter that
 * announced its bell is always woken. Two shm NICs of this process, a VI between them, and Sends carrying a round
 * number in their immediate data, checked exactly.
 */
@Timeout(60)
class ShmWakeupTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(30);
    /** A sleep no test outlasts: only a ring (or a completion seen before the sleep) ends a wait. */
    private static final long NEVER_NS = TimeUnit.MINUTES.toNanos(10);

    private final String run = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    private Nic nicA;
    private Nic nicB;
    private Vi viA;
    private Vi viB;

    @AfterEach
    void tearDown()
    {
        if (null != nicA)
        {
            nicA.close();
        }
        if (null != nicB)
        {
            nicB.close();
        }
    }

    @Test
    void shouldRingNoBellOfAWaiterThatDozes() throws Exception
    {
        // no spin, and a doze (parks backing off from 10 us) that would last minutes before the waiter announces
        // a bell: every completion comes while its waiter dozes
        final NicContext context = new NicContext();
        context.waits().spinNs(0).parkMinNs(10_000).parkMaxNs(TimeUnit.SECONDS.toNanos(60));
        open("shm", context);

        pingPong(2_000);

        assertEquals(0, engine(nicA).sleeps());
        assertEquals(0, engine(nicB).sleeps());
        assertEquals(0, shmPeer(nicA, nicB).rings());
        assertEquals(0, shmPeer(nicB, nicA).rings());
        assertEquals(0, transport(nicA).bellWakeups());
        assertEquals(0, transport(nicB).bellWakeups());
    }

    @Test
    void shouldWakeAReceiverThatAnnouncedItsBellInEveryRound() throws Exception
    {
        final int rounds = 300;
        final NicContext context = new NicContext();
        context.waits().spinNs(0).parkMinNs(1_000).parkMaxNs(1_000).sleepMaxNs(NEVER_NS);
        open("shm", context);
        final EngineNic receiverNic = engine(nicB);
        final CompletableFuture<Integer> receiver = CompletableFuture.supplyAsync(() ->
        {
            for (int round = 0; round < rounds; round++)
            {
                final Descriptor done = viB.recvWait(T);
                assertNotNull(done, "round " + round + ": the receiver was not woken");
                assertEquals(round, done.immediateData());
                viB.postRecv(done.reset().send());
            }
            return rounds;
        });
        final Descriptor send = Descriptor.allocate(0);
        for (int round = 0; round < rounds; round++)
        {
            // send only once the receiver has announced its bell for this round: it must be woken by the ring
            final long deadlineNs = System.nanoTime() + T;
            while (receiverNic.sleeps() < round + 1 && System.nanoTime() - deadlineNs < 0 && !receiver.isDone())
            {
                Thread.yield();
            }
            assertEquals(round + 1, receiverNic.sleeps(), "round " + round + ": the receiver did not go to sleep");
            viA.postSend(send.reset().send().immediateData(round));
            assertNotNull(viA.sendWait(T));
        }

        assertEquals(rounds, receiver.get(T, TimeUnit.NANOSECONDS));
        assertEquals(rounds, receiverNic.sleeps());
        final long rings = shmPeer(nicA, nicB).rings();
        assertTrue(rings <= rounds, "at most one ring per announcement: " + rings);
        assertTrue(transport(nicB).bellWakeups() <= rings, "rings heard: " + transport(nicB).bellWakeups());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm", "shm"})
    void shouldWakeEverySleeperOfAPingPongWhoseWaitsSleepAtOnce(final String scheme) throws Exception
    {
        final NicContext context = new NicContext();
        context.waits().spinNs(0).parkMinNs(1_000).parkMaxNs(1_000).sleepMaxNs(NEVER_NS);
        open(scheme, context);

        pingPong(2_000);
    }

    /**
     * A sends 0, 2, 4, ..., B answers each with its successor; both check every value, so a lost wake-up hangs a
     * wait (caught by its timeout) and a lost or doubled message fails a check.
     */
    private void pingPong(final int rounds) throws Exception
    {
        final CompletableFuture<Integer> echo = CompletableFuture.supplyAsync(() ->
        {
            final Descriptor send = Descriptor.allocate(0);
            for (int round = 0; round < rounds; round++)
            {
                final Descriptor done = viB.recvWait(T);
                assertNotNull(done, "round " + round + ": B got no message");
                assertEquals(2 * round, done.immediateData());
                viB.postRecv(done.reset().send());
                viB.postSend(send.reset().send().immediateData(2 * round + 1));
                assertNotNull(viB.sendWait(T));
            }
            return rounds;
        });
        final Descriptor recv = Descriptor.allocate(0);
        final Descriptor send = Descriptor.allocate(0);
        viA.postRecv(recv.reset().send());
        for (int round = 0; round < rounds; round++)
        {
            viA.postSend(send.reset().send().immediateData(2 * round));
            assertNotNull(viA.sendWait(T));
            final Descriptor done = viA.recvWait(T);
            assertNotNull(done, "round " + round + ": A got no answer");
            assertEquals(2 * round + 1, done.immediateData());
            viA.postRecv(recv.reset().send());
        }
        assertEquals(rounds, echo.get(T, TimeUnit.NANOSECONDS));
    }

    /** Opens the two NICs with the settings and connects a VI of each; B has one receive posted. */
    private void open(final String scheme, final NicContext context)
    {
        nicA = Nic.open(scheme + ":wa" + run, context);
        nicB = Nic.open(scheme + ":wb" + run, context);
        viA = nicA.createVi(attributes(nicA), null, null);
        viB = nicB.createVi(attributes(nicB), null, null);
        viB.postRecv(Descriptor.allocate(0).send());
        Providers.connect(viA, nicB.address(), viB, nicA.address());
    }

    private static ViAttributes attributes(final Nic nic)
    {
        return new ViAttributes().reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY).ptag(nic.createPtag());
    }

    private static EngineNic engine(final Nic nic)
    {
        return (EngineNic)nic;
    }

    private static ShmTransport transport(final Nic nic)
    {
        return (ShmTransport)engine(nic).transport();
    }

    /** The peer handle through which {@code from} completes receives of {@code to}, and rings its bells. */
    private static ShmPeer shmPeer(final Nic from, final Nic to)
    {
        return (ShmPeer)engine(from).peer(to.address());
    }
}
