package org.viadsm.examples.tsp;

import org.viadsm.examples.runtime.VerificationException;

/**
 * TSP's self-check: the best path is a tour of every city from city 0, it measures the printed length, and that
 * length is the expected one when there is a reference.
 */
final class TspCheck
{
    private TspCheck()
    {
    }

    /**
     * @param expected the exact solver's or the recorded length, or -1 when there is no reference.
     * @throws VerificationException naming what does not hold.
     */
    static void verify(final Cities cities, final int length, final int[] path, final long expected)
    {
        final int n = cities.n;
        long seen = 0;
        for (final int city : path)
        {
            if (city < 0 || city >= n || 0 != (seen & (1L << city)))
            {
                throw new VerificationException("TSP: the best path is not a tour of the " + n + " cities: city " +
                    city + " out of range or repeated");
            }
            seen |= 1L << city;
        }
        final int measured = cities.tourLength(path);
        if (0 != path[0] || measured != length)
        {
            throw new VerificationException("TSP: the best path starts at city " + path[0] + " and measures " +
                measured + ", not the printed " + length);
        }
        if (expected >= 0 && expected != length)
        {
            throw new VerificationException("TSP: shortest tour length " + length + " differs from the reference " +
                expected + " (" + (n <= HeldKarp.MAX_CITIES ? "exact solver" : "recorded") + ")");
        }
    }
}
