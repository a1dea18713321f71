package org.viadsm.consistency.diff;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DiffEncoderTest
{
    private final UnsafeBuffer page = new UnsafeBuffer(new byte[256]);
    private final UnsafeBuffer twin = new UnsafeBuffer(new byte[256]);
    private final DiffRuns runs = new DiffRuns();

    @Test
    void shouldFindNoRunsInAnUnchangedPage()
    {
        assertEquals(0, DiffEncoder.encode(page, 0, twin, 0, 256, 8, runs));
    }

    @Test
    void shouldMergeAdjacentChangedWordsIntoOneRun()
    {
        page.putLong(16, 1);
        page.putLong(24, 2);
        page.putLong(40, 3);
        assertEquals(2, DiffEncoder.encode(page, 0, twin, 0, 256, 8, runs));
        assertEquals("DiffRuns[16+16, 40+8]", runs.toString());
        assertEquals(24, runs.totalBytes());
    }

    @Test
    void shouldCoverOnlyChangedIntsOfAWord()
    {
        page.putInt(4, 7);
        page.putInt(8, 9);
        page.putInt(20, 1);
        assertEquals(2, DiffEncoder.encode(page, 0, twin, 0, 256, 4, runs));
        assertEquals("DiffRuns[4+8, 20+4]", runs.toString());
    }

    @Test
    void shouldCoverOnlyChangedBytesSoNeighboursWritingOtherBytesAreNotClobbered()
    {
        page.putByte(3, (byte)1);
        page.putByte(5, (byte)2);
        page.putByte(255, (byte)3);
        assertEquals(3, DiffEncoder.encode(page, 0, twin, 0, 256, 1, runs));
        assertEquals("DiffRuns[3+1, 5+1, 255+1]", runs.toString());
    }

    @Test
    void shouldRunToTheEndOfThePage()
    {
        page.putLong(248, -1L);
        assertEquals(1, DiffEncoder.encode(page, 0, twin, 0, 256, 8, runs));
        assertEquals("DiffRuns[248+8]", runs.toString());
    }

    @Test
    void shouldTreatNegativeZeroAsAChangedDouble()
    {
        page.putDouble(0, -0.0);
        assertEquals(1, DiffEncoder.encode(page, 0, twin, 0, 256, 8, runs));
    }

    @Test
    void shouldHonourOffsetsIntoLargerBuffers()
    {
        final UnsafeBuffer big = new UnsafeBuffer(new byte[1024]);
        big.putLong(512 + 8, 5);
        assertEquals(1, DiffEncoder.encode(big, 512, twin, 0, 256, 8, runs));
        assertEquals("DiffRuns[8+8]", runs.toString());
    }
}
