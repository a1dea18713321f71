package org.viadsm.via.engine;

import org.viadsm.via.descriptor.Descriptor;

/**
 * The descriptors of one work queue in posting order, from post until a done or wait call hands them back.
 * Indices are absolute and may start anywhere, so a receive queue can keep them equal to its ring's indices.
 * <p>
 * <b>Note:</b> not thread-safe; used by the work queue's thread.
 */
final class DescriptorFifo
{
    private final Descriptor[] items;
    private final int mask;
    private long head;
    private long tail;

    DescriptorFifo(final int capacity, final long startIndex)
    {
        this.items = new Descriptor[capacity];
        this.mask = capacity - 1;
        this.head = startIndex;
        this.tail = startIndex;
    }

    boolean isFull()
    {
        return tail - head >= items.length;
    }

    boolean isEmpty()
    {
        return head == tail;
    }

    long headIndex()
    {
        return head;
    }

    long tailIndex()
    {
        return tail;
    }

    void add(final Descriptor descriptor)
    {
        items[(int)tail & mask] = descriptor;
        tail++;
    }

    Descriptor peek()
    {
        return head == tail ? null : items[(int)head & mask];
    }

    Descriptor poll()
    {
        if (head == tail)
        {
            return null;
        }
        final int slot = (int)head & mask;
        final Descriptor descriptor = items[slot];
        items[slot] = null;
        head++;
        return descriptor;
    }
}
