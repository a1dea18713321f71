package org.viadsm.examples.ocean;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class OceanGeometryTest
{
    @Test
    void log2ReturnsTheExponentOfPowersOfTwoOnly()
    {
        assertEquals(0, OceanGeometry.log2(1));
        assertEquals(8, OceanGeometry.log2(256));
        assertEquals(-1, OceanGeometry.log2(0));
        assertEquals(-1, OceanGeometry.log2(12));
    }

    @Test
    void shouldSplitEightProcessorsTwoAcrossAndFourDown()
    {
        final OceanGeometry g = OceanGeometry.of(66, 8, 20000.0);

        assertEquals(2, g.xprocs);
        assertEquals(4, g.yprocs);
        assertEquals(4, g.numlev);
        assertEquals(0, g.minlevel);
        assertArrayEquals(new int[] {10, 18, 34, 66}, g.imx);
        assertArrayEquals(new int[] {4, 8, 16, 32}, g.xptsPerProc);
        assertArrayEquals(new int[] {2, 4, 8, 16}, g.yptsPerProc);
        assertArrayEquals(new double[] {160000.0, 80000.0, 40000.0, 20000.0}, g.levRes);
        // Processor 2 sits in block row 1, column 0.
        assertArrayEquals(new int[] {0, 4, -1, 3, -1, 1, -1, 5}, g.neighbors[2]);
        assertEquals(1, g.rownum[2]);
        assertEquals(0, g.colnum[2]);
    }

    @Test
    void shouldUseEveryLevelDownToTwoPointsOnOneProcessor()
    {
        final OceanGeometry g = OceanGeometry.of(258, 1, 20000.0);

        assertEquals(8, g.numlev);
        assertEquals(0, g.minlevel);
        assertEquals(4, g.imx[0]);
        assertEquals(258, g.blockRows(7));
    }
}
