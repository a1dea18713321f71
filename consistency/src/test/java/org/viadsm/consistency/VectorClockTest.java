package org.viadsm.consistency;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VectorClockTest
{
    @Test
    void shouldMergeToThePointwiseMaximum()
    {
        final VectorClock a = new VectorClock(3).set(0, 5).set(1, 1);
        final VectorClock b = new VectorClock(3).set(1, 4).set(2, 2);
        a.merge(b);
        assertEquals("[5, 4, 2]", a.toString());
        assertTrue(a.covers(b));
        assertFalse(b.covers(a));
    }

    @Test
    void shouldRoundTripThroughABuffer()
    {
        final VectorClock a = new VectorClock(4).set(0, 1).set(3, Long.MAX_VALUE);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        a.write(buffer, 16);
        assertEquals(a, new VectorClock(4).read(buffer, 16));
        assertEquals("[1, 7, 0, " + Long.MAX_VALUE + "]", new VectorClock(4).set(1, 7).merge(buffer, 16).toString());
    }

    @Test
    void shouldRefuseAnEmptyCluster()
    {
        assertThrows(IllegalArgumentException.class, () -> new VectorClock(0));
    }
}
