package org.viadsm.via;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.via.internal.Settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A NIC context: settings from setters, properties, variables or defaults, validated once by conclude, which
 * names the setting of a bad value, and frozen afterwards.
 */
class NicContextTest
{
    private static final Settings NONE = new Settings(Map.of(), Map.of());

    @Test
    void shouldTakeTheDefaultsWhenNothingIsSet()
    {
        final NicContext context = new NicContext().conclude(NONE);
        assertEquals(WaitSettings.SPIN_NS_PROVIDER_DEFAULT, context.waits().spinNs());
        assertEquals(NicConfiguration.TCP_WAIT_SPIN_NS_DEFAULT,
            context.waits().spinNsOrDefault(NicConfiguration.TCP_WAIT_SPIN_NS_DEFAULT));
        assertEquals(NicConfiguration.WAIT_PARK_MAX_NS_DEFAULT, context.waits().parkMaxNs());
        assertEquals(NicConfiguration.WAIT_SLEEP_MAX_NS_DEFAULT, context.waits().sleepMaxNs());
        assertEquals(NicConfiguration.MAX_VIS_DEFAULT, context.maxVis());
        assertEquals(NicConfiguration.QUEUE_DEPTH_DEFAULT, context.queueDepth());
        assertEquals(NicConfiguration.TCP_SEND_STAGING_LIMIT_DEFAULT, context.tcp().sendStagingLimit());
        assertTrue(context.shmWakeup());
        assertEquals(ProgressThread.AUTO, context.ucxProgressThread());
        assertNotNull(context.shmDirectory());
    }

    @Test
    void shouldReadPropertiesAndVariablesAndLetSettersWin()
    {
        final Settings settings = new Settings(
            Map.of("VIADSM_VIA_MAX_VIS", "12", "VIADSM_VIA_QUEUE_DEPTH", "64", "VIADSM_SHM_WAKEUP", "false"),
            Map.of("viadsm.via.queue.depth", "128", "viadsm.via.wait.spin.ns", "0", "viadsm.shm.dir", "/tmp/x",
                "viadsm.ucx.progress.thread", " Never"));
        final NicContext context = new NicContext().maxVis(3).conclude(settings);
        assertEquals(3, context.maxVis());
        assertEquals(128, context.queueDepth());
        assertEquals(0L, context.waits().spinNsOrDefault(NicConfiguration.TCP_WAIT_SPIN_NS_DEFAULT));
        assertFalse(context.shmWakeup());
        assertEquals(Path.of("/tmp/x"), context.shmDirectory());
        assertEquals(ProgressThread.NEVER, context.ucxProgressThread());
        assertEquals(ProgressThread.ALWAYS, new NicContext().ucxProgressThread(ProgressThread.ALWAYS)
            .conclude(settings).ucxProgressThread());
    }

    @Test
    void shouldRaiseTheLongestParksToTheFirstAndRoundTheLivenessPeriod()
    {
        final NicContext context = new NicContext();
        context.waits().parkMinNs(50_000).parkMaxNs(1).sleepMaxNs(2).postLivenessCheckPeriod(100);
        context.tcp().pollLeaseNs(300).pollLeaseMaxNs(100);
        context.conclude(NONE);
        assertEquals(50_000L, context.waits().parkMaxNs());
        assertEquals(50_000L, context.waits().sleepMaxNs());
        assertEquals(300L, context.tcp().pollLeaseMaxNs());
        assertEquals(128, context.waits().postLivenessCheckPeriod());
    }

    static Stream<Arguments> badSetters()
    {
        return Stream.of(
            bad(c -> c.waits().spinNs(-2), "waits().spinNs (viadsm.via.wait.spin.ns) must be at least 0: -2"),
            bad(c -> c.waits().parkMaxNs(0), "waits().parkMaxNs (viadsm.via.wait.park.max.ns) must be at least 1: 0"),
            bad(c -> c.waits().producerStallTimeoutNs(0),
                "waits().producerStallTimeoutNs (viadsm.via.producer.stall.timeout.ns) must be at least 1: 0"),
            bad(c -> c.maxVis(70_000), "maxVis (viadsm.via.max.vis) must be from 1 to 65535: 70000"),
            bad(c -> c.queueDepth(1000), "queueDepth (viadsm.via.queue.depth) must be a power of two: 1000"),
            bad(c -> c.maxCqEntries(1), "maxCqEntries (viadsm.via.max.cq.entries) must be from 2 to 16777216: 1"),
            bad(c -> c.maxTransferSize(0), "maxTransferSize (viadsm.via.max.transfer.size) must be at least 1: 0"),
            bad(c -> c.tcp().connectRetryNs(10),
                "tcp().connectRetryNs (viadsm.tcp.connect.retry.ns) must be at least 1000000: 10"),
            bad(c -> c.tcp().sendStagingLimit(100),
                "tcp().sendStagingLimit (viadsm.tcp.send.staging.limit) must be at least 4096: 100"));
    }

    @ParameterizedTest
    @MethodSource("badSetters")
    void shouldRejectABadValueNamingItsSetterAndProperty(final Consumer<NicContext> setter, final String message)
    {
        final NicContext context = new NicContext();
        setter.accept(context);
        assertEquals(message,
            assertThrows(IllegalArgumentException.class, () -> context.conclude(NONE)).getMessage());
        assertFalse(context.isConcluded());
    }

    @Test
    void shouldRejectABadPropertyOrVariableNamingIt()
    {
        assertEquals("system property viadsm.via.wait.park.max.ns must be a whole number: '0.2ms'",
            assertThrows(IllegalArgumentException.class, () -> new NicContext().conclude(
                new Settings(Map.of(), Map.of("viadsm.via.wait.park.max.ns", "0.2ms")))).getMessage());
        assertEquals("environment variable VIADSM_VIA_QUEUE_DEPTH must be a power of two: 100",
            assertThrows(IllegalArgumentException.class, () -> new NicContext().conclude(
                new Settings(Map.of("VIADSM_VIA_QUEUE_DEPTH", "100"), Map.of()))).getMessage());
        assertEquals("system property viadsm.shm.wakeup must be true or false: 'off'",
            assertThrows(IllegalArgumentException.class, () -> new NicContext().conclude(
                new Settings(Map.of(), Map.of("viadsm.shm.wakeup", "off")))).getMessage());
        assertEquals("environment variable VIADSM_UCX_PROGRESS_THREAD must be auto, always or never: 'sometimes'",
            assertThrows(IllegalArgumentException.class, () -> new NicContext().conclude(
                new Settings(Map.of("VIADSM_UCX_PROGRESS_THREAD", "sometimes"), Map.of()))).getMessage());
        assertEquals("system property viadsm.via.max.regions must be from 1 to 1048576: 4294967296",
            assertThrows(IllegalArgumentException.class, () -> new NicContext().conclude(
                new Settings(Map.of(), Map.of("viadsm.via.max.regions", "4294967296")))).getMessage());
    }

    @Test
    void shouldFreezeOnceConcluded()
    {
        final NicContext context = new NicContext().maxVis(4);
        assertSame(context, context.conclude(NONE));
        assertTrue(context.isConcluded());
        assertSame(context, context.conclude());
        assertEquals("NicContext is concluded and can no longer change: viadsm.via.max.vis",
            assertThrows(IllegalStateException.class, () -> context.maxVis(8)).getMessage());
        assertEquals("NicContext is concluded and can no longer change: viadsm.tcp.peer.timeout.ns",
            assertThrows(IllegalStateException.class, () -> context.tcp().peerTimeoutNs(1L << 30)).getMessage());
        assertEquals(4, context.maxVis());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm:nic-context-test", "shm:nic-context-test", "tcp:127.0.0.1:0"})
    void shouldFailTheOpenOfANicWhoseSettingIsBadAndLeaveNothingBehind(final String address)
    {
        final NicContext bad = new NicContext();
        bad.waits().parkMaxNs(0);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> Nic.open(address, bad).close());
        assertEquals("waits().parkMaxNs (viadsm.via.wait.park.max.ns) must be at least 1: 0", ex.getMessage());

        final NicContext context = new NicContext().maxVis(8);
        try (Nic nic = Nic.open(address, context))
        {
            assertFalse(nic.isClosed());
            assertSame(context, nic.context());
            assertTrue(context.isConcluded());
            assertEquals(8, nic.attributes().maxVis());
        }
    }

    private static Arguments bad(final Consumer<NicContext> setter, final String message)
    {
        return Arguments.of(setter, message);
    }
}
