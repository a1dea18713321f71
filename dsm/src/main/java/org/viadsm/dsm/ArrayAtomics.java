package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.sync.ElementAtomics;

/**
 * The atomic operations of one shared array, entering the protocol through the node's guard: what
 * {@code SharedLongArray} and {@code SharedIntArray} call (see {@link ElementAtomics} for how they work).
 */
final class ArrayAtomics
{
    private final Dsm dsm;
    private final ElementAtomics atomics;
    private final PageTable table;

    ArrayAtomics(final Dsm dsm, final HlrcNode node, final PageTable table)
    {
        this.dsm = dsm;
        this.atomics = node.atomics();
        this.table = table;
    }

    /**
     * An operation on a long element.
     *
     * @param element  the element, counted from the array's start.
     * @param op       one of the {@link ElementAtomics} operations.
     * @param operand  the addend or new value.
     * @param expected the value a compare-and-exchange expects.
     * @return the element's value before the operation.
     */
    long applyLong(final int element, final int op, final long operand, final long expected)
    {
        return apply(element, 3, op, operand, expected);
    }

    /**
     * An operation on an int element.
     *
     * @param element  the element, counted from the array's start.
     * @param op       one of the {@link ElementAtomics} operations.
     * @param operand  the addend or new value.
     * @param expected the value a compare-and-exchange expects.
     * @return the element's value before the operation.
     */
    int applyInt(final int element, final int op, final int operand, final int expected)
    {
        return (int)apply(element, 2, op, operand, expected);
    }

    /**
     * Performs an operation on element {@code element} (counted from the array's start).
     *
     * @param element  the element.
     * @param shift    log2 of the element's width: 3 for longs, 2 for ints.
     * @param op       one of the {@link ElementAtomics} operations.
     * @param operand  the addend or new value.
     * @param expected the value a compare-and-exchange expects.
     * @return the element's value before the operation.
     */
    private long apply(final int element, final int shift, final int op, final long operand, final long expected)
    {
        dsm.enter();
        try
        {
            return atomics.apply(table, element << shift, 1 << shift, op, operand, expected);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("atomic operation on element " + element + " of '" + table.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }
}
