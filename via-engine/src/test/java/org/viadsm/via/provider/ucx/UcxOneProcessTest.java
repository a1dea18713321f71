package org.viadsm.via.provider.ucx;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two ucx NICs of one process connect, move data and close with one thread between them, over UCX's tcp transport
 * as over its default choice ({@link OneProcessMain}, in a JVM of its own, since UCX reads {@code UCX_TLS} from the
 * environment): over tcp, a wait on one NIC must make progress on the other's worker too, and a NIC closed with
 * nothing left half set up must not trip UCX's checks on its way out (which abort the process).
 */
@Timeout(120)
class UcxOneProcessTest
{
    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", ""})
    void shouldConnectTwoNicsOfOneProcessDrivenByOneThread(final String transports)
        throws IOException, InterruptedException
    {
        final UcxChild.Result child = UcxChild.run(OneProcessMain.class, List.of(), transports);
        assertEquals("OK 40 40 42\n", child.output(), "UCX_TLS=" + transports);
        assertEquals(0, child.exitValue(), "UCX_TLS=" + transports);
    }
}
