package org.viadsm.examples.ocean;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RoundedSineTest
{
    private static final MathContext MC = new MathContext(70);
    private static final BigDecimal PI = new BigDecimal(
        "3.141592653589793238462643383279502884197169399375105820974944592307816406286208998628034825342117");

    @Test
    void shouldAgreeWithGlibcWhereJavaSinesDoNot()
    {
        // Wind-stress arguments of -n66, columns 6 and 41, and glibc 2.36's sin of them; StrictMath.sin gives
        // one ulp more in magnitude for both.
        assertEquals(0x1.18951869c647dp-1, RoundedSine.sin(0x1.28f3f812e6831p-1));
        assertEquals(-0x1.76ebeb2dd88eap-1, RoundedSine.sin(0x1.fb4b72759f1fep1));
    }

    @Test
    void shouldRoundToNearestNearATie()
    {
        // -n258 column 241: the exact sine lies 0.502 ulp from one neighbour and 0.498 from the other.
        assertEquals(-0x1.866bfaf50ed7dp-2, RoundedSine.sin(0x1.7916c2e26086cp2));
    }

    @Test
    void shouldEqualTheCorrectlyRoundedSineOfRandomArguments()
    {
        final Random random = new Random(42);
        for (int i = 0; i < 2000; i++)
        {
            final double x = (random.nextDouble() * 2 - 1) * (0 == i % 3 ? 100 : 7);
            assertEquals(reference(x), RoundedSine.sin(x), "sin(" + Double.toHexString(x) + ")");
        }
    }

    @Test
    void shouldKeepSignedZeroAndDeferBeyondItsRange()
    {
        assertEquals(-0.0, RoundedSine.sin(-0.0));
        assertEquals(StrictMath.sin(1e7), RoundedSine.sin(1e7));
        assertEquals(Double.NaN, RoundedSine.sin(Double.NaN));
    }

    private static double reference(final double x)
    {
        final BigDecimal exact = new BigDecimal(x);
        final BigDecimal twoPi = PI.add(PI);
        final BigDecimal turns = exact.divide(twoPi, MC).setScale(0, RoundingMode.HALF_EVEN);
        final BigDecimal r = exact.subtract(turns.multiply(twoPi), MC);
        final BigDecimal r2 = r.multiply(r, MC);
        BigDecimal term = r;
        BigDecimal sum = r;
        for (int n = 1; n < 60; n++)
        {
            term = term.multiply(r2, MC).divide(BigDecimal.valueOf((2L * n) * (2L * n + 1)), MC).negate();
            sum = sum.add(term, MC);
        }
        return sum.doubleValue();
    }
}
