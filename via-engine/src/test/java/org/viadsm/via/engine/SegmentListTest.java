package org.viadsm.via.engine;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SegmentListTest
{
    @Test
    void shouldCopyAcrossUnevenSegmentBoundaries()
    {
        final UnsafeBuffer src = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        final UnsafeBuffer dst = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        for (int i = 0; i < 64; i++)
        {
            src.putByte(i, (byte)i);
        }
        final SegmentList from = new SegmentList(4).add(src, 0, 3).add(src, 10, 0).add(src, 20, 7);
        final SegmentList to = new SegmentList(4).add(dst, 40, 0).add(dst, 0, 4).add(dst, 30, 10);
        SegmentList.copy(from, to, 9);
        final byte[] expected = {0, 1, 2, 20};
        for (int i = 0; i < 4; i++)
        {
            assertEquals(expected[i], dst.getByte(i));
        }
        for (int i = 0; i < 5; i++)
        {
            assertEquals(21 + i, dst.getByte(30 + i));
        }
        assertEquals(0, dst.getByte(35));
        assertEquals(3, from.count());
        assertThrows(IllegalStateException.class, () -> new SegmentList(1).add(src, 0, 1).add(src, 0, 1));
        assertEquals(0, from.reset().count());
    }
}
