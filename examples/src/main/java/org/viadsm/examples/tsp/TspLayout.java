package org.viadsm.examples.tsp;

/**
 * The shared data of a run, as TreadMarks' TSP keeps it: a pool of partial tours, a priority queue of pool
 * entries with a stack of free entries, both under {@link #QUEUE_LOCK}, and the best tour under {@link #BEST_LOCK}.
 * <pre>
 * tsp.distances (IntArray): n * n, row-major, written by member 0 before the start barrier
 * tsp.tours (IntArray): capacity records of TOUR_HEADER_LENGTH + n ints
 *  +--------+-------+-------+---------+-----+---------------+
 *  | length | bound | depth | path[0] | ... | path[depth-1] |   path[0] is city 0
 *  +--------+-------+-------+---------+-----+---------------+
 * tsp.queue (IntArray): QUEUE_HEADER_LENGTH + 2 * capacity ints
 *  +------+----------+--------+----------------------------+---------------------------+
 *  | size | free top | active | heap of tour entries,      | stack of free tour entries|
 *  |      |          |        | least bound first          |                           |
 *  +------+----------+--------+----------------------------+---------------------------+
 * tsp.best (IntArray): 1 + n ints
 *  +--------+---------+-----+-----------+
 *  | length | path[0] | ... | path[n-1] |
 *  +--------+---------+-----+-----------+
 * </pre>
 * {@code active} counts the members holding a tour taken from the queue: the search is over when the queue is
 * empty and no member is active. The best length is also read without the lock, as a pruning bound that may be
 * stale.
 */
final class TspLayout
{
    static final int LENGTH_OFFSET = 0;
    static final int BOUND_OFFSET = 1;
    static final int DEPTH_OFFSET = 2;
    static final int PATH_OFFSET = 3;
    static final int TOUR_HEADER_LENGTH = 3;

    static final int SIZE_OFFSET = 0;
    static final int FREE_TOP_OFFSET = 1;
    static final int ACTIVE_OFFSET = 2;
    static final int QUEUE_HEADER_LENGTH = 3;

    static final int BEST_LENGTH_OFFSET = 0;
    static final int BEST_PATH_OFFSET = 1;

    static final int QUEUE_LOCK = 0;
    static final int BEST_LOCK = 1;

    private TspLayout()
    {
    }

    static int tourStride(final int cities)
    {
        return TOUR_HEADER_LENGTH + cities;
    }

    /**
     * Pool entries needed when tours shorter than {@code depth} cities are expanded: at most every partial tour of
     * 1 to {@code depth} cities is queued at once, 1 + (n-1) + (n-1)(n-2) + ... of them.
     */
    static long capacity(final int cities, final int depth)
    {
        long total = 0;
        long tours = 1;
        for (int k = 1; k <= depth; k++)
        {
            total += tours;
            tours *= cities - k;
            if (total > Integer.MAX_VALUE)
            {
                return total;
            }
        }
        return total;
    }
}
