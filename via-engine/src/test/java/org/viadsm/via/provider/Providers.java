package org.viadsm.via.provider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.params.provider.Arguments;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;
import org.viadsm.via.ViState;
import org.viadsm.via.provider.ucx.UcxNicProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Provider parameters and utilities shared by the provider tests.
 */
public final class Providers
{
    static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final AtomicBoolean UCX_SKIP_TOLD = new AtomicBoolean();
    private static final String RUN = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);

    private Providers()
    {
    }

    static Stream<String> providers()
    {
        return withUcx() ? Stream.of("jvm", "shm", "tcp", "ucx") : Stream.of("jvm", "shm", "tcp");
    }

    /**
     * Whether the ucx provider is tested: where UCX is installed, and always in CI (where a missing library must
     * fail the tests). Elsewhere its absence is said once.
     */
    static boolean withUcx()
    {
        if (UcxNicProvider.isAvailable() || null != System.getenv("CI"))
        {
            return true;
        }
        if (!UCX_SKIP_TOLD.getAndSet(true))
        {
            System.err.println("ucx provider tests skipped: UCX is not installed (apt install libucx0)");
        }
        return false;
    }

    /** A fresh address on the scheme, unique across test runs sharing the machine (tcp, ucx: a free port). */
    static String address(final String scheme)
    {
        if ("tcp".equals(scheme) || "ucx".equals(scheme))
        {
            return scheme + ":127.0.0.1:0";
        }
        return scheme + ":t" + RUN + "-" + NEXT.incrementAndGet();
    }

    /** An address where no NIC listens (tcp: a port just closed). */
    static String unreachableAddress(final String scheme)
    {
        if (!"tcp".equals(scheme) && !"ucx".equals(scheme))
        {
            return address(scheme);
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return scheme + ":127.0.0.1:" + socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static Stream<Arguments> providersAndLevels()
    {
        return providers().flatMap(p -> Stream.of(ReliabilityLevel.values()).map(l -> Arguments.of(p, l)));
    }

    /** The providers whose NICs reach each other's shared areas (connections are made on the records themselves). */
    static Stream<String> sharedAreaProviders()
    {
        return Stream.of("jvm", "shm");
    }

    /** Connects two idle VIs peer to peer, from one thread. */
    public static void connect(final Vi a, final String addressOfB, final Vi b, final String addressOfA)
    {
        a.connectPeerRequest(addressOfB, 7, TIMEOUT_NS);
        b.connectPeerRequest(addressOfA, 7, TIMEOUT_NS);
        a.connectPeerWait(TIMEOUT_NS);
        b.connectPeerWait(TIMEOUT_NS);
    }

    /**
     * Asserts that the VI reaches the state within the timeout: at once for the providers that complete inline,
     * when the peer's frames have been handled for tcp.
     */
    static void awaitState(final Vi vi, final ViState expected)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (expected != vi.state() && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(100_000L);
        }
        assertEquals(expected, vi.state());
    }
}
