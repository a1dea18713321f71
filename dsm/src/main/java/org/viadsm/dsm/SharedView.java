package org.viadsm.dsm;

import org.viadsm.consistency.SyncEpoch;

/**
 * What every view of a shared array holds: the node's {@link SyncEpoch} and the value it had when the view was
 * made, the address of the array's element 0 and the view's range. An access checks the epoch (one compare of two
 * fields, which the JIT hoists out of a loop) and the index (which it removes from unrolled loops), then loads or
 * stores local memory: the pages were made valid (and writable) when the view was made and stay so until the
 * epoch advances.
 * <p>
 * The typed views are generated from {@code SharedTypeReadView} and {@code SharedTypeView}; a view is a flyweight
 * that {@link #wrap(PageFaults, long, int, int)} points at a range again.
 */
abstract class SharedView
{
    private SyncEpoch sync;
    private long epoch;
    private long address;
    private int from;
    private int length;
    private PageFaults faults;

    final void wrap(final PageFaults faults, final long address, final int from, final int to)
    {
        this.faults = faults;
        this.sync = faults.epoch();
        this.epoch = sync.value();
        this.address = address;
        this.from = from;
        this.length = to - from;
    }

    /**
     * The first index of the view.
     *
     * @return the array index of the first element, inclusive.
     */
    public final int from()
    {
        return from;
    }

    /**
     * The end of the view.
     *
     * @return the array index after the last element.
     */
    public final int to()
    {
        return from + length;
    }

    /**
     * The address of element {@code index}, after checking that the view is still valid and holds it.
     *
     * @param index the array index.
     * @param shift log2 of the element size.
     * @return the element's address.
     */
    final long address(final int index, final int shift)
    {
        if (epoch != sync.value())
        {
            throw expired();
        }
        if (Integer.compareUnsigned(index - from, length) >= 0)
        {
            throw outside(index);
        }
        return address + ((long)index << shift);
    }

    private IllegalStateException expired()
    {
        return new IllegalStateException("view " + describe() + " expired at a synchronization of node " +
            faults.nodeId() + " (lock, unlock, barrier, semaphore or close); make views after synchronizing");
    }

    private IndexOutOfBoundsException outside(final int index)
    {
        return new IndexOutOfBoundsException("index " + index + " is outside view " + describe());
    }

    private String describe()
    {
        return "[" + from + ", " + to() + ") of '" + faults.name() + "'";
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return getClass().getSimpleName() + (null == faults ? "{}" : "{" + describe() + '}');
    }
}
