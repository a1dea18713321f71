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

    // one field per slot, not arrays: a store into an interface-typed array is type-checked, and C2's speculation on
    // that check trapped in every warm run, each time sending the multigrid kernels back to be compiled again
    private DoubleReadView read0;
    private DoubleReadView read1;
    private DoubleReadView read2;
    private DoubleReadView read3;
    private DoubleReadView read4;
    private DoubleReadView read5;
    private DoubleView update0;
    private DoubleView update1;

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
        return switch (slot)
        {
            case 0 -> read0 = a.read(from, to, read0);
            case 1 -> read1 = a.read(from, to, read1);
            case 2 -> read2 = a.read(from, to, read2);
            case 3 -> read3 = a.read(from, to, read3);
            case 4 -> read4 = a.read(from, to, read4);
            case 5 -> read5 = a.read(from, to, read5);
            default -> throw new IndexOutOfBoundsException("read slot " + slot + " of " + READS);
        };
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
        return switch (slot)
        {
            case 0 -> update0 = a.update(from, to, update0);
            case 1 -> update1 = a.update(from, to, update1);
            default -> throw new IndexOutOfBoundsException("update slot " + slot + " of " + UPDATES);
        };
    }
}
