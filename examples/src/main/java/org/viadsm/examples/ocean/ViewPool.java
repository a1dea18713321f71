package org.viadsm.examples.ocean;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * One member's reusable views, in numbered slots: a kernel makes the views it needs after the last
 * synchronization (views expire at each one) and re-wraps the slots' earlier views, so that the time steps allocate
 * nothing. A kernel must not hold a slot's view across a call that re-wraps the same slot.
 * <p>
 * <b>Note:</b> used by the one thread that runs the member.
 */
final class ViewPool
{
    /** Read slots: as many as the grids one kernel reads (the fifth phase reads six). */
    static final int READS = 6;
    /** Update slots: as many as the grids one kernel writes. */
    static final int UPDATES = 2;

    private final DoubleReadView[] reads = new DoubleReadView[READS];
    private final DoubleView[] updates = new DoubleView[UPDATES];

    /**
     * A read view of all of {@code a}, a block of one grid.
     *
     * @param slot the read slot, below {@link #READS}.
     * @param a    the block.
     * @return the view, valid until the member's next synchronization.
     */
    DoubleReadView read(final int slot, final DoubleArray a)
    {
        return read(slot, a, 0, a.length());
    }

    /**
     * A read view of the elements {@code [from, to)} of {@code a}.
     *
     * @param slot the read slot, below {@link #READS}.
     * @param a    the array.
     * @param from first element, inclusive.
     * @param to   last element, exclusive.
     * @return the view, valid until the member's next synchronization.
     */
    DoubleReadView read(final int slot, final DoubleArray a, final int from, final int to)
    {
        final DoubleReadView view = a.read(from, to, reads[slot]);
        reads[slot] = view;
        return view;
    }

    /**
     * An update view of the elements {@code [from, to)} of {@code a}: keep it to the elements the kernel writes.
     *
     * @param slot the update slot, below {@link #UPDATES}.
     * @param a    the array.
     * @param from first element, inclusive.
     * @param to   last element, exclusive.
     * @return the view, valid until the member's next synchronization.
     */
    DoubleView update(final int slot, final DoubleArray a, final int from, final int to)
    {
        final DoubleView view = a.update(from, to, updates[slot]);
        updates[slot] = view;
        return view;
    }
}
