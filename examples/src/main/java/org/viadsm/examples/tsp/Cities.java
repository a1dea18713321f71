package org.viadsm.examples.tsp;

import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.Drand48;

/**
 * The distances between cities, each member's private copy, and what the search derives from them: each city's
 * shortest edge (for the lower bound) and its other cities nearest first (the order the search tries them in).
 * <p>
 * Distances are symmetric integers in [1, {@value #MAX_DISTANCE}]: for i &lt; j in row-major order,
 * {@code d[i][j] = d[j][i] = 1 + (int)(MAX_DISTANCE * drand48())} after {@code srand48(seed)}.
 */
final class Cities
{
    static final int MAX_DISTANCE = 100;

    final int n;
    final int[] distance;
    final int[] minEdge;
    /** Row {@code i} (n - 1 entries from {@code i * (n - 1)}): the other cities by distance from i, then index. */
    final int[] nearest;

    Cities(final int n, final int[] distance)
    {
        this.n = n;
        this.distance = distance;
        this.minEdge = new int[n];
        this.nearest = new int[n * (n - 1)];
        for (int i = 0; i < n; i++)
        {
            int min = Integer.MAX_VALUE;
            int k = 0;
            for (int j = 0; j < n; j++)
            {
                if (j != i)
                {
                    min = Math.min(min, distance[i * n + j]);
                    insertByDistance(i, k++, j);
                }
            }
            minEdge[i] = min;
        }
    }

    /**
     * Generates the distances into the shared matrix (member 0, before the start barrier).
     */
    static void generate(final IntArray shared, final int n, final long seed)
    {
        final Drand48 random = new Drand48(seed);
        for (int i = 0; i < n; i++)
        {
            for (int j = i + 1; j < n; j++)
            {
                final int d = 1 + (int)(MAX_DISTANCE * random.drand48());
                shared.set(i * n + j, d);
                shared.set(j * n + i, d);
            }
        }
    }

    /**
     * A member's copy of the shared matrix: read-only after the start barrier, so one bulk read.
     */
    static Cities copyOf(final IntArray shared, final int n)
    {
        final int[] distance = new int[n * n];
        shared.get(0, distance, 0, n * n);
        return new Cities(n, distance);
    }

    int distance(final int from, final int to)
    {
        return distance[from * n + to];
    }

    /**
     * The length of a closed tour through {@code path} (n cities from city 0), back to city 0.
     */
    int tourLength(final int[] path)
    {
        int length = 0;
        for (int i = 1; i < n; i++)
        {
            length += distance(path[i - 1], path[i]);
        }
        return length + distance(path[n - 1], path[0]);
    }

    /**
     * Nearest-neighbour tour from city 0 into {@code path}; returns its length: the search's first bound.
     */
    int greedyTour(final int[] path)
    {
        long visited = 1L;
        path[0] = 0;
        for (int i = 1; i < n; i++)
        {
            final int last = path[i - 1];
            for (int k = 0; k < n - 1; k++)
            {
                final int c = nearest[last * (n - 1) + k];
                if (0 == (visited & (1L << c)))
                {
                    path[i] = c;
                    visited |= 1L << c;
                    break;
                }
            }
        }
        return tourLength(path);
    }

    private void insertByDistance(final int from, final int count, final int city)
    {
        final int row = from * (n - 1);
        int k = count;
        while (k > 0 && closer(from, city, nearest[row + k - 1]))
        {
            nearest[row + k] = nearest[row + k - 1];
            k--;
        }
        nearest[row + k] = city;
    }

    private boolean closer(final int from, final int a, final int b)
    {
        final int da = distance(from, a);
        final int db = distance(from, b);
        return da < db || (da == db && a < b);
    }
}
