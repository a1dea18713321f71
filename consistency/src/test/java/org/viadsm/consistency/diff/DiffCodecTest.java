package org.viadsm.consistency.diff;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DiffCodecTest
{
    private static final int PAGE = 128;

    @Test
    void shouldApplyAnEncodedDiffToReproduceThePage()
    {
        final UnsafeBuffer twin = new UnsafeBuffer(new byte[PAGE]);
        final UnsafeBuffer page = new UnsafeBuffer(new byte[PAGE]);
        page.putLong(8, 11);
        page.putInt(64, 22);
        page.putByte(127, (byte)33);
        final DiffRuns runs = new DiffRuns();
        DiffEncoder.encode(page, 0, twin, 0, PAGE, 1, runs);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[DiffCodec.encodedLength(runs)]);
        assertEquals(encoded.capacity(), DiffCodec.encode(runs, page, 0, encoded, 0));

        final UnsafeBuffer target = new UnsafeBuffer(new byte[PAGE]);
        assertEquals(runs.totalBytes(), DiffCodec.apply(encoded, 0, target, 0, PAGE));
        assertArrayEquals(page.byteArray(), target.byteArray());
    }

    @Test
    void shouldMergeWithTheLaterDiffWinningOverlaps()
    {
        final UnsafeBuffer twin = new UnsafeBuffer(new byte[PAGE]);
        final UnsafeBuffer first = new UnsafeBuffer(new byte[PAGE]);
        first.putLong(0, 1);
        first.putLong(8, 2);
        final UnsafeBuffer second = new UnsafeBuffer(new byte[PAGE]);
        second.putLong(8, 20);
        second.putLong(32, 30);
        final UnsafeBuffer a = encode(first, twin);
        final UnsafeBuffer b = encode(second, twin);
        final UnsafeBuffer merged = new UnsafeBuffer(new byte[1024]);
        DiffCodec.merge(a, 0, b, 0, PAGE, merged, 0);

        final UnsafeBuffer target = new UnsafeBuffer(new byte[PAGE]);
        target.putLong(16, 99);
        DiffCodec.apply(merged, 0, target, 0, PAGE);
        assertEquals(1, target.getLong(0));
        assertEquals(20, target.getLong(8));
        assertEquals(99, target.getLong(16), "untouched by either diff");
        assertEquals(30, target.getLong(32));
        assertEquals(2, merged.getInt(0), "runs [0,16) and [32,40)");
    }

    @Test
    void shouldRefuseARunOutsideThePageAndWriteNothing()
    {
        final UnsafeBuffer bad = new UnsafeBuffer(new byte[64]);
        bad.putInt(0, 2);
        bad.putInt(8, 0);
        bad.putInt(12, 8);
        bad.putInt(24, PAGE - 4);
        bad.putInt(28, 8);
        final UnsafeBuffer target = new UnsafeBuffer(new byte[PAGE]);
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> DiffCodec.apply(bad, 0, target, 0, PAGE));
        assertEquals("diff run 1 (offset=124, length=8) is outside a page of 128 bytes", ex.getMessage());
        assertArrayEquals(new byte[PAGE], target.byteArray());
    }

    private static UnsafeBuffer encode(final UnsafeBuffer page, final UnsafeBuffer twin)
    {
        final DiffRuns runs = new DiffRuns();
        DiffEncoder.encode(page, 0, twin, 0, PAGE, 8, runs);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[DiffCodec.encodedLength(runs)]);
        DiffCodec.encode(runs, page, 0, encoded, 0);
        return encoded;
    }
}
