package org.viadsm.dsm.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class LocalClusterAddressesTest
{
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ucx"})
    void shouldGiveDistinctLoopbackPortsBelowTheEphemeralRange(final String provider) throws Exception
    {
        assumeTrue(Files.isReadable(EPHEMERAL_RANGE), "the ephemeral port range is a Linux setting");
        final int ephemeralLow = Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        assumeTrue(ephemeralLow > 10_000, "an ephemeral range that leaves room below it");

        final List<String> addresses = LocalCluster.addresses(provider, 8);

        assertEquals(8, addresses.size());
        final Set<Integer> ports = new HashSet<>();
        for (final String address : addresses)
        {
            final String prefix = provider + ":127.0.0.1:";
            assertTrue(address.startsWith(prefix), address);
            final int port = Integer.parseInt(address.substring(prefix.length()));
            assertTrue(port >= 10_000 && port < ephemeralLow, address + " is outside [10000, " + ephemeralLow + ")");
            ports.add(port);
        }
        assertEquals(8, ports.size(), "ports must differ: " + addresses);
    }
}
