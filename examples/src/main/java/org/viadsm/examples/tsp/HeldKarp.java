package org.viadsm.examples.tsp;

import java.util.Arrays;

/**
 * An exact sequential solver, independent of the branch and bound: Held and Karp's dynamic programme over subsets,
 * O(n^2 2^n) time and O(n 2^n) memory, so only for small n (at most {@link #MAX_CITIES}).
 */
final class HeldKarp
{
    static final int MAX_CITIES = 16;

    private HeldKarp()
    {
    }

    /**
     * The length of the shortest closed tour through every city.
     *
     * @throws IllegalArgumentException if there are more than {@link #MAX_CITIES} cities.
     */
    static int shortestTour(final Cities cities)
    {
        final int n = cities.n;
        if (n > MAX_CITIES)
        {
            throw new IllegalArgumentException("Held-Karp solver limited to " + MAX_CITIES + " cities: n=" + n);
        }
        final int m = n - 1;
        final int subsets = 1 << m;
        // cost[set * m + j]: shortest path from city 0 through the cities of set (bit j = city j + 1), ending at j+1.
        final int[] cost = new int[subsets * m];
        Arrays.fill(cost, Integer.MAX_VALUE);
        for (int j = 0; j < m; j++)
        {
            cost[(1 << j) * m + j] = cities.distance(0, j + 1);
        }
        for (int set = 1; set < subsets; set++)
        {
            for (int j = 0; j < m; j++)
            {
                final int here = cost[set * m + j];
                if (0 == (set & (1 << j)) || Integer.MAX_VALUE == here)
                {
                    continue;
                }
                for (int k = 0; k < m; k++)
                {
                    if (0 == (set & (1 << k)))
                    {
                        final int next = (set | (1 << k)) * m + k;
                        cost[next] = Math.min(cost[next], here + cities.distance(j + 1, k + 1));
                    }
                }
            }
        }
        int best = Integer.MAX_VALUE;
        for (int j = 0; j < m; j++)
        {
            best = Math.min(best, cost[(subsets - 1) * m + j] + cities.distance(j + 1, 0));
        }
        return best;
    }
}
