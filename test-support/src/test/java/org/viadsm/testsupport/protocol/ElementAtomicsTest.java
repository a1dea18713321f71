package org.viadsm.testsupport.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.sync.ElementAtomics;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Atomic operations on array elements over the in-memory port: exact counts from every node, ints sharing a word,
 * and the node's own copy, twin and write notices kept coherent with the home.
 */
@Timeout(60)
class ElementAtomicsTest
{
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void shouldCountExactlyFromEveryNode(final boolean deferWrites)
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        cluster.deferWrites(deferWrites);
        final InMemoryCluster.LongArray counter = cluster.longs("counter", 4, Homes.onNode(1));
        cluster.run((id, node) ->
        {
            final PageTable table = counter.table(id);
            for (int i = 0; i < 10_000; i++)
            {
                add(node, table, 8, 8, 1);
                // two ints in one word: node 0 counts the low half, node 2 the high half
                if (1 != id)
                {
                    add(node, table, 16 + (id >> 1) * 4, 4, -1);
                }
            }
            node.barrier();
            assertEquals(30_000, counter.get(node, 1), "the long");
            assertEquals(30_000, get(node, table, 8, 8));
            assertEquals(-10_000, get(node, table, 16, 4), "node 0's int");
            assertEquals(-10_000, get(node, table, 20, 4), "node 2's int");
        });
    }

    @Test
    void shouldSendAPendingPlainWriteFirstAndKeepTheDiffOffTheElement()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(3);
        final InMemoryCluster.LongArray data = cluster.longs("data", 16, Homes.onNode(1));
        cluster.run((id, node) ->
        {
            final PageTable table = data.table(id);
            assertEquals(0, data.get(node, 5), "every node caches the page");
            node.barrier();
            if (0 == id)
            {
                data.set(node, 5, 10);
                assertEquals(11, add(node, table, 5 * 8, 8, 1), "the pending plain write is seen");
                assertEquals(11, data.get(node, 5), "this node's copy holds the result");
            }
            node.barrier();
            if (2 == id)
            {
                assertEquals(111, add(node, table, 5 * 8, 8, 100));
            }
            node.barrier();
            if (0 == id)
            {
                data.set(node, 6, 7);
            }
            node.barrier();
            assertEquals(111, data.get(node, 5), "node 0's diff did not carry the element back");
            assertEquals(7, data.get(node, 6));
            assertEquals(111, get(node, table, 5 * 8, 8));
            node.barrier();
        });
    }

    @Test
    void shouldCompareAndSetOnlyOnTheExpectedValue()
    {
        final InMemoryCluster cluster = InMemoryCluster.of(2);
        final InMemoryCluster.LongArray data = cluster.longs("data", 4, Homes.onNode(0));
        cluster.run((id, node) ->
        {
            final PageTable table = data.table(id);
            final ElementAtomics atomics = node.atomics();
            if (1 == id)
            {
                assertEquals(0, atomics.apply(table, 8, 8, ElementAtomics.COMPARE_AND_EXCHANGE, 5, 0));
                assertEquals(5, atomics.apply(table, 8, 8, ElementAtomics.COMPARE_AND_EXCHANGE, 9, 0), "fails");
                assertEquals(5, atomics.apply(table, 8, 8, ElementAtomics.GET_AND_SET, -3, 0));
                assertEquals(0, atomics.apply(table, 20, 4, ElementAtomics.COMPARE_AND_EXCHANGE, -7, 0));
                assertEquals(-7, atomics.apply(table, 20, 4, ElementAtomics.GET_AND_SET, 8, 0));
            }
            node.barrier();
            assertEquals(-3, data.get(node, 1));
            assertEquals(8L << 32, data.get(node, 2), "the high int of the word, the low one untouched");
        });
    }

    private static long add(final HlrcNode node, final PageTable table, final int offset, final int width,
        final long delta)
    {
        return node.atomics().apply(table, offset, width, ElementAtomics.GET_AND_ADD, delta, 0) + delta;
    }

    private static long get(final HlrcNode node, final PageTable table, final int offset, final int width)
    {
        return node.atomics().apply(table, offset, width, ElementAtomics.GET, 0, 0);
    }
}
