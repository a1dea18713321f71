package org.viadsm.dsm;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A shared array's bulk copies ({@code get} and {@code set} of a range into and out of an ordinary array): values
 * copied across page boundaries, within part of one page and up to the array's end, through a sub-array, on a node
 * alone (every page writable, no look at the page states) and on a node whose pages are invalid (the copy faults
 * its pages in, once per range).
 */
@Timeout(120)
class BulkCopyTest
{
    private static final int PAGE_SIZE = 512;
    /** 8000 bytes of doubles: 15 whole pages of 64 elements and a partial one of 40. */
    private static final int LENGTH = 1000;
    private static final int SUB_FROM = 37;

    @Test
    void shouldCopyRangesOfEveryTypeOnANodeAlone()
    {
        LocalCluster.run(1, "jvm", context -> context.pageSize(PAGE_SIZE), dsm ->
        {
            final SharedDoubleArray doubles = dsm.allocDoubles("doubles", LENGTH);
            final double[] d = new double[LENGTH + 5];
            for (int i = 0; i < d.length; i++)
            {
                d[i] = i * 1.5 - 7;
            }
            doubles.set(0, d, 5, LENGTH);
            final double[] dBack = new double[LENGTH];
            doubles.get(0, dBack, 0, LENGTH);
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(d[i + 5], doubles.get(i), "double " + i);
                assertEquals(d[i + 5], dBack[i], "double " + i + " copied back");
            }

            final SharedLongArray longs = dsm.allocLongs("longs", LENGTH);
            final long[] l = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
            longs.set(LENGTH - l.length, l, 0, l.length);
            final long[] lBack = new long[l.length + 2];
            longs.get(LENGTH - l.length, lBack, 2, l.length);
            assertArrayEquals(new long[] {0, 0, Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}, lBack);

            final SharedIntArray ints = dsm.allocInts("ints", LENGTH);
            final int[] n = new int[300];
            for (int i = 0; i < n.length; i++)
            {
                n[i] = i * 31 - 4000;
            }
            // elements 100..399: 400..1599 bytes, pages 0 to 3 of 512 bytes
            ints.range(50, LENGTH).set(50, n, 0, n.length);
            final int[] nBack = new int[n.length];
            ints.get(100, nBack, 0, n.length);
            assertArrayEquals(n, nBack);
            assertEquals(0, ints.get(99));
            assertEquals(0, ints.get(400));

            final SharedFloatArray floats = dsm.allocFloats("floats", 3);
            final float nan = Float.intBitsToFloat(0x7fc00123);
            floats.set(0, new float[] {nan, -0.0f, Float.MIN_VALUE}, 0, 3);
            final float[] fBack = new float[3];
            floats.get(0, fBack, 0, 3);
            assertEquals(0x7fc00123, Float.floatToRawIntBits(fBack[0]));
            assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(fBack[1]));
            assertEquals(Float.MIN_VALUE, fBack[2]);

            final SharedByteArray bytes = dsm.allocBytes("bytes", 2 * PAGE_SIZE + 3);
            final byte[] b = new byte[PAGE_SIZE + 2];
            for (int i = 0; i < b.length; i++)
            {
                b[i] = (byte)(i * 7);
            }
            // ends at the array's end, from the last byte of page 0 across page 1 into page 2
            bytes.set(PAGE_SIZE + 1, b, 0, b.length);
            final byte[] bBack = new byte[b.length];
            bytes.get(PAGE_SIZE + 1, bBack, 0, b.length);
            assertArrayEquals(b, bBack);
            assertEquals(0, bytes.get(PAGE_SIZE));
        });
    }

    @Test
    void shouldFaultTheRangesPagesInOnceAndCopyTheirValues()
    {
        final List<DsmStats> stats = LocalCluster.run(2, "jvm", context -> context.pageSize(PAGE_SIZE), dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("a", LENGTH, Placement.onNode(0));
            if (0 == dsm.nodeId())
            {
                for (int i = 0; i < LENGTH; i++)
                {
                    a.set(i, i * 0.25);
                }
            }
            dsm.barrier();
            dsm.resetStats();
            if (1 == dsm.nodeId())
            {
                final SharedDoubleArray sub = a.range(SUB_FROM, LENGTH);
                // array elements 100..299: pages 1 to 4, the first and last in part
                final double[] across = new double[203];
                sub.get(100 - SUB_FROM, across, 3, 200);
                // array elements 970..999: the partial last page only, up to the array's end
                final double[] tail = new double[30];
                sub.get(LENGTH - 30 - SUB_FROM, tail, 0, 30);
                for (int i = 0; i < 200; i++)
                {
                    assertEquals((100 + i) * 0.25, across[3 + i], "element " + (100 + i));
                }
                for (int i = 0; i < 30; i++)
                {
                    assertEquals((LENGTH - 30 + i) * 0.25, tail[i], "element " + (LENGTH - 30 + i));
                }
                // array elements 60..70 (page 0 and page 1) and 950..999 (pages 14 and 15, to the end)
                final double[] src = new double[60];
                for (int i = 0; i < src.length; i++)
                {
                    src[i] = -1 - i;
                }
                sub.set(60 - SUB_FROM, src, 0, 11);
                sub.set(950 - SUB_FROM, src, 10, 50);
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                for (int i = 0; i < LENGTH; i++)
                {
                    final double expected = i >= 60 && i <= 70 ? -1 - (i - 60) : i >= 950 ? -11 - (i - 950) : i * 0.25;
                    assertEquals(expected, a.get(i), "element " + i + " on the home");
                }
                // the whole sub-array, on the home: the values its elements read
                final double[] all = new double[LENGTH];
                a.range(SUB_FROM, LENGTH).get(0, all, SUB_FROM, LENGTH - SUB_FROM);
                for (int i = SUB_FROM; i < LENGTH; i++)
                {
                    assertEquals(a.get(i), all[i], "element " + i + " copied on the home");
                }
            }
        });
        final DsmStats reader = stats.get(1);
        // one fetch per run of invalid pages: pages 1-4, page 15, and pages 0 and 14 that the writes found invalid
        assertEquals(4, reader.get(Statistic.READ_FAULTS));
        // pages 0, 1, 14 and 15, each twinned once
        assertEquals(4, reader.get(Statistic.WRITE_FAULTS));
    }

    @Test
    void shouldRefuseRangesOutsideEitherArrayNamingThem()
    {
        LocalCluster.run(1, "jvm", context -> context.pageSize(PAGE_SIZE), dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("a", LENGTH).range(SUB_FROM, LENGTH);
            final double[] copy = new double[10];
            copy[0] = 42;
            assertEquals("Range [960, 960 + 10) out of bounds for length 963",
                assertThrows(IndexOutOfBoundsException.class, () -> a.get(960, copy, 0, 10)).getMessage());
            assertEquals("Range [1, 1 + 10) out of bounds for length 10",
                assertThrows(IndexOutOfBoundsException.class, () -> a.get(0, copy, 1, 10)).getMessage());
            assertEquals("Range [960, 960 + 10) out of bounds for length 963",
                assertThrows(IndexOutOfBoundsException.class, () -> a.set(960, copy, 0, 10)).getMessage());
            assertEquals("Range [-1, -1 + 1) out of bounds for length 10",
                assertThrows(IndexOutOfBoundsException.class, () -> a.set(0, copy, -1, 1)).getMessage());
            assertEquals(0, a.get(0), "nothing written");
            assertEquals(42, copy[0]);
        });
    }
}
