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
 * A ucx NIC closes without aborting the process while its connections are still being wired up
 * ({@link PendingWireupCloseMain}, in a JVM of its own, since the abort would end the test's JVM, and since UCX reads
 * {@code UCX_TLS} from the environment), over UCX's tcp transport as over its default choice. Requests to a listener
 * that never answers: the close releases the worker (at once or, on a loaded machine, later). A peer that accepted
 * nothing and makes no progress after its request was accepted: before {@link WorkerRelease}, the close aborted the
 * process over tcp in {@code ucp_worker_destroy} ("got REQ message", exit 134); now it returns, says so in the words
 * of {@link WorkerRelease#report}, and the worker is destroyed once the peer makes progress again. The child's exit
 * code is 0 and its output exact.
 */
@Timeout(120)
class UcxCloseTest
{
    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"silent tcp", "silent ", "stalled tcp", "stalled "})
    void shouldCloseANicWhoseRequestsAreStillBeingWiredUp(final String mode)
        throws IOException, InterruptedException
    {
        final String transports = mode.substring(mode.indexOf(' ') + 1);
        final UcxChild.Result child = UcxChild.run(PendingWireupCloseMain.class,
            List.of(mode.substring(0, mode.indexOf(' '))), transports);
        assertEquals(mode.startsWith("silent") ? "CLOSED CONNECT_PENDING\nRELEASED\n" :
            "CLOSED CONNECT_PENDING\nREPORTED\nRELEASED\n", child.output(), "UCX_TLS=" + transports);
        assertEquals(0, child.exitValue(), "UCX_TLS=" + transports);
    }
}
