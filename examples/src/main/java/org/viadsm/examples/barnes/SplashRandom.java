package org.viadsm.examples.barnes;

/**
 * BARNES's generator ({@code util.c}): randx' = (1103515245 * randx + 12345) &amp; 0x7FFFFFFF, and {@link #prand()}
 * returns the state from before the step, divided by 2^31, so the first value after {@link #pranset(long)} is
 * seed / 2^31.
 * <p>
 * <b>Note:</b> not threadsafe; only the master generates the initial conditions.
 */
final class SplashRandom
{
    private static final long MULT = 1103515245L;
    private static final long ADD = 12345L;
    private static final long MASK = 0x7FFFFFFFL;
    private static final double TWO_TO_31 = 2147483648.0;

    private long a = 1;
    private long b;
    private long randx = 1;

    SplashRandom(final long seed)
    {
        pranset(seed);
    }

    void pranset(final long seed)
    {
        a = 1;
        b = 0;
        randx = (a * seed + b) & MASK;
        a = (MULT * a) & MASK;
        b = (MULT * b + ADD) & MASK;
    }

    /**
     * A double in [0, 1).
     */
    double prand()
    {
        final long lastrand = randx;
        randx = (a * randx + b) & MASK;
        return lastrand / TWO_TO_31;
    }

    /**
     * A double in [xl, xh), as {@code xl + (xh - xl) * prand()}.
     */
    double xrand(final double xl, final double xh)
    {
        return xl + (xh - xl) * prand();
    }
}
