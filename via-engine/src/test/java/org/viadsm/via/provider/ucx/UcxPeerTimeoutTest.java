package org.viadsm.via.provider.ucx;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicContext;
import org.viadsm.via.ProgressThread;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.engine.EngineNic;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Links whose ends run progress threads carry heartbeats: a quiet link to a live peer stays connected however long
 * it is quiet, and a peer whose heartbeats stop (its link down, its process stopped; here its progress thread
 * stops, while this process still takes in whatever reaches its worker) is taken for lost after the peer timeout,
 * named in a {@code CONNECTION_LOST} error.
 */
@Timeout(60)
class UcxPeerTimeoutTest
{
    private static final long T = TimeUnit.SECONDS.toNanos(20);

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @Test
    void shouldKeepAQuietLinkToALivePeer() throws InterruptedException
    {
        // long enough that a live peer's heartbeats get through however loaded the machine is
        final long timeoutNs = TimeUnit.SECONDS.toNanos(2);
        final List<String> errors = new CopyOnWriteArrayList<>();
        try (Nic one = Nic.open("ucx:127.0.0.1:0", context(timeoutNs));
             Nic other = Nic.open("ucx:127.0.0.1:0", context(timeoutNs)))
        {
            one.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            other.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            final Vi[] pair = connect(one, other);
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * timeoutNs));
            assertEquals(ViState.CONNECTED, pair[0].state());
            assertEquals(ViState.CONNECTED, pair[1].state());
            assertEquals(List.of(), errors);
        }
    }

    @Test
    void shouldLoseAPeerWhoseHeartbeatsStop()
    {
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(600);
        final List<String> errors = new CopyOnWriteArrayList<>();
        try (Nic one = Nic.open("ucx:127.0.0.1:0", context(timeoutNs));
             Nic other = Nic.open("ucx:127.0.0.1:0", context(timeoutNs)))
        {
            one.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            final Vi[] pair = connect(one, other);
            final UcxLink link = ((UcxTransport)((EngineNic)one).transport()).link(pair[0].id());
            final long deadlineNs = System.nanoTime() + T;
            while (!link.isWatched() && System.nanoTime() < deadlineNs)
            {
                Thread.onSpinWait();
            }
            assertTrue(link.isWatched(), "a heartbeat of the peer arrived");
            ((UcxTransport)((EngineNic)other).transport()).stopProgressThread();
            while (errors.isEmpty() && System.nanoTime() < deadlineNs)
            {
                pair[0].sendDone();
                Thread.onSpinWait();
            }
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).startsWith("CONNECTION_LOST: nothing arrived from peer VI ") &&
                errors.get(0).contains(" of " + other.address() + " for ") &&
                errors.get(0).endsWith(" ms: its link is down or its process stopped"), errors.toString());
            assertEquals(ViState.ERROR, pair[0].state());
        }
    }

    private static Vi[] connect(final Nic one, final Nic other)
    {
        final Vi mine = one.createVi(new ViAttributes().ptag(one.createPtag()), null, null);
        final Vi theirs = other.createVi(new ViAttributes().ptag(other.createPtag()), null, null);
        Providers.connect(mine, other.address(), theirs, one.address());
        return new Vi[] {mine, theirs};
    }

    private static NicContext context(final long peerTimeoutNs)
    {
        return new NicContext().ucxProgressThread(ProgressThread.ALWAYS).ucxPeerTimeoutNs(peerTimeoutNs);
    }
}
