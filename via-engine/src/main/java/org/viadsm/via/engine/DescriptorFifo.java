package org.viadsm.via.engine;

import org.viadsm.via.descriptor.Descriptor;

/**
 * The descriptors of one work queue in posting order, from post until a done or wait call hands them back.
 * Indices are absolute and may start anywhere, so a receive queue can keep them equal to its ring's indices.
 * A slot keeps its last descriptor after handing it back, and a post of the descriptor a slot holds stores nothing:
 * a queue reposts its few descriptors over and over, and under G1 a store of a reference into this long-lived array
 * costs a card-marking fence. So up to a queue's depth of descriptors stay reachable from it while it lives.
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
        final int slot = (int)tail & mask;
        if (items[slot] != descriptor)
        {
            items[slot] = descriptor;
        }
        tail++;
    }

    Descriptor peek()
    {
        return head == tail ? null : items[(int)head & mask];
    }

    // removes the oldest descriptor, which peek just returned
    void dropHead()
    {
        head++;
    }

    Descriptor poll()
    {
        if (head == tail)
        {
            return null;
        }
        final int slot = (int)head & mask;
        final Descriptor descriptor = items[slot];
        head++;
        return descriptor;
    }
}
