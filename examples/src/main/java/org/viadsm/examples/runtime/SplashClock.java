package org.viadsm.examples.runtime;

/**
 * The ANL {@code CLOCK} macro of the SPLASH programs: a wall clock in microseconds, as the SPLASH-2 macros'
 * {@code gettimeofday} gives it (Splash-3's pthread macros count whole seconds, which rounds most kernel timings to
 * zero). Readings are microseconds since the epoch, advanced by {@link System#nanoTime()} so that differences never
 * go backwards.
 * <p>
 * <b>Note:</b> threadsafe. Readings on different nodes come from different clocks: compare only readings of one
 * member.
 */
public final class SplashClock
{
    private static final long EPOCH_BASE_US = System.currentTimeMillis() * 1000L;
    private static final long NANO_BASE = System.nanoTime();

    private SplashClock()
    {
    }

    /**
     * Reads the clock.
     *
     * @return microseconds since the epoch.
     */
    public static long micros()
    {
        return EPOCH_BASE_US + (System.nanoTime() - NANO_BASE) / 1000L;
    }
}
