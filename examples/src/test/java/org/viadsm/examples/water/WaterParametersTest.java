package org.viadsm.examples.water;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WaterParametersTest
{
    @Test
    void shouldReadTheTenFieldsAcrossLines()
    {
        final WaterParameters deck = WaterParameters.parse(
            "  1.5e-16   512  3   6\n -1      3000     3  0\n1 6.212752\n", "deck");
        assertEquals(1.5e-16, deck.tstep());
        assertEquals(512, deck.nmol());
        assertEquals(3, deck.nstep());
        assertEquals(6, deck.norder());
        assertEquals(-1, deck.nsave());
        assertEquals(3000, deck.nrst());
        assertEquals(3, deck.nprint());
        assertEquals(0, deck.nfmc());
        assertEquals(1, deck.numProcs());
        assertEquals(6.212752, deck.cutoff());
    }

    @Test
    void shouldIgnoreWhatFollowsTheTenthField()
    {
        final WaterParameters deck = WaterParameters.parse("1e-15 8 1 6 0 0 1 0 2 +.5e1 trailing words\n", "deck");
        assertEquals(5.0, deck.cutoff());
        assertEquals(2, deck.numProcs());
    }

    @Test
    void shouldStopAnIntegerAtTheFirstNonDigitAsScanfDoes()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> WaterParameters.parse("1.5e-16 64.0 6 6 -1 3000 2 0 1 0", "deck"));
        assertEquals("deck line 1: expected an integer for NSTEP, found '.0'", ex.getMessage());
    }

    @Test
    void shouldRejectAnExponentWithoutDigits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> WaterParameters.parse("1.5e 64 6 6 -1 3000 2 0 1 0", "deck"));
        assertEquals("deck line 1: expected a number for TSTEP, found '1.5e'", ex.getMessage());
    }

    @Test
    void shouldAcceptInfinityAndNanAsStrtodDoes()
    {
        final WaterParameters deck = WaterParameters.parse("-INF 8 1 6 0 0 1 0 1 nan", "deck");
        assertEquals(Double.NEGATIVE_INFINITY, deck.tstep());
        assertEquals(Double.NaN, deck.cutoff());
    }

    @Test
    void shouldReadStandardInputOncePerStream()
    {
        final InputStream saved = System.in;
        try
        {
            System.setIn(new ByteArrayInputStream("1e-15 27 2 6 0 0 1 0 1 0\n".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(27, WaterParameters.readStandardInput().nmol());
            assertEquals(27, WaterParameters.readStandardInput().nmol());
            System.setIn(new ByteArrayInputStream("1e-15 8 2 6 0 0 1 0 1 0\n".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(8, WaterParameters.readStandardInput().nmol());
        }
        finally
        {
            System.setIn(saved);
        }
    }
}
