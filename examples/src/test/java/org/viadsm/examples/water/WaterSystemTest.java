package org.viadsm.examples.water;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WaterSystemTest
{
    private static WaterSystem system(final int nmol, final double cutoff)
    {
        return new WaterSystem(WaterParameters.parse("1.5e-16 " + nmol + " 3 6 -1 3000 3 0 1 " + cutoff, "deck"));
    }

    @Test
    void shouldUseHalfTheBoxWhenTheCutoffIsZero()
    {
        final WaterSystem system = system(64, 0);
        assertEquals(system.boxh(), system.cutoff());
        assertEquals(system.boxl() * 0.5, system.boxh());
    }

    @Test
    void shouldCapTheCutoffAtElevenAngstrom()
    {
        assertEquals(11.0, system(4096, 0).cutoff());
        assertEquals(11.0, system(64, 20.0).cutoff());
        assertEquals(6.212752, system(512, 6.212752).cutoff());
    }

    @Test
    void shouldComputeTheSixthOrderCoefficients()
    {
        final WaterSystem system = system(8, 0);
        assertEquals(863.00 / 6048.00, system.pcc()[0]);
        assertEquals(1.0, system.pcc()[2]);
        assertEquals(1.0 / 360.00, system.pcc()[6]);
        // Binomial coefficients of the Taylor series, at the C program's indices (N = NORDER + 1 = 7).
        assertEquals(1.0, system.tlc()[2]);
        assertEquals(2.0, system.tlc()[9]);
        assertEquals(10.0, system.tlc()[18]);
        assertEquals(15.0, system.tlc()[19]);
    }

    @Test
    void checkOrderRejectsOrdersOutsideThreeToSeven()
    {
        assertThrows(IllegalArgumentException.class, () -> WaterSystem.checkOrder(2));
        assertThrows(IllegalArgumentException.class, () -> WaterSystem.checkOrder(8));
        WaterSystem.checkOrder(3);
        WaterSystem.checkOrder(7);
    }

    @Test
    void latticeSitesAreTheCubeOfTheSitesPerSide()
    {
        assertEquals(64, Lattice.sites(64, Lattice.NSQUARED_EPSILON));
        assertEquals(512, Lattice.sites(512, Lattice.SPATIAL_EPSILON));
        assertEquals(125, Lattice.sites(100, Lattice.NSQUARED_EPSILON));
    }
}
