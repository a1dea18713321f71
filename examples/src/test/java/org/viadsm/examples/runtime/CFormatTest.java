package org.viadsm.examples.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CFormatTest
{
    @Test
    void shouldRoundTheExactBinaryValueHalfToEvenAsGlibcDoes()
    {
        assertEquals("13.562", CFormat.format("%.3f", 13.5625));
        assertEquals("0.125", CFormat.format("%.3f", 0.125));
        assertEquals("0.12", CFormat.format("%.2f", 0.125));
        assertEquals("2.67", CFormat.format("%.2f", 2.675));
        assertEquals("-0.000", CFormat.format("%.3f", -0.0));
        assertEquals("1", CFormat.format("%.0f", 0.5000000000000001));
        assertEquals("0", CFormat.format("%.0f", 0.5));
    }

    @Test
    void shouldFormatScientificWithTwoDigitExponents()
    {
        assertEquals("1.234568e+02", CFormat.format("%e", 123.456789));
        assertEquals("1.5E-07", CFormat.format("%.1E", 1.5e-7));
        assertEquals("0.000000e+00", CFormat.format("%e", 0.0));
        assertEquals("9.99e+99", CFormat.format("%.2e", 9.99e99));
        assertEquals("1.00e+100", CFormat.format("%.2e", 9.999e99));
    }

    @Test
    void shouldSwitchGeneralNotationLikeC()
    {
        assertEquals("100000", CFormat.format("%g", 100000.0));
        assertEquals("1e+06", CFormat.format("%g", 1000000.0));
        assertEquals("0.0001", CFormat.format("%g", 0.0001));
        assertEquals("1e-05", CFormat.format("%g", 0.00001));
        assertEquals("3.14159", CFormat.format("%g", Math.PI));
        assertEquals("0", CFormat.format("%g", 0.0));
        assertEquals("1.50000", CFormat.format("%#g", 1.5));
    }

    @Test
    void shouldApplyFlagsAndWidths()
    {
        assertEquals("   42|42   |00042|+42| 42", CFormat.format("%5d|%-5d|%05d|%+d|% d", 42, 42, 42, 42, 42));
        assertEquals("  -1.50|-001.50", CFormat.format("%7.2f|%07.2f", -1.5, -1.5));
        assertEquals("abc  |   ab|%", CFormat.format("%-5s|%5.2s|%%", "abc", "abc"));
        assertEquals("12345678901", CFormat.format("%ld", 12345678901L));
        assertEquals("ff", CFormat.format("%x", 255));
    }

    @Test
    void shouldRefuseMissingArgumentsAndUnknownConversions()
    {
        assertThrows(IllegalArgumentException.class, () -> CFormat.format("%d %d", 1));
        assertThrows(IllegalArgumentException.class, () -> CFormat.format("%n", 1));
    }
}
