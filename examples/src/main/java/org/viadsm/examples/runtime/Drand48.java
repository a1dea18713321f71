package org.viadsm.examples.runtime;

/**
 * The POSIX {@code drand48} family, bit for bit: X' = (0x5DEECE66D * X + 0xB) mod 2^48. {@link java.util.Random}
 * uses the same recurrence but scrambles the seed and builds doubles from two steps, so it cannot stand in for it.
 * <p>
 * <b>Note:</b> not threadsafe; a C program's global generator is one instance used by one thread.
 */
public final class Drand48
{
    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;

    private long state;

    /**
     * Creates a generator seeded as {@code srand48(seed)} seeds it.
     *
     * @param seed the seed.
     */
    public Drand48(final long seed)
    {
        srand48(seed);
    }

    /**
     * Reseeds: X = (seed &lt;&lt; 16) | 0x330E, using the low 32 bits of the seed.
     *
     * @param seed the seed.
     */
    public void srand48(final long seed)
    {
        state = (((seed & 0xFFFFFFFFL) << 16) | 0x330EL) & MASK;
    }

    /**
     * The next double in [0, 1), from all 48 bits of state, as {@code drand48()}.
     *
     * @return the next value.
     */
    public double drand48()
    {
        step();
        return state * 0x1.0p-48;
    }

    /**
     * The next non-negative 31-bit integer, as {@code lrand48()}.
     *
     * @return the next value in [0, 2^31).
     */
    public long lrand48()
    {
        step();
        return state >>> 17;
    }

    /**
     * The next signed 32-bit integer, as {@code mrand48()}.
     *
     * @return the next value in [-2^31, 2^31).
     */
    public long mrand48()
    {
        step();
        return (int)(state >>> 16);
    }

    private void step()
    {
        state = (state * MULTIPLIER + ADDEND) & MASK;
    }
}
