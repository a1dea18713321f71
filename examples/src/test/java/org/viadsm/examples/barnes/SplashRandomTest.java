package org.viadsm.examples.barnes;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SplashRandomTest
{
    @Test
    void shouldReturnTheSeedOverTwoToThe31First()
    {
        final SplashRandom random = new SplashRandom(123);
        assertEquals(123 / 2147483648.0, random.prand());
        assertEquals(440917656 / 2147483648.0, random.prand());
        assertEquals(1476151025 / 2147483648.0, random.prand());
        assertEquals(1668141782 / 2147483648.0, random.prand());
    }

    @Test
    void shouldScaleIntoTheRequestedInterval()
    {
        final SplashRandom random = new SplashRandom(123);
        random.prand();
        assertEquals(-1.0 + 2.0 * (440917656 / 2147483648.0), random.xrand(-1.0, 1.0));
    }

    @Test
    void shouldRestartOnReseed()
    {
        final SplashRandom random = new SplashRandom(5);
        random.prand();
        random.pranset(123);
        assertEquals(123 / 2147483648.0, random.prand());
    }
}
