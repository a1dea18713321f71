package org.viadsm.dsm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250), context.syncTimeoutNs());
        assertEquals(Path.of("/tmp/s.json"), context.statsFile());
    }

    @Test
    void shouldIgnoreTheEnvironmentOfAContextBuiltBySetters()
    {
        final DsmContext context = new DsmContext().nodeId(0).addresses(List.of("jvm:a")).conclude();
        assertEquals(4096, context.protocol().pageSize());
        assertEquals(Long.MAX_VALUE, context.syncTimeoutNs());
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
        assertEquals("environment variable VIADSM_PAGE_SIZE: pageSize must be a power of two in [512, 1048576]: 1000",
            assertThrows(IllegalArgumentException.class, () -> DsmContext.fromSettings(
                Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_PAGE_SIZE", "1000"), Map.of())
                .conclude()).getMessage());
        assertEquals("pageSize must be a power of two in [512, 1048576]: 1000",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(0).addresses(List.of("jvm:a")).pageSize(1000).conclude()).getMessage());
        assertEquals("nodeId must be in [0, 1) for 1 addresses: 3",
            assertThrows(IllegalArgumentException.class,
                () -> new DsmContext().nodeId(3).addresses(List.of("jvm:a")).conclude()).getMessage());
        assertEquals("maxVis (viadsm.via.max.vis) must be from 1 to 65535: 0",
            assertThrows(IllegalArgumentException.class, () -> new DsmContext().nodeId(0)
                .addresses(List.of("jvm:a")).nicContext(new NicContext().maxVis(0)).conclude()).getMessage());
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
}
