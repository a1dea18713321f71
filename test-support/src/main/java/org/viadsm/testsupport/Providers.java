package org.viadsm.testsupport;

import java.util.stream.Stream;

/**
 * The NIC providers a multi-node test runs on, for {@code @MethodSource("org.viadsm.testsupport.Providers#all")}.
 */
public final class Providers
{
    private Providers()
    {
    }

    /**
     * Every provider a DSM test runs on: threads of one JVM over shared memory, processes over shared memory files,
     * and sockets.
     *
     * @return {@code jvm}, {@code shm} and {@code tcp}.
     */
    public static Stream<String> all()
    {
        return Stream.of("jvm", "shm", "tcp");
    }

    /**
     * The providers whose nodes run as separate processes.
     *
     * @return {@code shm} and {@code tcp}.
     */
    public static Stream<String> processes()
    {
        return Stream.of("shm", "tcp");
    }

    /**
     * The providers whose NICs reach each other's shared areas.
     *
     * @return {@code jvm} and {@code shm}.
     */
    public static Stream<String> sharedArea()
    {
        return Stream.of("jvm", "shm");
    }
}
