package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.IntArray;

/**
 * Which of the {@link GlobalLayout#MAXLOCK} cell locks ({@code CellLock->CL}) guards a cell or leaf: the C takes
 * {@code CL[seqnum % MAXLOCK]}; the port takes a lock from a slice of {@code MAXLOCK / nproc} (rounded down to a
 * power of two) that belongs to the processor that made the node, {@code seqnum} modulo the slice within it.
 * <p>
 * Why: a processor's nodes are numbered from {@code ProcessId * maxmycell} (or {@code maxmyleaf}), a multiple of
 * {@code MAXLOCK} for the SPLASH inputs, so under the C's mapping each processor's k-th cell shares its lock with
 * every other processor's k-th cell (and leaf). The processors build, sum and walk their own parts of the tree at the
 * same time, each from its pools' starts, so every such pair of unrelated nodes made the lock pass between the
 * nodes of a DSM (a remote acquire, and a wait for the holder's release). A node still has exactly one lock, so
 * every critical section excludes what it excluded in the C, and the program takes the same locks the same number
 * of times; on one processor the slice is the whole table and the mapping is the C's.
 */
final class CellLocks
{
    private final int slice;

    /**
     * @param nproc the team size.
     */
    CellLocks(final int nproc)
    {
        this.slice = Integer.highestOneBit(Math.max(1, GlobalLayout.MAXLOCK / nproc));
    }

    /**
     * The lock of the cell or leaf whose integer fields start at {@code base} in {@code ints}.
     *
     * @param ints the cells' or leaves' integer array.
     * @param base the node's first integer field.
     * @return the lock id.
     */
    int of(final IntArray ints, final int base)
    {
        return of(ints.get(base + NodeLayout.PROCESSOR_OFFSET), ints.get(base + NodeLayout.SEQNUM_OFFSET));
    }

    /**
     * The lock of a node made by {@code processor} with sequence number {@code seqnum}.
     *
     * @param processor the processor whose pool holds the node (the master's for the root).
     * @param seqnum    the node's {@code seqnum}.
     * @return the lock id.
     */
    int of(final int processor, final int seqnum)
    {
        return GlobalLayout.CELL_LOCK_BASE +
            ((processor * slice + (seqnum & (slice - 1))) & (GlobalLayout.MAXLOCK - 1));
    }
}
