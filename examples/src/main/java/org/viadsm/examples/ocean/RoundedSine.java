package org.viadsm.examples.ocean;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The sine rounded to the nearest double. Java's {@link Math#sin} and {@link StrictMath#sin} each differ from
 * glibc's {@code sin} by one ulp on a few of OCEAN's wind-stress arguments, which shows in the last digits of some
 * residuals; glibc's sine is correctly rounded on all but near-tie arguments, so rounding the exact value agrees
 * with it far more often than either Java sine does.
 * <p>
 * The argument is reduced by pi/2 and the series evaluated in double-double arithmetic (about 100 bits, products
 * split the Dekker way), then rounded once: the result is the correctly rounded sine unless the exact value lies
 * within about 2^-100 of a rounding tie.
 */
final class RoundedSine
{
    private static final int TERMS = 15;
    /** Dekker's splitter, 2^27 + 1. */
    private static final double SPLIT = 134217729.0;
    private static final double LIMIT = 1.0e5;
    private static final double PIO2_1;
    private static final double PIO2_2;
    private static final double PIO2_3;
    /** (-1)^n / (2n+1)!, high and low parts. */
    private static final double[] SIN_HI = new double[TERMS];
    private static final double[] SIN_LO = new double[TERMS];
    /** (-1)^n / (2n)!, high and low parts. */
    private static final double[] COS_HI = new double[TERMS];
    private static final double[] COS_LO = new double[TERMS];

    static
    {
        final MathContext mc = new MathContext(60);
        final BigDecimal pio2 = new BigDecimal(
            "1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741")
            .round(mc);
        PIO2_1 = pio2.doubleValue();
        final BigDecimal rest = pio2.subtract(new BigDecimal(PIO2_1));
        PIO2_2 = rest.doubleValue();
        PIO2_3 = rest.subtract(new BigDecimal(PIO2_2)).doubleValue();
        BigDecimal factorial = BigDecimal.ONE;
        for (int k = 0; k < 2 * TERMS; k++)
        {
            if (k > 0)
            {
                factorial = factorial.multiply(BigDecimal.valueOf(k));
            }
            BigDecimal coefficient = BigDecimal.ONE.divide(factorial, mc);
            if (1 == (k / 2) % 2)
            {
                coefficient = coefficient.negate();
            }
            final double hi = coefficient.doubleValue();
            final double lo = coefficient.subtract(new BigDecimal(hi)).doubleValue();
            if (0 == k % 2)
            {
                COS_HI[k / 2] = hi;
                COS_LO[k / 2] = lo;
            }
            else
            {
                SIN_HI[k / 2] = hi;
                SIN_LO[k / 2] = lo;
            }
        }
    }

    private double hi;
    private double lo;

    private RoundedSine()
    {
    }

    /**
     * The sine of {@code x}, rounded to nearest; {@link StrictMath#sin} beyond |x| = 1e5.
     *
     * @param x the argument in radians.
     * @return sin(x).
     */
    static double sin(final double x)
    {
        if (!(Math.abs(x) <= LIMIT))
        {
            return StrictMath.sin(x);
        }
        if (0.0 == x)
        {
            return x;
        }
        final RoundedSine dd = new RoundedSine();
        final double k = Math.rint(x / PIO2_1);
        // r = x - k * pi/2, carried in double-double.
        dd.set(x, 0.0);
        dd.addProduct(-k, PIO2_1);
        dd.addProduct(-k, PIO2_2);
        dd.addProduct(-k, PIO2_3);
        final double rHi = dd.hi;
        final double rLo = dd.lo;
        final int quadrant = (int)(((long)k) & 3);
        final boolean odd = 1 == (quadrant & 1);
        final double[] cHi = odd ? COS_HI : SIN_HI;
        final double[] cLo = odd ? COS_LO : SIN_LO;
        // r^2, then Horner over the series in r^2.
        dd.set(rHi, rLo);
        dd.multiply(rHi, rLo);
        final double r2Hi = dd.hi;
        final double r2Lo = dd.lo;
        dd.set(cHi[TERMS - 1], cLo[TERMS - 1]);
        for (int n = TERMS - 2; n >= 0; n--)
        {
            dd.multiply(r2Hi, r2Lo);
            dd.add(cHi[n], cLo[n]);
        }
        if (!odd)
        {
            dd.multiply(rHi, rLo);
        }
        final double result = dd.hi + dd.lo;
        return quadrant >= 2 ? -result : result;
    }

    private void set(final double h, final double l)
    {
        hi = h;
        lo = l;
    }

    /** this += a * b, with the product exact. */
    private void addProduct(final double a, final double b)
    {
        final double p = a * b;
        final double e = productError(a, b, p);
        add(p, e);
    }

    /** this += (bHi, bLo), accurately even when the two nearly cancel. */
    private void add(final double bHi, final double bLo)
    {
        double s1 = hi + bHi;
        double bb = s1 - hi;
        double s2 = (hi - (s1 - bb)) + (bHi - bb);
        final double t1 = lo + bLo;
        bb = t1 - lo;
        final double t2 = (lo - (t1 - bb)) + (bLo - bb);
        s2 += t1;
        double h = s1 + s2;
        s2 = s2 - (h - s1);
        s1 = h;
        s2 += t2;
        h = s1 + s2;
        lo = s2 - (h - s1);
        hi = h;
    }

    /** this *= (bHi, bLo). */
    private void multiply(final double bHi, final double bLo)
    {
        final double p = hi * bHi;
        double e = productError(hi, bHi, p);
        e += hi * bLo + lo * bHi;
        final double h = p + e;
        lo = e - (h - p);
        hi = h;
    }

    /** The rounding error of p = a * b, exactly, by Dekker's splitting. */
    private static double productError(final double a, final double b, final double p)
    {
        double c = SPLIT * a;
        final double aHi = c - (c - a);
        final double aLo = a - aHi;
        c = SPLIT * b;
        final double bHi = c - (c - b);
        final double bLo = b - bHi;
        return ((aHi * bHi - p) + aHi * bLo + aLo * bHi) + aLo * bLo;
    }
}
