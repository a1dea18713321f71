package org.viadsm.via.provider.ucx;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A get, an atomic or an active message posted right behind a put of the same word sees the value put, round after
 * round, between two processes over UCX's tcp transport and over sysv or posix, where a fence orders them
 * ({@link UcxConfiguration#fenceOrdersPuts()}), and with cma or UCX's default choice, where the put is flushed first
 * ({@link PutOrderMain}, both ends run with each {@code UCX_TLS}, since UCX and the provider read it from the
 * environment). The control path's listener needs tcp in the list.
 */
@Timeout(120)
class UcxPutOrderTest
{
    private static final int ROUNDS = 2_000;

    @BeforeAll
    static void ucx()
    {
        assumeTrue(UcxNicProvider.isAvailable() || null != System.getenv("CI"), "UCX is not installed");
    }

    @ParameterizedTest
    @CsvSource({"tcp, true", "'tcp,sysv', true", "'tcp,posix', true", "'tcp,sysv,cma', false", "'', false"})
    void shouldSeeThePutInTheOperationPostedRightBehindIt(final String transports, final boolean fenced)
        throws IOException, InterruptedException
    {
        final Process target = start("target", transports);
        final Process initiator = start("initiator", transports);
        try (BufferedReader fromTarget = reader(target);
             BufferedReader fromInitiator = reader(initiator);
             PrintWriter toTarget = writer(target);
             PrintWriter toInitiator = writer(initiator))
        {
            final String targetAddress = fromTarget.readLine();
            final String initiatorAddress = fromInitiator.readLine();
            assertTrue(targetAddress.startsWith("ADDRESS "), targetAddress);
            assertTrue(initiatorAddress.startsWith("ADDRESS "), initiatorAddress);
            toTarget.println(initiatorAddress);
            toInitiator.println(targetAddress);
            final String expected = "OK fenced=" + fenced + " rounds=" + ROUNDS;
            assertEquals(expected, fromInitiator.readLine(), "initiator, UCX_TLS=" + transports);
            assertEquals(expected, fromTarget.readLine(), "target, UCX_TLS=" + transports);
            toTarget.println("exit");
            toInitiator.println("exit");
            assertTrue(target.waitFor(30, TimeUnit.SECONDS));
            assertTrue(initiator.waitFor(30, TimeUnit.SECONDS));
        }
        finally
        {
            target.destroyForcibly();
            initiator.destroyForcibly();
        }
    }

    private static Process start(final String role, final String transports) throws IOException
    {
        return UcxChild.start(PutOrderMain.class, List.of(role, String.valueOf(ROUNDS)), transports);
    }

    private static BufferedReader reader(final Process process)
    {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private static PrintWriter writer(final Process process)
    {
        return new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource(value = {"tcp, true", "' TCP , Self', true", "'tcp,sysv,posix', true", "'tcp,sysv,cma', false",
        "'sm,tcp', false", "shm, false", "'tcp,knem', false", "unset, false", "'', false", "all, false",
        "^tcp, false", "'rc,tcp', false", "'ud_verbs,sm', false", "dc_x, false"}, nullValues = "unset")
    void shouldFenceOnlyOverTransportsThatPutInsideTheCallOrOnOneOrderedLane(final String transports,
        final boolean fenced)
    {
        assertEquals(fenced, UcxConfiguration.fenceOrders(transports), "UCX_TLS=" + transports);
    }
}
