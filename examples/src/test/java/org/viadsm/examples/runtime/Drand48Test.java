package org.viadsm.examples.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Drand48Test
{
    @Test
    void shouldMatchGlibcDrand48AfterSrand48Zero()
    {
        final Drand48 random = new Drand48(0);
        assertEquals(0.17082803610628972, random.drand48());
        assertEquals(0.7499019804849638, random.drand48());
    }

    @Test
    void shouldMatchGlibcLrand48AfterSrand48One()
    {
        final Drand48 random = new Drand48(1);
        assertEquals(89400484L, random.lrand48());
        assertEquals(976015093L, random.lrand48());
    }
}
