package org.viadsm.examples.water;

import org.junit.jupiter.api.Test;
import org.viadsm.examples.runtime.VerificationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnergyCheckTest
{
    private static Energies energies(
        final long step, final double ten, final double pota, final double potr, final double potrf, final double xtt,
        final double avgt, final double xvir)
    {
        final Energies e = new Energies();
        e.step = step;
        e.ten = ten;
        e.pota = pota;
        e.potr = potr;
        e.potrf = potrf;
        e.xtt = xtt;
        e.avgt = avgt;
        e.xvir = xvir;
        return e;
    }

    @Test
    void shouldAcceptAConservedTotal()
    {
        final EnergyCheck check = new EnergyCheck();
        check.record(energies(3, 1.57495, 0.05127, 10.55761, -2.15831, 10.026, 305.7, -19.57));
        check.record(energies(300, 8.08021, 2.0, 2.0, -2.0, 10.019, 900.0, -30.0));
        assertEquals(2, check.records());
        assertEquals(0.007, check.maxDrift(), 1e-9);
    }

    @Test
    void shouldRejectADriftingTotal()
    {
        final EnergyCheck check = new EnergyCheck();
        check.record(energies(3, 1.5, 0.05, 10.5, -2.0, 10.05, 300.0, -19.0));
        final VerificationException ex = assertThrows(VerificationException.class,
            () -> check.record(energies(6, 1.7, 0.05, 10.5, -2.0, 10.25, 300.0, -19.0)));
        assertTrue(ex.getMessage().startsWith("step 6: total energy drifted by 0.20000 kT per atom"), ex.getMessage());
    }

    @Test
    void shouldRejectNonFiniteEnergies()
    {
        final EnergyCheck check = new EnergyCheck();
        final VerificationException ex = assertThrows(VerificationException.class,
            () -> check.record(energies(3, 1.5, Double.NaN, 10.5, -2.0, Double.NaN, 300.0, -19.0)));
        assertTrue(ex.getMessage().startsWith("energies not finite at step 3: TEN=1.5 POTA=NaN"), ex.getMessage());
    }

    @Test
    void shouldRejectANegativeTemperature()
    {
        final EnergyCheck check = new EnergyCheck();
        assertThrows(VerificationException.class,
            () -> check.record(energies(3, 1.5, 0.0, 1.0, 0.0, 2.5, -300.0, -19.0)));
    }
}
