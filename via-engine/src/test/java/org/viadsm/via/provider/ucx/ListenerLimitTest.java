package org.viadsm.via.provider.ucx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A ucx NIC's listener holds at most {@link UcxConnector#MAX_PENDING_REQUESTS} unanswered connection requests: the
 * one beyond fails at once with an error that names the limit, and the requests it holds stay (one is accepted
 * afterwards).
 */
@Timeout(180)
class ListenerLimitTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(90);
    private static final long DISCRIMINATOR = 5;

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void listenerShouldTurnAwayTheRequestBeyondItsLimitByName() throws Exception
    {
        final int requesters = UcxConnector.MAX_PENDING_REQUESTS + 1;
        final ExecutorService pool = Executors.newFixedThreadPool(requesters);
        try (Nic victim = Nic.open("ucx:127.0.0.1:0");
             Nic friend = Nic.open("ucx:127.0.0.1:0"))
        {
            final ViAttributes attributes = new ViAttributes().ptag(friend.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY);
            final List<Future<Throwable>> outcomes = new ArrayList<>();
            for (int i = 0; i < requesters; i++)
            {
                final Vi vi = friend.createVi(attributes, null, null);
                outcomes.add(pool.submit(() -> connect(vi, victim.address())));
            }
            // all requests wait unanswered, so whichever arrives last finds the listener full
            final Throwable turnedAway = firstOutcome(outcomes);
            assertTrue(turnedAway instanceof ViaException, String.valueOf(turnedAway));
            assertEquals(ViaError.NOT_REACHABLE, ((ViaException)turnedAway).error());
            assertTrue(turnedAway.getMessage().contains("holds " + UcxConnector.MAX_PENDING_REQUESTS +
                " connection requests not yet answered"), turnedAway.getMessage());
            assertEquals(1, outcomes.stream().filter(Future::isDone).count());

            // the requests held are all still there: one is accepted, the others rejected, each once
            final Vi server = victim.createVi(new ViAttributes().ptag(victim.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY), null, null);
            victim.connectWait(DISCRIMINATOR, T).accept(server);
            for (int i = 1; i < UcxConnector.MAX_PENDING_REQUESTS; i++)
            {
                victim.connectWait(DISCRIMINATOR, T).reject();
            }
            int accepted = 0;
            int rejected = 0;
            for (final Future<Throwable> outcome : outcomes)
            {
                final Throwable thrown = outcome.get(T, TimeUnit.NANOSECONDS);
                if (null == thrown)
                {
                    accepted++;
                }
                else if (thrown != turnedAway)
                {
                    assertTrue(thrown instanceof ViaException, String.valueOf(thrown));
                    assertEquals(ViaError.REJECT, ((ViaException)thrown).error(), thrown.getMessage());
                    rejected++;
                }
            }
            assertEquals(1, accepted);
            assertEquals(UcxConnector.MAX_PENDING_REQUESTS - 1, rejected);
        }
        finally
        {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        }
    }

    private static Throwable connect(final Vi vi, final String address)
    {
        try
        {
            vi.connectRequest(address, DISCRIMINATOR, T);
            return null;
        }
        catch (final RuntimeException ex)
        {
            return ex;
        }
    }

    private static Throwable firstOutcome(final List<Future<Throwable>> outcomes) throws Exception
    {
        final long deadlineNs = System.nanoTime() + T;
        while (System.nanoTime() - deadlineNs < 0)
        {
            for (final Future<Throwable> outcome : outcomes)
            {
                if (outcome.isDone())
                {
                    return outcome.get();
                }
            }
            Thread.sleep(10);
        }
        return fail("no connection request ended within " + T + " ns");
    }
}
