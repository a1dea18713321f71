package org.viadsm.examples.tsp;

import org.junit.jupiter.api.Test;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.Drand48;
import org.viadsm.examples.runtime.VerificationException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TspPartsTest
{
    @Test
    void shouldGenerateSymmetricDistancesFromDrand48InRowMajorOrder()
    {
        final Cities cities = TspAppTest.cities(6, 5);
        final Drand48 random = new Drand48(5);
        for (int i = 0; i < 6; i++)
        {
            assertEquals(0, cities.distance(i, i));
            for (int j = i + 1; j < 6; j++)
            {
                final int expected = 1 + (int)(100 * random.drand48());
                assertEquals(expected, cities.distance(i, j));
                assertEquals(expected, cities.distance(j, i));
            }
        }
    }

    @Test
    void shouldOrderNeighboursByDistanceThenIndex()
    {
        final int[] d = {
            0, 5, 3, 5,
            5, 0, 1, 2,
            3, 1, 0, 4,
            5, 2, 4, 0,
        };
        final Cities cities = new Cities(4, d);
        assertEquals(3, cities.minEdge[0]);
        assertEquals(2, cities.nearest[0]);
        assertEquals(1, cities.nearest[1]);
        assertEquals(3, cities.nearest[2]);
        final int[] path = new int[4];
        assertEquals(3 + 1 + 2 + 5, cities.greedyTour(path));
        assertEquals(0, path[0]);
        assertEquals(2, path[1]);
        assertEquals(1, path[2]);
        assertEquals(3, path[3]);
    }

    @Test
    void heldKarpMatchesExhaustiveSearch()
    {
        for (long seed = 1; seed <= 5; seed++)
        {
            final Cities cities = TspAppTest.cities(8, seed);
            final int[] perm = {1, 2, 3, 4, 5, 6, 7};
            assertEquals(bruteForce(cities, perm, 0), HeldKarp.shortestTour(cities), "seed " + seed);
        }
    }

    @Test
    void shouldPopTheLeastBoundThenTheDeepestTour()
    {
        final int n = 5;
        final int capacity = 4;
        final TourQueue queue = new TourQueue(IntArray.allocate(TspLayout.QUEUE_HEADER_LENGTH + 2 * capacity),
            IntArray.allocate(capacity * TspLayout.tourStride(n)), n, capacity);
        queue.clear();
        queue.push(10, 40, 2, new int[] {0, 1});
        queue.push(12, 30, 2, new int[] {0, 2});
        queue.push(20, 30, 3, new int[] {0, 3, 4});
        queue.push(5, 50, 2, new int[] {0, 4});
        final IllegalStateException full = assertThrows(IllegalStateException.class,
            () -> queue.push(1, 1, 1, new int[] {0}));
        assertEquals("tour pool full: capacity=4", full.getMessage());

        final int[] header = new int[TspLayout.TOUR_HEADER_LENGTH];
        final int[] path = new int[n];
        assertEquals(3, queue.pop(header, path));
        assertEquals(20, header[TspLayout.LENGTH_OFFSET]);
        assertEquals(4, path[2]);
        assertEquals(2, queue.pop(header, path));
        assertEquals(2, path[1]);
        queue.pop(header, path);
        assertEquals(1, path[1]);
        queue.push(7, 45, 2, new int[] {0, 3});
        queue.pop(header, path);
        assertEquals(3, path[1]);
        queue.pop(header, path);
        assertEquals(4, path[1]);
        assertEquals(0, queue.size());
    }

    @Test
    void shouldSizeThePoolForEveryPartialTourUpToTheDepth()
    {
        assertEquals(1 + 18 + 18 * 17 + 18 * 17 * 16, TspLayout.capacity(19, 4));
        assertEquals(1, TspLayout.capacity(19, 1));
    }

    @Test
    void checkRejectsAWrongLengthOrPath()
    {
        final Cities cities = TspAppTest.cities(6, 2);
        final int[] path = {0, 1, 2, 3, 4, 5};
        final int length = cities.tourLength(path);
        assertDoesNotThrow(() -> TspCheck.verify(cities, length, path, -1));
        final VerificationException wrong = assertThrows(VerificationException.class,
            () -> TspCheck.verify(cities, length, path, length - 1));
        assertEquals("TSP: shortest tour length " + length + " differs from the reference " + (length - 1) +
            " (exact solver)", wrong.getMessage());
        assertThrows(VerificationException.class, () -> TspCheck.verify(cities, length + 1, path, -1));
        final VerificationException repeated = assertThrows(VerificationException.class,
            () -> TspCheck.verify(cities, length, new int[] {0, 1, 2, 3, 4, 4}, -1));
        assertTrue(repeated.getMessage().contains("city 4 out of range or repeated"), repeated.getMessage());
    }

    private static int bruteForce(final Cities cities, final int[] perm, final int k)
    {
        if (k == perm.length)
        {
            int length = cities.distance(0, perm[0]);
            for (int i = 1; i < perm.length; i++)
            {
                length += cities.distance(perm[i - 1], perm[i]);
            }
            return length + cities.distance(perm[perm.length - 1], 0);
        }
        int best = Integer.MAX_VALUE;
        for (int i = k; i < perm.length; i++)
        {
            swap(perm, k, i);
            best = Math.min(best, bruteForce(cities, perm, k + 1));
            swap(perm, k, i);
        }
        return best;
    }

    private static void swap(final int[] a, final int i, final int j)
    {
        final int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
