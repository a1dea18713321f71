package org.viadsm.dsm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.via.NicContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A DSM context: settings from setters or, for a context from the environment, properties and variables; validated
 * once by conclude, which names the setting of a bad value, and frozen afterwards with its NIC context.
 */
class DsmContextTest
{
    @Test
    void shouldReadTheEnvironmentWhenConcludedAndLetSettersWin()
    {
        final DsmContext context = DsmContext.fromSettings(
            Map.of("VIADSM_NODE_ID", "1", "VIADSM_ADDRESSES", "jvm:a, jvm:b", "VIADSM_PAGE_SIZE", "8192",
                "VIADSM_SYNC_TIMEOUT_MS", "250", "VIADSM_STATS_FILE", "/tmp/s.json"),
            Map.of("viadsm.pageSize", "16384", "viadsm.maxLocks", "64"));
        context.prefetchPages(4);
        assertEquals(-1, context.nodeId());
        context.conclude();
        assertEquals(1, context.nodeId());
        assertEquals(List.of("jvm:a", "jvm:b"), context.addresses());
        assertEquals(16384, context.protocol().pageSize());
        assertEquals(64, context.protocol().maxLocks());
        assertEquals(4, context.protocol().prefetchPages());
        assertEquals(2, context.protocol().nodeCount());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250), context.timeouts().syncNs());
        assertEquals(Path.of("/tmp/s.json"), context.statsFile());
    }

    @Test
    void shouldIgnoreTheEnvironmentOfAContextBuiltBySetters()
    {
        final DsmContext context = new DsmContext().nodeId(0).addresses(List.of("jvm:a")).conclude();
        assertEquals(4096, context.protocol().pageSize());
        assertEquals(Long.MAX_VALUE, context.timeouts().syncNs());
        assertNull(context.statsFile());
    }

    @Test
    void shouldNameAMissingOrBadSettingAndItsSource()
    {
        assertEquals("missing setting: environment variable VIADSM_NODE_ID or system property viadsm.nodeId",
            assertThrows(IllegalArgumentException.class,
                () -> DsmContext.fromSettings(Map.of("VIADSM_ADDRESSES", "jvm:a"), Map.of()).conclude())
                .getMessage());
        assertEquals("environment variable VIADSM_NODE_ID must be a whole number: 'one'",
            assertThrows(IllegalArgumentException.class, () -> DsmContext.fromSettings(
                Map.of("VIADSM_NODE_ID", "one", "VIADSM_ADDRESSES", "jvm:a"), Map.of()).conclude()).getMessage());
        assertEquals("environment variable VIADSM_PAGE_SIZE must be a power of two in [512, 1048576]: 1000",
            assertThrows(IllegalArgumentException.class, () -> DsmContext.fromSettings(
                Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_PAGE_SIZE", "1000"), Map.of())
                .conclude()).getMessage());
        assertEquals("pageSize (viadsm.pageSize) must be a power of two in [512, 1048576]: 1000",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(0).addresses(List.of("jvm:a")).pageSize(1000).conclude()).getMessage());
        assertEquals("nodeId (viadsm.nodeId) must be in [0, 1) for 1 addresses: 3",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(3).addresses(List.of("jvm:a")).conclude()).getMessage());
        assertEquals("maxVis (viadsm.via.max.vis) must be from 1 to 65535: 0",
            assertThrows(IllegalArgumentException.class, () -> new DsmContext().nodeId(0)
                .addresses(List.of("jvm:a")).nicContext(new NicContext().maxVis(0)).conclude()).getMessage());
    }

    @Test
    void shouldCheckTheTimeoutsAndNameTheSetterAndProperty()
    {
        assertEquals("timeouts().connectNs must be at least 1: 0",
            assertThrows(IllegalArgumentException.class, () -> concluding(c -> c.timeouts().connectNs(0)))
                .getMessage());
        assertEquals("timeouts().leaveNs must be at least 0: -1",
            assertThrows(IllegalArgumentException.class, () -> concluding(c -> c.timeouts().leaveNs(-1)))
                .getMessage());
        assertEquals("timeouts().syncNs (viadsm.syncTimeoutMs) must be at least 1: 0",
            assertThrows(IllegalArgumentException.class, () -> concluding(c -> c.timeouts().syncNs(0)))
                .getMessage());
        assertEquals("environment variable VIADSM_SYNC_TIMEOUT_MS must be at least 0: -5",
            assertThrows(IllegalArgumentException.class, () -> DsmContext.fromSettings(
                Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_SYNC_TIMEOUT_MS", "-5"), Map.of())
                .conclude()).getMessage());
        final DsmContext context = DsmContext.fromSettings(
            Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_SYNC_TIMEOUT_MS", "5"), Map.of());
        context.timeouts().connectNs(7).leaveNs(0);
        context.conclude();
        assertEquals(List.of(7L, 0L, TimeUnit.MILLISECONDS.toNanos(5)),
            List.of(context.timeouts().connectNs(), context.timeouts().leaveNs(), context.timeouts().syncNs()));
        assertEquals("DsmContext is concluded and can no longer change: timeouts().leaveNs",
            assertThrows(IllegalStateException.class, () -> context.timeouts().leaveNs(1)).getMessage());
    }

    @Test
    void shouldRefuseDuplicateAddressesAndAddressesWithoutAScheme()
    {
        assertEquals("node addresses must be distinct: [jvm:a, jvm:a]",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(0).addresses(List.of("jvm:a", " jvm:a ")).conclude()).getMessage());
        assertEquals("node address 'a' has no scheme (jvm:, shm:, tcp:)",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(0).addresses(List.of("jvm:b", "a")).conclude()).getMessage());
        assertEquals(List.of("jvm:a", "jvm:b"),
            new DsmContext().nodeId(1).addresses(List.of(" jvm:a", "jvm:b ")).conclude().addresses());
    }

    @Test
    void shouldFreezeTheContextItsProtocolAndItsNicContextOnceConcluded()
    {
        final DsmContext context = new DsmContext().nodeId(0).addresses(List.of("jvm:a")).conclude();
        assertTrue(context.isConcluded());
        assertTrue(context.protocol().isConcluded());
        assertTrue(context.nicContext().isConcluded());
        assertSame(context, context.conclude());
        assertEquals("DsmContext is concluded and can no longer change: viadsm.pageSize",
            assertThrows(IllegalStateException.class, () -> context.pageSize(8192)).getMessage());
        assertThrows(IllegalStateException.class, () -> context.protocol().maxLocks(8));
        assertThrows(IllegalStateException.class, () -> context.nicContext().maxVis(8));
        assertEquals(4096, context.protocol().pageSize());
    }

    @Test
    @Timeout(60)
    void shouldJoinWithTheNicSettingsOfTheContextAndKeepTheContext()
    {
        final NicContext nic = new NicContext().maxVis(16);
        final DsmContext[] kept = new DsmContext[2];
        LocalCluster.run(2, "jvm", context -> context.nicContext(0 == context.nodeId() ? nic : new NicContext()),
            dsm -> kept[dsm.nodeId()] = dsm.context());
        assertSame(nic, kept[0].nicContext());
        assertTrue(kept[0].isConcluded() && kept[1].isConcluded());
        assertEquals(16, kept[0].nicContext().maxVis());
        assertEquals(List.of(0, 1), List.of(kept[0].nodeId(), kept[1].nodeId()));
    }

    private static DsmContext concluding(final Consumer<DsmContext> configure)
    {
        final DsmContext context = new DsmContext().nodeId(0).addresses(List.of("jvm:a"));
        configure.accept(context);
        return context.conclude();
    }
}
