package org.viadsm.dsm;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Barriers whose waits poll (no more nodes than cores) and barriers whose waits yield and sleep (more nodes than
 * cores): many back to back pass every write on, and a node that leaves in the middle is named to the others.
 */
@Timeout(180)
class BarrierWaitTest
{
    private static final int BARRIERS = 300;

    static Stream<Arguments> nodeCounts()
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        return Stream.of("jvm", "shm").flatMap(provider -> Stream.of(
            Arguments.of(provider, 2),
            Arguments.of(provider, cores + 2)));
    }

    @ParameterizedTest
    @MethodSource("nodeCounts")
    void shouldPassEveryWriteOnThroughBackToBackBarriers(final String provider, final int nodes)
    {
        final List<DsmStats> stats = LocalCluster.run(nodes, provider, context -> { }, dsm ->
        {
            final SharedLongArray slots = dsm.allocLongs("slots", nodes, Placement.cyclic());
            for (int round = 1; round <= BARRIERS; round++)
            {
                slots.set(dsm.nodeId(), (long)round * nodes + dsm.nodeId());
                dsm.barrier();
                for (int node = 0; node < nodes; node++)
                {
                    assertEquals((long)round * nodes + node, slots.get(node), "round " + round + " node " + node);
                }
                dsm.barrier();
            }
        });
        for (final DsmStats node : stats)
        {
            assertEquals(2 * BARRIERS, node.get(Statistic.BARRIERS), node.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("nodeCounts")
    void shouldNameANodeThatLeavesAfterManyBarriers(final String provider, final int nodes)
    {
        final int leaver = nodes - 1;
        final long leaveNs = TimeUnit.SECONDS.toNanos(30);
        final ClusterFailure failure = assertThrows(ClusterFailure.class, () ->
            LocalCluster.run(nodes, provider, context -> context.timeouts().leaveNs(leaveNs), dsm ->
            {
                for (int i = 0; i < BARRIERS; i++)
                {
                    dsm.barrier();
                }
                if (leaver != dsm.nodeId())
                {
                    dsm.barrier();
                }
            }));
        final DsmException ex = assertInstanceOf(DsmException.class, failure.getCause());
        assertTrue(ex.getMessage().contains("node " + leaver + " left the cluster while this node waited for barrier"),
            ex.getMessage());
    }
}
