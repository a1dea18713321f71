package org.viadsm.examples.tsp;

import java.util.concurrent.TimeUnit;

import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.Backoff;
import org.viadsm.examples.runtime.Team;

/**
 * One member's search. It repeatedly takes the most promising partial tour from the shared queue; a tour of fewer
 * than {@code depth} cities is extended by one city and its children that may still beat the best tour are queued;
 * a longer one is completed by a depth-first search in private memory. A complete tour that is at least as good as
 * the best known one is offered to the shared best under its lock.
 * <p>
 * Pruning discards a partial tour only when its lower bound (its length, plus the shortest edge out of its last
 * city and out of every city still to visit) exceeds the best length, read without the lock. Tours that tie are
 * explored, and ties are broken by the lexicographically smaller path, so the result (the least path among the
 * shortest tours) does not depend on the member count or on timing.
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class TspSolver
{
    private static final long IDLE_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(30);
    /** Nodes between two unlocked reads of the shared best length during a depth-first search. */
    private static final int REFRESH_MASK = 4096 - 1;

    private final Team team;
    private final Cities cities;
    private final int n;
    private final int depthThreshold;
    private final TourQueue queue;
    private final IntArray best;
    private final int[] header = new int[TspLayout.TOUR_HEADER_LENGTH];
    private final int[] path;
    private final int[] bestPath;
    private final Backoff backoff = new Backoff(IDLE_TIMEOUT_NS);

    private int localBest;
    private long nodes;

    TspSolver(final Team team, final Cities cities, final int depthThreshold, final TourQueue queue,
        final IntArray best)
    {
        this.team = team;
        this.cities = cities;
        this.n = cities.n;
        this.depthThreshold = depthThreshold;
        this.queue = queue;
        this.best = best;
        this.path = new int[n];
        this.bestPath = new int[n];
    }

    /**
     * Member 0, before the start: the nearest-neighbour tour as the best so far, and the one-city tour [0] queued.
     */
    static void seed(final Cities cities, final TourQueue queue, final IntArray best)
    {
        final int[] path = new int[cities.n];
        final int greedy = cities.greedyTour(path);
        best.set(TspLayout.BEST_LENGTH_OFFSET, greedy);
        best.set(TspLayout.BEST_PATH_OFFSET, path, 0, cities.n);
        queue.clear();
        int bound = 0;
        for (int c = 0; c < cities.n; c++)
        {
            bound += cities.minEdge[c];
        }
        path[0] = 0;
        queue.push(0, bound, 1, path);
    }

    /**
     * Takes and processes tours until the queue is empty and no member holds one.
     */
    void run()
    {
        localBest = Integer.MAX_VALUE;
        boolean holding = false;
        while (true)
        {
            team.lock(TspLayout.QUEUE_LOCK);
            if (holding)
            {
                queue.active(queue.active() - 1);
                holding = false;
            }
            if (!awaitTour())
            {
                team.unlock(TspLayout.QUEUE_LOCK);
                return;
            }
            final int depth = queue.pop(header, path);
            queue.active(queue.active() + 1);
            holding = true;
            team.unlock(TspLayout.QUEUE_LOCK);

            refreshBest();
            final int length = header[TspLayout.LENGTH_OFFSET];
            if (header[TspLayout.BOUND_OFFSET] > localBest)
            {
                continue;
            }
            long visited = 0;
            int rest = 0;
            for (int i = 0; i < depth; i++)
            {
                visited |= 1L << path[i];
            }
            for (int c = 0; c < n; c++)
            {
                if (0 == (visited & (1L << c)))
                {
                    rest += cities.minEdge[c];
                }
            }
            if (depth < depthThreshold && depth < n)
            {
                expand(depth, length, visited, rest);
            }
            else
            {
                search(path[depth - 1], visited, length, depth, rest);
            }
        }
    }

    /**
     * Waits, holding the queue lock on return, until a tour is queued (true) or the search is over (false).
     */
    private boolean awaitTour()
    {
        backoff.reset();
        while (0 == queue.size())
        {
            if (0 == queue.active())
            {
                return false;
            }
            team.unlock(TspLayout.QUEUE_LOCK);
            if (!backoff.idle())
            {
                throw new IllegalStateException("member " + team.id() + " found no tour for " +
                    TimeUnit.NANOSECONDS.toMinutes(backoff.timeoutNs()) + " min while other members held tours");
            }
            team.lock(TspLayout.QUEUE_LOCK);
        }
        return true;
    }

    /**
     * Queues every one-city extension of the tour in {@link #path} that may still beat the best tour.
     */
    private void expand(final int depth, final int length, final long visited, final int rest)
    {
        final int last = path[depth - 1];
        final int row = last * (n - 1);
        boolean locked = false;
        for (int k = 0; k < n - 1; k++)
        {
            final int c = cities.nearest[row + k];
            if (0 != (visited & (1L << c)))
            {
                continue;
            }
            final int childLength = length + cities.distance(last, c);
            final int childBound = childLength + rest;
            if (depth + 1 == n)
            {
                offer(childLength + cities.distance(c, 0), depth, c);
                continue;
            }
            if (childBound > localBest)
            {
                continue;
            }
            if (!locked)
            {
                team.lock(TspLayout.QUEUE_LOCK);
                locked = true;
            }
            path[depth] = c;
            queue.push(childLength, childBound, depth + 1, path);
        }
        if (locked)
        {
            team.unlock(TspLayout.QUEUE_LOCK);
        }
    }

    /**
     * Depth-first completion of the tour {@code path[0..depth)}, nearest city first. {@code rest} is the sum of
     * the shortest edges out of the cities not yet visited, so a tour's bound is its length plus the shortest edge
     * out of its last city plus {@code rest}; a child's is its length plus the parent's {@code rest}.
     */
    private void search(final int last, final long visited, final int length, final int depth, final int rest)
    {
        if ((++nodes & REFRESH_MASK) == 0)
        {
            refreshBest();
        }
        final int[] nearest = cities.nearest;
        final int row = last * (n - 1);
        for (int k = 0; k < n - 1; k++)
        {
            final int c = nearest[row + k];
            if (0 != (visited & (1L << c)))
            {
                continue;
            }
            final int childLength = length + cities.distance[last * n + c];
            if (depth + 1 == n)
            {
                offer(childLength + cities.distance[c * n], depth, c);
            }
            else if (childLength + rest <= localBest)
            {
                path[depth] = c;
                search(c, visited | (1L << c), childLength, depth + 1, rest - cities.minEdge[c]);
            }
        }
    }

    /**
     * A complete tour {@code path[0..depth)} then {@code lastCity}, of length {@code total}: replaces the shared best
     * if shorter, or as short with a lexicographically smaller path.
     */
    private void offer(final int total, final int depth, final int lastCity)
    {
        if (total > localBest)
        {
            return;
        }
        path[depth] = lastCity;
        team.lock(TspLayout.BEST_LOCK);
        final int bestLength = best.get(TspLayout.BEST_LENGTH_OFFSET);
        boolean better = total < bestLength;
        if (total == bestLength)
        {
            best.get(TspLayout.BEST_PATH_OFFSET, bestPath, 0, n);
            better = lessThan(path, bestPath);
        }
        if (better)
        {
            best.set(TspLayout.BEST_LENGTH_OFFSET, total);
            best.set(TspLayout.BEST_PATH_OFFSET, path, 0, n);
        }
        localBest = Math.min(total, bestLength);
        team.unlock(TspLayout.BEST_LOCK);
    }

    /**
     * The heuristic, unlocked read of the best length: a stale value only prunes less.
     */
    private void refreshBest()
    {
        localBest = Math.min(localBest, best.get(TspLayout.BEST_LENGTH_OFFSET));
    }

    private boolean lessThan(final int[] a, final int[] b)
    {
        for (int i = 0; i < n; i++)
        {
            if (a[i] != b[i])
            {
                return a[i] < b[i];
            }
        }
        return false;
    }
}
