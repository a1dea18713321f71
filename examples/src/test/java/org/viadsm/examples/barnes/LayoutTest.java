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
    void shouldMapCellLocksAfterTheTwoGlobalLocks()
    {
        assertEquals(2, GlobalLayout.cellLock(0));
        assertEquals(2 + 2047, GlobalLayout.cellLock(2047));
        assertEquals(2, GlobalLayout.cellLock(2048));
    }
}
