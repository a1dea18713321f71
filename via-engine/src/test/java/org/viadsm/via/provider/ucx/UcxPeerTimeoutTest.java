package org.viadsm.via.provider.ucx;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.via.Nic;
import org.viadsm.via.NicConfiguration;
import org.viadsm.via.NicContext;
import org.viadsm.via.ProgressThread;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViAttributes;
import org.viadsm.via.ViState;
import org.viadsm.via.provider.ChildPeer;
import org.viadsm.via.provider.Providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Links whose ends run progress threads carry heartbeats: a quiet link to a live peer stays connected however long
 * it is quiet, a quiet peer that runs no progress thread is never taken for lost, and a peer whose heartbeats stop
 * (its link down, its process stopped; here its process is stopped right after connecting, its sockets and shared
 * memory still there) is taken for lost after the peer timeout, named in a {@code CONNECTION_LOST} error.
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
    void shouldNotLoseAQuietPeerThatSendsNoHeartbeats() throws InterruptedException
    {
        // this side sends heartbeats, the other runs no progress thread: the link is never watched
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(300);
        final List<String> errors = new CopyOnWriteArrayList<>();
        try (Nic one = Nic.open("ucx:127.0.0.1:0", context(timeoutNs));
             Nic other = Nic.open("ucx:127.0.0.1:0", context(timeoutNs).ucxProgressThread(ProgressThread.NEVER)))
        {
            one.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            other.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            final Vi[] pair = connect(one, other);
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(3 * timeoutNs));
            pair[0].sendDone();
            assertEquals(ViState.CONNECTED, pair[0].state());
            assertEquals(ViState.CONNECTED, pair[1].state());
            assertEquals(List.of(), errors);
        }
    }

    @Test
    void shouldLoseAPeerStoppedRightAfterConnecting() throws Exception
    {
        // both sides say in their handshake that they send heartbeats, so the link is watched from its
        // establishment: a peer process stopped at once, before any heartbeat of it may have arrived, is lost too
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(600);
        final List<String> errors = new CopyOnWriteArrayList<>();
        try (Nic nic = Nic.open("ucx:127.0.0.1:0", context(timeoutNs));
             ChildPeer child = new ChildPeer("ucx:127.0.0.1:0", nic.address(), ReliabilityLevel.RELIABLE_DELIVERY,
                 List.of("-D" + NicConfiguration.UCX_PROGRESS_THREAD_PROP_NAME + "=always",
                     "-D" + NicConfiguration.UCX_PEER_TIMEOUT_NS_PROP_NAME + "=" + timeoutNs)))
        {
            nic.errorHandler((error, vi, detail) -> errors.add(error + ": " + detail));
            final Vi vi = nic.createVi(new ViAttributes().ptag(nic.createPtag())
                .reliabilityLevel(ReliabilityLevel.RELIABLE_DELIVERY).enableRdmaRead(true), null, null);
            child.send("accept 7");
            vi.connectRequest(child.address, 7, T);
            child.expect("CONNECTED");
            signal(child.pid, "STOP");
            try
            {
                final long deadlineNs = System.nanoTime() + T;
                while (errors.isEmpty() && System.nanoTime() - deadlineNs < 0)
                {
                    vi.sendDone();
                    Thread.onSpinWait();
                }
                assertEquals(1, errors.size(), errors.toString());
                assertTrue(errors.get(0).startsWith("CONNECTION_LOST: nothing arrived from peer VI ") &&
                    errors.get(0).contains(" of " + child.address + " for ") &&
                    errors.get(0).endsWith(" ms: its link is down or its process stopped"), errors.toString());
                assertEquals(ViState.ERROR, vi.state());
            }
            finally
            {
                signal(child.pid, "CONT");
                child.kill();
            }
        }
    }

    /** Sends a signal to a process through the shell's kill: the JDK sends none but KILL and TERM. */
    private static void signal(final long pid, final String signal) throws Exception
    {
        final Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + pid).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue(), "kill -" + signal + " " + pid);
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
