package org.viadsm.examples.barnes;

import org.junit.jupiter.api.Test;
import org.viadsm.examples.runtime.VerificationException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BarnesCheckTest
{
    private static final int N = 200;
    private static final long SUM = (long)N * (N - 1) / 2;
    private static final long SQUARES = (long)(N - 1) * N * (2 * N - 1) / 6;

    @Test
    void shouldPassConservedEnergyAndEveryBodyOnce()
    {
        final BarnesCheck check = new BarnesCheck(N);
        check.onOutput(0, 1.0, -0.25, 0.25, -0.5, 0.0, 0.0, N, SUM, SQUARES);
        check.onOutput(1, 1.0, -0.2501, 0.25, -0.5001, 1e-9, 1e-8, N, SUM, SQUARES);
        assertDoesNotThrow(check::verify);
        assertEquals(2, check.outputs());
    }

    @Test
    void shouldFailABodyHeldTwiceAndAnotherMissing()
    {
        final BarnesCheck check = new BarnesCheck(N);
        check.onOutput(3, 1.0, -0.25, 0.25, -0.5, 0.0, 0.0, N, SUM - 5 + 6, SQUARES - 25 + 36);
        final VerificationException ex = assertThrows(VerificationException.class, check::verify);
        assertEquals("BARNES self-check failed: step 3: the processors' shares do not hold every body once: 200 " +
            "bodies (expected 200), index sum 19901 (expected 19900), index square sum 2646711 (expected 2646700)",
            ex.getMessage());
    }

    @Test
    void shouldFailAnEnergyDriftBeyondOnePercent()
    {
        final BarnesCheck check = new BarnesCheck(N);
        check.onOutput(0, 1.0, -0.25, 0.25, -0.5, 0.0, 0.0, N, SUM, SQUARES);
        check.onOutput(1, 1.0, -0.26, 0.25, -0.51, 0.0, 0.0, N, SUM, SQUARES);
        final VerificationException ex = assertThrows(VerificationException.class, check::verify);
        assertEquals("BARNES self-check failed: step 1: total energy -0.26 drifted from -0.25 by more than 0.01 " +
            "relative", ex.getMessage());
    }

    @Test
    void shouldNotCheckTheEnergyOfSmallSystems()
    {
        final BarnesCheck check = new BarnesCheck(2);
        check.onOutput(0, 1.0, -0.25, 0.25, -0.5, 0.0, 0.0, 2, 1, 1);
        check.onOutput(1, 1.0, -0.5, 0.25, -0.75, 0.0, 0.0, 2, 1, 1);
        assertDoesNotThrow(check::verify);
    }

    @Test
    void shouldFailNonFiniteValuesAndAWrongMass()
    {
        final BarnesCheck nan = new BarnesCheck(N);
        nan.onOutput(0, 1.0, Double.NaN, 0.25, Double.NaN, 0.0, 0.0, N, SUM, SQUARES);
        assertEquals("BARNES self-check failed: step 0: non-finite diagnostics: T+U=NaN T=0.25 U=NaN |cm pos|=0.0 " +
            "|cm vel|=0.0", assertThrows(VerificationException.class, nan::verify).getMessage());

        final BarnesCheck mass = new BarnesCheck(N);
        mass.onOutput(2, 0.995, -0.25, 0.25, -0.5, 0.0, 0.0, N, SUM, SQUARES);
        assertEquals("BARNES self-check failed: step 2: total mass 0.995 is not 1",
            assertThrows(VerificationException.class, mass::verify).getMessage());
    }
}
