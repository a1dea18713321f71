package org.viadsm.examples.tsp;

import org.viadsm.dsm.array.IntArray;

/**
 * The shared pool of partial tours and its priority queue (a binary heap of pool entries, least lower bound first,
 * then the deeper tour, then the lower entry), with the stack of free entries; see {@link TspLayout}.
 * <p>
 * <b>Note:</b> every method but the constructor must be called holding {@link TspLayout#QUEUE_LOCK}.
 */
final class TourQueue
{
    private final IntArray queue;
    private final IntArray tours;
    private final int stride;
    private final int capacity;
    private final int heapBase;
    private final int freeBase;

    TourQueue(final IntArray queue, final IntArray tours, final int cities, final int capacity)
    {
        this.queue = queue;
        this.tours = tours;
        this.stride = TspLayout.tourStride(cities);
        this.capacity = capacity;
        this.heapBase = TspLayout.QUEUE_HEADER_LENGTH;
        this.freeBase = TspLayout.QUEUE_HEADER_LENGTH + capacity;
    }

    /**
     * Member 0, before the start: every entry free, the queue empty.
     */
    void clear()
    {
        for (int i = 0; i < capacity; i++)
        {
            queue.set(freeBase + i, capacity - 1 - i);
        }
        queue.set(TspLayout.FREE_TOP_OFFSET, capacity);
        queue.set(TspLayout.SIZE_OFFSET, 0);
        queue.set(TspLayout.ACTIVE_OFFSET, 0);
    }

    int size()
    {
        return queue.get(TspLayout.SIZE_OFFSET);
    }

    int active()
    {
        return queue.get(TspLayout.ACTIVE_OFFSET);
    }

    void active(final int active)
    {
        queue.set(TspLayout.ACTIVE_OFFSET, active);
    }

    /**
     * Copies a partial tour into a free entry and queues it.
     *
     * @throws IllegalStateException if the pool is full, which its sizing rules out.
     */
    void push(final int length, final int bound, final int depth, final int[] path)
    {
        final int top = queue.get(TspLayout.FREE_TOP_OFFSET);
        if (0 == top)
        {
            throw new IllegalStateException("tour pool full: capacity=" + capacity);
        }
        final int entry = queue.get(freeBase + top - 1);
        queue.set(TspLayout.FREE_TOP_OFFSET, top - 1);
        final int base = entry * stride;
        tours.set(base + TspLayout.LENGTH_OFFSET, length);
        tours.set(base + TspLayout.BOUND_OFFSET, bound);
        tours.set(base + TspLayout.DEPTH_OFFSET, depth);
        tours.set(base + TspLayout.PATH_OFFSET, path, 0, depth);

        int i = queue.get(TspLayout.SIZE_OFFSET);
        queue.set(TspLayout.SIZE_OFFSET, i + 1);
        while (i > 0)
        {
            final int parent = (i - 1) >> 1;
            final int parentEntry = queue.get(heapBase + parent);
            if (!before(entry, parentEntry))
            {
                break;
            }
            queue.set(heapBase + i, parentEntry);
            i = parent;
        }
        queue.set(heapBase + i, entry);
    }

    /**
     * Removes the most promising tour, copies it into {@code tour} (the header then the path) and frees its entry.
     *
     * @return the tour's depth (number of cities in its path).
     */
    int pop(final int[] header, final int[] path)
    {
        final int size = queue.get(TspLayout.SIZE_OFFSET) - 1;
        final int entry = queue.get(heapBase);
        final int last = queue.get(heapBase + size);
        queue.set(TspLayout.SIZE_OFFSET, size);
        int i = 0;
        while (true)
        {
            int child = 2 * i + 1;
            if (child >= size)
            {
                break;
            }
            int childEntry = queue.get(heapBase + child);
            if (child + 1 < size)
            {
                final int right = queue.get(heapBase + child + 1);
                if (before(right, childEntry))
                {
                    child++;
                    childEntry = right;
                }
            }
            if (!before(childEntry, last))
            {
                break;
            }
            queue.set(heapBase + i, childEntry);
            i = child;
        }
        if (size > 0)
        {
            queue.set(heapBase + i, last);
        }

        final int base = entry * stride;
        tours.get(base, header, 0, TspLayout.TOUR_HEADER_LENGTH);
        final int depth = header[TspLayout.DEPTH_OFFSET];
        tours.get(base + TspLayout.PATH_OFFSET, path, 0, depth);
        final int top = queue.get(TspLayout.FREE_TOP_OFFSET);
        queue.set(freeBase + top, entry);
        queue.set(TspLayout.FREE_TOP_OFFSET, top + 1);
        return depth;
    }

    private boolean before(final int a, final int b)
    {
        final int boundA = tours.get(a * stride + TspLayout.BOUND_OFFSET);
        final int boundB = tours.get(b * stride + TspLayout.BOUND_OFFSET);
        if (boundA != boundB)
        {
            return boundA < boundB;
        }
        final int depthA = tours.get(a * stride + TspLayout.DEPTH_OFFSET);
        final int depthB = tours.get(b * stride + TspLayout.DEPTH_OFFSET);
        if (depthA != depthB)
        {
            return depthA > depthB;
        }
        return a < b;
    }
}
