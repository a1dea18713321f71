package org.viadsm.dsm.array;

import java.util.Objects;

/**
 * What every view of a plain array holds: its range, in the indices of the array it was made from. A plain view
 * never expires (a plain array has no node whose synchronizations could invalidate it); its accesses check the
 * index against the range, as a shared view's do, so a kernel behaves the same over both.
 * <p>
 * The typed views are generated from {@code PlainTypeReadView} and {@code PlainTypeView}.
 */
abstract class PlainView
{
    private int from;
    private int length;

    final void range(final int from, final int to)
    {
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
     * Checks that the view holds {@code index}. Small enough (with the message built elsewhere) for C2 to inline
     * it into every access whatever the profile says, and made with {@link Objects#checkIndex(int, int)}, which C2
     * hoists out of a loop over the view, as {@code SharedView}'s checks are (see there why a test of our own costs
     * a vectorized loop about 10%).
     *
     * @param index the array index.
     * @return {@code index}.
     */
    final int check(final int index)
    {
        try
        {
            Objects.checkIndex(index - from, length);
            return index;
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw outside(index);
        }
    }

    private IndexOutOfBoundsException outside(final int index)
    {
        return new IndexOutOfBoundsException("index " + index + " is outside view [" + from + ", " + to() + ")");
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "{[" + from + ", " + to() + ")}";
    }
}
