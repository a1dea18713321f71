package org.viadsm.via.provider;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;
import org.viadsm.via.ReliabilityLevel;
import org.viadsm.via.Vi;

/**
 * Provider parameters and utilities shared by the provider tests.
 */
final class Providers
{
    static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final AtomicInteger NEXT = new AtomicInteger();
    private static final String RUN = Long.toString(ProcessHandle.current().pid(), 36) +
        Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);

    private Providers()
    {
    }

    static Stream<String> providers()
    {
        return Stream.of("jvm", "shm");
    }

    /** A fresh address on the scheme, unique across test runs sharing the machine. */
    static String address(final String scheme)
    {
        return scheme + ":t" + RUN + "-" + NEXT.incrementAndGet();
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
    static void connect(final Vi a, final String addressOfB, final Vi b, final String addressOfA)
    {
        a.connectPeerRequest(addressOfB, 7, TIMEOUT_NS);
        b.connectPeerRequest(addressOfA, 7, TIMEOUT_NS);
        a.connectPeerWait(TIMEOUT_NS);
        b.connectPeerWait(TIMEOUT_NS);
    }
}
