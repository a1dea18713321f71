package org.viadsm.dsm;

import java.util.Objects;

import org.viadsm.consistency.SyncEpoch;

/**
 * What every view of a shared array holds: the node's {@link SyncEpoch} and the value it had when the view was
 * made, the address of the array's element 0 and the view's range. An access checks the epoch (one compare of two
 * fields, which the JIT hoists out of a loop) and the index, then loads or stores local memory: the pages were made
 * valid (and writable) when the view was made and stay so until the epoch advances.
 * <p>
 * Both index checks are {@link Objects#checkIndex(int, int)}, which C2 compiles as range checks: over a loop whose
 * index runs through the view, it checks the loop's first and last index once, before the loop (loop predication),
 * and no element. A test of our own ({@code if (...) throw}) is removed from the unrolled main loop only and stays
 * in its pre- and post-loops; with it, C2 (JDK 25) compiled {@code v.set(i, i)} over a {@code DoubleView} with each
 * vector store right behind its conversion, where over a {@code double[]} it puts the eight stores of an unrolled
 * iteration together, and on an AMD EPYC (Zen) core that order alone made the loop 10% slower.
 * <p>
 * The JIT vectorizes a loop over local memory only if it can tell that an element's byte offset fits an
 * {@code int}. An array holds less than 2 GiB, so every index of a view is at most
 * {@code Integer.MAX_VALUE >> shift}; {@link #first(int)}, {@link #end(int)} and {@link #address(int, int, int)} mask
 * with that bound, which changes no value but gives the loop's index and the address that range. A loop
 * {@code for (i = v.from(); i < v.to(); i++)} then runs as fast as over a {@code double[]}, as long as it touches
 * one view (two off-heap streams, such as {@code y[i] += a * x[i]}, stay unvectorized on JDK 25: C2 cannot rule
 * out their overlap).
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

    /**
     * Points the view at {@code [from, to)} of the node's current epoch.
     *
     * @param faults  the array's page faults.
     * @param address the address of the array's element 0.
     * @param from    the first array index, inclusive.
     * @param to      the array index after the last element.
     */
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
     * The first index of the view, as the typed view's {@code from()} returns it.
     *
     * @param maxIndex the largest index an array of the view's element type can have, {@code 2^k - 1}.
     * @return the array index of the first element, inclusive.
     */
    final int first(final int maxIndex)
    {
        return from & maxIndex;
    }

    /**
     * The end of the view, as the typed view's {@code to()} returns it.
     *
     * @param maxIndex the largest index an array of the view's element type can have, {@code 2^k - 1}.
     * @return the array index after the last element.
     */
    final int end(final int maxIndex)
    {
        return (from + length) & maxIndex;
    }

    /**
     * The address of element {@code index}, after checking that the view is still valid and holds it.
     * <p>
     * This method and the two checks it calls stay within C2's size for inlining a call whatever its profile says
     * ({@code MaxInlineSize}, 35 bytes of bytecode), so that a kernel's loop over a view inlines the whole access in
     * every JVM: a larger method is inlined only where the profile calls its call site hot, and a profile collected
     * partly in code without call counts (C1's tier 2, which the JIT picks while its queue is long) may not, which
     * left a loop calling the check for every element and 5 times slower in some runs of the same program.
     *
     * @param index    the array index.
     * @param shift    log2 of the element size.
     * @param maxIndex {@code Integer.MAX_VALUE >> shift}.
     * @return the element's address.
     */
    final long address(final int index, final int shift, final int maxIndex)
    {
        // The bound never fails once inView passed; its result carries the range [0, to) that lets C2 vectorize.
        return address + ((long)Objects.checkIndex(inView(live(index)), end(maxIndex)) << shift);
    }

    private int live(final int index)
    {
        if (epoch != sync.value())
        {
            throw expired();
        }
        return index;
    }

    private int inView(final int index)
    {
        try
        {
            Objects.checkIndex(index - from, length);
            return index;
        }
        catch (final IndexOutOfBoundsException ex)
        {
            // Objects.checkIndex is the test C2 hoists out of loops (see above); our exception names the view.
            throw outside(index);
        }
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
        return "[" + from + ", " + (from + length) + ") of '" + faults.name() + "'";
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
