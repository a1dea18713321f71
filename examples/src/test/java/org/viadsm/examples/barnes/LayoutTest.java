package org.viadsm.examples.barnes;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LayoutTest
{
    @Test
    void shouldEncodeTypeAndIndexInANodeRef()
    {
        final int ref = NodeRef.of(NodeRef.LEAF, 123456);
        assertEquals(NodeRef.LEAF, NodeRef.type(ref));
        assertEquals(123456, NodeRef.index(ref));
        assertEquals(NodeRef.CELL, NodeRef.type(NodeRef.of(NodeRef.CELL, 0)));
        assertEquals(0, NodeRef.NULL);
    }

    @Test
    void shouldRoundTripEveryLevel()
    {
        assertEquals(0L, NodeLayout.decodeLevel(NodeLayout.encodeLevel(0L)));
        for (int bit = 0; bit < 62; bit++)
        {
            assertEquals(1L << bit, NodeLayout.decodeLevel(NodeLayout.encodeLevel(1L << bit)));
        }
        assertEquals(62, NodeLayout.encodeLevel(NodeLayout.IMAX >> 1));
    }

    @Test
    void shouldPutMassAndPositionOfBodiesAndNodesAtTheSameOffsets()
    {
        assertEquals(NodeLayout.MASS_OFFSET, BodyLayout.MASS_OFFSET);
        assertEquals(NodeLayout.POS_OFFSET, BodyLayout.POS_OFFSET);
    }

    @Test
    void shouldMapCellLocksAsTheCProgramOnOneProcessor()
    {
        final CellLocks locks = new CellLocks(1);
        assertEquals(2, locks.of(0, 0));
        assertEquals(2 + 2047, locks.of(0, 2047));
        assertEquals(2, locks.of(0, 2048));
        assertEquals(2 + 5, locks.of(0, 40 * 2048 + 5));
    }

    @Test
    void shouldGiveEachProcessorsNodesLocksOfTheirOwn()
    {
        // Processor 1's pool starts at maxmycell = 81920 = 40 * 2048 (the SPLASH n16384 input on two processors):
        // the C maps its k-th cell to processor 0's k-th cell's lock.
        final CellLocks two = new CellLocks(2);
        assertEquals(2, two.of(0, 0));
        assertEquals(2 + 1023, two.of(0, 1023));
        assertEquals(2, two.of(0, 1024));
        assertEquals(2 + 1024, two.of(1, 81920));
        assertEquals(2 + 1024 + 5, two.of(1, 81920 + 5));
        assertEquals(2 + 2047, two.of(1, 81920 + 1023));

        final CellLocks three = new CellLocks(3);
        assertEquals(2 + 512 + 7, three.of(1, 7));
        assertEquals(2 + 1024 + 511, three.of(2, 511));

        final CellLocks many = new CellLocks(4096);
        assertEquals(2, many.of(0, 12345));
        assertEquals(2 + 2047, many.of(2047, 3));
        assertEquals(2, many.of(2048, 3));
    }
}
