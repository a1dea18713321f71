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

    @ParameterizedTest
    @CsvSource({"heap,heap", "direct,direct", "heap,direct", "direct,heap"})
    void shouldFindExactlyTheChangedElementsWhateverTheBuffersAre(final String pageKind, final String twinKind)
    {
        final int length = 4096;
        final UnsafeBuffer current = buffer(pageKind, length + 64);
        final UnsafeBuffer original = buffer(twinKind, length + 24);
        final SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 400; round++)
        {
            final int elementSize = 1 << random.nextInt(4);
            for (int i = 0; i < length; i++)
            {
                original.putByte(24 + i, (byte)random.nextInt());
            }
            current.putBytes(64, original, 24, length);
            final int changes = random.nextInt(12);
            for (int c = 0; c < changes; c++)
            {
                final int at = random.nextInt(length);
                final int span = 1 + random.nextInt(random.nextBoolean() ? 8 : 300);
                for (int i = at; i < Math.min(length, at + span); i++)
                {
                    current.putByte(64 + i, (byte)(current.getByte(64 + i) + 1 + random.nextInt(255)));
                }
            }
            final DiffRuns expected = reference(current, 64, original, 24, length, elementSize);
            assertEquals(expected.count(), DiffEncoder.encode(current, 64, original, 24, length, elementSize, runs));
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
