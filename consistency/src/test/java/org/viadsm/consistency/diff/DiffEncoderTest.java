package org.viadsm.consistency.diff;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    @ParameterizedTest
    @CsvSource({"1", "2", "4", "8"})
    void shouldEndALongRunExactlyWhereverItEnds(final int elementSize)
    {
        // runs longer than the 64 bytes tested together, from starts in and out of alignment, ending at every element
        for (final int start : new int[] {0, 8, 8 + elementSize, 64 - elementSize})
        {
            for (int end = start + elementSize; end <= 256; end += elementSize)
            {
                final UnsafeBuffer changed = new UnsafeBuffer(new byte[256]);
                for (int i = start; i < end; i++)
                {
                    changed.putByte(i, (byte)0x80);
                }
                assertEquals(1, DiffEncoder.encode(changed, 0, twin, 0, 256, elementSize, runs), start + ".." + end);
                assertEquals("DiffRuns[" + start + "+" + (end - start) + "]", runs.toString(), start + ".." + end);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"1", "2", "4", "8"})
    void shouldSplitALongRunAtEachUnchangedElement(final int elementSize)
    {
        for (int unchanged = 8 + elementSize; unchanged < 248 - elementSize; unchanged += elementSize)
        {
            final UnsafeBuffer changed = new UnsafeBuffer(new byte[256]);
            for (int i = 8; i < 248; i++)
            {
                changed.putByte(i, i >= unchanged && i < unchanged + elementSize ? 0 : (byte)1);
            }
            assertEquals(2, DiffEncoder.encode(changed, 0, twin, 0, 256, elementSize, runs), "at " + unchanged);
            final int after = unchanged + elementSize;
            assertEquals("DiffRuns[8+" + (unchanged - 8) + ", " + after + "+" + (248 - after) + "]", runs.toString());
        }
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

    @Test
    void shouldEndARunAtTheFirstUnchangedElementWithinAWord()
    {
        // a run over words that starts and ends inside words (but for longs): it stops at the first element equal
        // to the twin's, not at the end of its word
        for (int elementSize = 1; elementSize <= Long.BYTES; elementSize <<= 1)
        {
            final UnsafeBuffer current = new UnsafeBuffer(new byte[256]);
            final int start = 16 + elementSize;
            final int end = 48 + elementSize;
            for (int i = start; i < end; i++)
            {
                current.putByte(i, (byte)0x80);
            }
            assertEquals(1, DiffEncoder.encode(current, 0, twin, 0, 256, elementSize, runs));
            assertEquals("DiffRuns[" + start + "+" + (end - start) + "]", runs.toString(), "element size " +
                elementSize);
        }
    }

    @Test
    void shouldSplitAWordWhoseMiddleElementIsUnchanged()
    {
        page.putShort(0, (short)1);
        page.putShort(4, (short)2);
        page.putShort(6, (short)3);
        page.putShort(8, (short)4);
        assertEquals(2, DiffEncoder.encode(page, 0, twin, 0, 256, 2, runs));
        assertEquals("DiffRuns[0+2, 4+6]", runs.toString());
    }

    @Test
    void shouldMarkTheFirstZeroElementOfAWordExactly()
    {
        final long bytes = 0x0101010101010101L;
        final long highs = 0x8080808080808080L;
        assertEquals(0, DiffEncoder.equalElements(0xFFFF_FFFF_FFFF_FFFFL, bytes, highs));
        // bytes 2 and 3 equal: the borrow out of byte 2 may mark byte 3 too, the lowest mark is byte 2's
        assertEquals(23, Long.numberOfTrailingZeros(DiffEncoder.equalElements(0x0101_0101_0000_0101L, bytes, highs)));
        assertEquals(0, DiffEncoder.equalElements(0x0100_0000_0000_0000L, 1L, Long.MIN_VALUE));
        assertEquals(Long.MIN_VALUE, DiffEncoder.equalElements(0, 1L, Long.MIN_VALUE));
        assertEquals(0, DiffEncoder.equalElements(Long.MIN_VALUE, 1L, Long.MIN_VALUE));
    }

    @ParameterizedTest
    @CsvSource({"heap,heap,64,24", "direct,direct,64,24", "heap,direct,64,24", "direct,heap,64,24",
        "heap,direct,3,13", "direct,direct,7,1"})
    void shouldFindExactlyTheChangedElementsWhateverTheBuffersAre(
        final String pageKind, final String twinKind, final int pageOffset, final int twinOffset)
    {
        final int length = 4096;
        final UnsafeBuffer current = buffer(pageKind, length + pageOffset);
        final UnsafeBuffer original = buffer(twinKind, length + twinOffset);
        final SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 400; round++)
        {
            final int elementSize = 1 << random.nextInt(4);
            for (int i = 0; i < length; i++)
            {
                original.putByte(twinOffset + i, (byte)random.nextInt());
            }
            current.putBytes(pageOffset, original, twinOffset, length);
            final int changes = random.nextInt(12);
            for (int c = 0; c < changes; c++)
            {
                final int at = random.nextInt(length);
                final int span = 1 + random.nextInt(random.nextBoolean() ? 8 : random.nextBoolean() ? 300 : length);
                for (int i = at; i < Math.min(length, at + span); i++)
                {
                    // some bytes keep their value, so that runs end inside words as often as at their ends
                    final int delta = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(255);
                    current.putByte(pageOffset + i, (byte)(current.getByte(pageOffset + i) + delta));
                }
            }
            final DiffRuns expected = reference(current, pageOffset, original, twinOffset, length, elementSize);
            assertEquals(expected.count(),
                DiffEncoder.encode(current, pageOffset, original, twinOffset, length, elementSize, runs));
            assertEquals(expected.toString(), runs.toString());
        }
    }

    private static UnsafeBuffer buffer(final String kind, final int length)
    {
        return new UnsafeBuffer("heap".equals(kind) ? ByteBuffer.allocate(length) : ByteBuffer.allocateDirect(length));
    }

    /** Element by element: the runs of changed elements, the definition the encoder must meet. */
    private static DiffRuns reference(
        final UnsafeBuffer page, final int pageOffset, final UnsafeBuffer twin, final int twinOffset, final int length,
        final int elementSize)
    {
        final DiffRuns expected = new DiffRuns();
        for (int at = 0; at < length; at += elementSize)
        {
            for (int i = 0; i < elementSize; i++)
            {
                if (page.getByte(pageOffset + at + i) != twin.getByte(twinOffset + at + i))
                {
                    expected.add(at, elementSize);
                    break;
                }
            }
        }
        return expected;
    }
}
