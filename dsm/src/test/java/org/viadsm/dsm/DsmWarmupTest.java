package org.viadsm.dsm;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.dsm.launch.ProcessCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The join's warm-up ({@link DsmContext#warmup(boolean)}): it runs, leaves nothing behind (statistics zero, its
 * array freed, a program's values and counts as without it), a bad setting is refused naming it, and a node lost
 * during it fails the join naming that node.
 */
@Timeout(180)
class DsmWarmupTest
{
    /**
     * The counts of the program below that no timing changes (invalidations and intervals do: they depend on when
     * a node's barrier arrival sees the other's).
     */
    private static final Statistic[] PROGRAM_COUNTS =
    {
        Statistic.READ_FAULTS, Statistic.WRITE_FAULTS, Statistic.PAGES_FETCHED, Statistic.TWINS, Statistic.DIFFS,
        Statistic.DIFF_BYTES, Statistic.BARRIERS, Statistic.HOMES
    };

    @ParameterizedTest
    @ValueSource(strings = {"jvm", "shm"})
    void shouldLeaveNothingOfTheWarmupToTheProgram(final String provider)
    {
        final long[][] sums = new long[2][];
        final List<DsmStats> warm = LocalCluster.run(2, provider, context -> context.warmup(true),
            dsm -> sums[dsm.nodeId()] = program(dsm, true));
        final long[][] coldSums = new long[2][];
        final List<DsmStats> cold = LocalCluster.run(2, provider, context -> { },
            dsm -> coldSums[dsm.nodeId()] = program(dsm, false));
        for (int node = 0; node < 2; node++)
        {
            assertEquals(List.of(coldSums[node][0], coldSums[node][1]), List.of(sums[node][0], sums[node][1]));
            for (final Statistic statistic : PROGRAM_COUNTS)
            {
                assertEquals(cold.get(node).get(statistic), warm.get(node).get(statistic),
                    statistic + " of node " + node + ": " + warm.get(node) + " against " + cold.get(node));
            }
            assertEquals(100, warm.get(node).get(Statistic.LOCK_ACQUIRES_LOCAL) +
                warm.get(node).get(Statistic.LOCK_ACQUIRES_REMOTE), warm.get(node).toString());
        }
        assertEquals(3 * 2 * 100 + 2 * 3, sums[0][1], "every node's locked increments and the warm-up's none");
    }

    @Test
    void shouldWarmUpThreeNodes()
    {
        LocalCluster.run(3, "jvm", context -> context.warmup(true), dsm -> program(dsm, true));
    }

    /**
     * Checks that the join left nothing (every count zero, the scratch array's name free, no lock held), then sums
     * an array every node wrote and counts locked increments of a lock each node takes 100 times in its turn.
     */
    private static long[] program(final Dsm dsm, final boolean warmedUp)
    {
        final DsmStats joined = dsm.stats();
        for (final Statistic statistic : Statistic.values())
        {
            if (!"ns".equals(statistic.unit()))
            {
                assertEquals(0, joined.get(statistic), statistic + " right after the join: " + joined);
            }
        }
        assertEquals(warmedUp, dsm.context().warmup());
        final SharedLongArray again = dsm.allocLongs(NodeWarmup.ARRAY_NAME, 3);
        for (int id = 0; id < dsm.context().protocol().maxLocks(); id += 511)
        {
            assertFalse(dsm.lock(dsm.context().protocol().maxLocks() - 1 - id).isHeldByThisNode());
        }
        final int words = dsm.pageSize() / Long.BYTES;
        final SharedLongArray data = dsm.allocLongs("data", dsm.nodeCount() * 4 * words);
        for (int i = dsm.nodeId(); i < data.length(); i += dsm.nodeCount())
        {
            data.set(i, i);
        }
        for (int turn = 0; turn < dsm.nodeCount(); turn++)
        {
            // in turns, so that the counts do not depend on which node wins the lock when
            for (int i = 0; turn == dsm.nodeId() && i < 100; i++)
            {
                dsm.lock(dsm.context().protocol().maxLocks() - 1).lock();
                again.set(0, again.get(0) + 3);
                dsm.lock(dsm.context().protocol().maxLocks() - 1).unlock();
            }
            dsm.barrier();
        }
        again.getAndAdd(1, 3);
        dsm.barrier();
        long sum = 0;
        for (int i = 0; i < data.length(); i++)
        {
            sum += data.get(i);
        }
        final long counted = again.get(0) + again.get(1);
        dsm.barrier();
        dsm.free(again);
        return new long[] {sum, counted};
    }

    @Test
    void shouldRefuseABadSettingNamingIt()
    {
        final DsmContext fromVariable = DsmContext.fromSettings(
            Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_WARMUP", "yes"), Map.of());
        final IllegalArgumentException variable = assertThrows(IllegalArgumentException.class, fromVariable::conclude);
        assertEquals("environment variable VIADSM_WARMUP must be true or false: 'yes'", variable.getMessage());
        final DsmContext fromProperty = DsmContext.fromSettings(
            Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a", "VIADSM_WARMUP", "true"),
            Map.of("viadsm.warmup", "1"));
        final IllegalArgumentException property = assertThrows(IllegalArgumentException.class, fromProperty::conclude);
        assertEquals("system property viadsm.warmup must be true or false: '1'", property.getMessage());
        assertTrue(DsmContext.fromSettings(Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a",
            "VIADSM_WARMUP", "TRUE"), Map.of()).conclude().warmup());
        assertFalse(DsmContext.fromSettings(Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a"), Map.of())
            .conclude().warmup(), "off by default");
        assertFalse(DsmContext.fromSettings(Map.of("VIADSM_NODE_ID", "0", "VIADSM_ADDRESSES", "jvm:a",
            "VIADSM_WARMUP", "true"), Map.of()).warmup(false).conclude().warmup(), "the setter wins");
    }

    @Test
    void shouldFailTheJoinNamingANodeLostDuringTheWarmup()
    {
        try (ProcessCluster cluster = ProcessCluster.start(LocalCluster.addresses("shm", 2),
            WarmupLossProgram.class.getName(), List.of(), List.of(), List.of("-XX:+UseSerialGC"), Map.of(), null,
            new ByteArrayOutputStream()))
        {
            final int[] codes = cluster.await(TimeUnit.SECONDS.toNanos(120));
            final String error = cluster.errorOutput(0);
            assertTrue(cluster.errorOutput(1).contains("node 1 joined, stops"), cluster.errorOutput(1));
            assertNotEquals(0, codes[0], error);
            assertFalse(error.contains("warmed up"), error);
            assertTrue(error.contains("NodeLostException: node 0: ") && error.contains("node 1 was lost (") &&
                error.contains("; the cluster has stopped"), error);
        }
    }
}
