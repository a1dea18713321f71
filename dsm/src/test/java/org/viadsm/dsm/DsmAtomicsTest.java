package org.viadsm.dsm;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The atomic operations of {@link SharedLongArray}, {@link SharedIntArray} and {@link DsmAtomicLong} on real
 * nodes: exact counts, tickets, a flag polled with {@code getVolatile}, and bad indices.
 */
@Timeout(120)
class DsmAtomicsTest
{
    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldCountExactlyWithGetAndAddFromEveryNode(final String provider)
    {
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedLongArray longs = dsm.allocLongs("longs", 4, Placement.onNode(1));
            final SharedIntArray ints = dsm.allocInts("ints", 4, Placement.onNode(2));
            final DsmAtomicLong total = dsm.allocAtomicLong("total");
            for (int i = 0; i < 10_000; i++)
            {
                longs.getAndAdd(1, 1L);
                ints.getAndAdd(dsm.nodeId(), 2);
            }
            total.addAndGet(10_000);
            dsm.barrier();
            assertEquals(30_000L, longs.get(1), "3 x 10 000 getAndAdd");
            assertEquals(30_000L, longs.getVolatile(1));
            assertEquals(30_000L, total.get());
            for (int node = 0; node < 3; node++)
            {
                assertEquals(20_000, ints.get(node), "ints sharing a word with others, node " + node);
            }
            assertEquals(0, ints.get(3));
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldHandOutEveryTicketOnceAndSeeAFlagWithGetVolatile(final String provider)
    {
        final int tickets = 300;
        LocalCluster.run(3, provider, context -> { }, dsm ->
        {
            final SharedIntArray next = dsm.allocInts("next", 1, Placement.onNode(0));
            final SharedIntArray owner = dsm.allocInts("owner", tickets, Placement.onNode(0));
            final SharedLongArray flag = dsm.allocLongs("flag", 1, Placement.onNode(2));
            int mine = 0;
            while (true)
            {
                final int ticket = next.getAndAdd(0, 1);
                if (ticket >= tickets)
                {
                    break;
                }
                assertTrue(owner.compareAndSet(ticket, 0, dsm.nodeId() + 1), "ticket " + ticket + " taken twice");
                mine++;
            }
            if (0 == dsm.nodeId())
            {
                flag.setVolatile(0, 42L);
            }
            else
            {
                while (42L != flag.getVolatile(0))
                {
                    Thread.onSpinWait();
                }
            }
            final DsmAtomicLong counted = dsm.allocAtomicLong("counted", Placement.onNode(1));
            counted.getAndAdd(mine);
            dsm.barrier();
            // Only after the barrier: before it, the node that drew ticket 0 may not have claimed it yet.
            assertFalse(owner.compareAndSet(0, 0, 9), "ticket 0 is taken");
            assertEquals(tickets, counted.get());
            for (int i = 0; i < tickets; i++)
            {
                assertTrue(owner.get(i) >= 1 && owner.get(i) <= 3, "ticket " + i);
            }
            assertEquals(42L, flag.get(0), "after the barrier, a plain read sees it too");
            dsm.barrier();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"jvm"})
    void shouldRefuseIndicesOutsideTheArray(final String provider)
    {
        LocalCluster.run(1, provider, context -> { }, dsm ->
        {
            final SharedLongArray longs = dsm.allocLongs("longs", 4);
            final SharedIntArray ints = dsm.allocInts("ints", 4).range(1, 3);
            assertThrows(IndexOutOfBoundsException.class, () -> longs.getAndAdd(4, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> longs.compareAndSet(-1, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> ints.getVolatile(2));
            assertEquals(0, ints.getAndSet(1, 5), "a range's index 1 is the array's index 2");
            assertEquals(5, ints.getVolatile(1));
            assertEquals(0, longs.getVolatile(3));
        });
    }
}
