package org.viadsm.consistency.sync;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.diff.TwinPool;
import org.viadsm.consistency.page.PageCoherence;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;
import org.viadsm.consistency.page.SharedSpace;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Atomic operations on elements of shared arrays, executed at each element's home on the home's copy (the master)
 * with the network's remote atomics: fetch-and-add and compare-and-swap on 8-byte words. A 4-byte element is
 * changed with a compare-and-swap loop on the aligned 8-byte word that holds it (the other half is compared and
 * written back as it was, so a concurrent change to it, atomic or a diff, makes the loop retry rather than be
 * lost); the first guess is this node's copy of the word, right unless someone changed it since.
 * <p>
 * Around each operation the node keeps its own copy coherent with it: a plain write to the element still pending
 * in this node's copy (not yet sent home by a release) goes home first, so the operation sees it (program order);
 * afterwards this node's copy of the element, and its twin, hold the operation's result, so a later plain read here
 * sees it and the next diff does not carry it; and an operation that changed the element puts its page on the
 * interval's write notices (without a twin: the change is already home), so nodes that acquire after this node's
 * next release drop their stale copies of the page.
 * <p>
 * Memory consistency effects: the operations on one element are linearizable (one at a time at its home, each
 * seeing those before it, in an order that keeps each node's program order). An operation sees every write to the
 * element that happens-before it; a read that happens-after an operation that changed the element (on this node
 * by program order, elsewhere through this node's release and a matching acquire) sees its result or a later one.
 * The operations create no happens-before edges between nodes of their own: they are not synchronization.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class ElementAtomics
{
    /** Add the operand; the result is the previous value. */
    public static final int GET_AND_ADD = 0;
    /** Store the operand; the result is the previous value. */
    public static final int GET_AND_SET = 1;
    /** Store the operand if the element holds the expected value; the result is the previous value. */
    public static final int COMPARE_AND_EXCHANGE = 2;
    /** Read the home's value. */
    public static final int GET = 3;

    private static final long INT_MASK = 0xFFFF_FFFFL;

    private final ProtocolPort port;
    private final SharedSpace space;
    private final PageCoherence coherence;
    private final TwinPool twins;
    private final int nodeId;

    /**
     * Creates the atomics of a node.
     *
     * @param port      the network.
     * @param space     the node's arrays and dirty list.
     * @param coherence the node's page actions (homes).
     * @param twins     the node's twins.
     */
    public ElementAtomics(
        final ProtocolPort port, final SharedSpace space, final PageCoherence coherence, final TwinPool twins)
    {
        this.port = port;
        this.space = space;
        this.coherence = coherence;
        this.twins = twins;
        this.nodeId = port.nodeId();
    }

    /**
     * Performs an atomic operation on an element at its home.
     *
     * @param table    the element's array.
     * @param offset   the element's byte offset in the array, a multiple of its width.
     * @param width    8 for a long element, 4 for an int element.
     * @param op       {@link #GET_AND_ADD}, {@link #GET_AND_SET}, {@link #COMPARE_AND_EXCHANGE} or {@link #GET}.
     * @param operand  the addend or the new value.
     * @param expected the value {@link #COMPARE_AND_EXCHANGE} expects.
     * @return the element's value before the operation (for {@link #GET}, its value).
     */
    public long apply(
        final PageTable table, final int offset, final int width, final int op, final long operand,
        final long expected)
    {
        final int page = offset / table.pageSize();
        final int home = coherence.home(table, page);
        if (PageState.WRITE_ONLY == table.states()[page])
        {
            // an overwritten page's range would go home whole at the release, over the atomic's result: fetched
            // and twinned first, its diff carries only what differs from the home's copy
            coherence.writeFault(table, page);
        }
        final boolean cached = home != nodeId && PageState.INVALID != table.states()[page];
        if (cached)
        {
            sendPendingWrite(table, page, offset, width, home);
        }
        final long previous = 8 == width ?
            applyLong(home, table.region(), offset, op, operand, expected) :
            applyInt(table, home, offset, op, (int)operand, (int)expected, cached);
        final long result = result(op, previous, operand, expected, width);
        if (cached)
        {
            putBoth(table, page, offset, width, result);
        }
        if (result != previous)
        {
            space.markDirty(table, page);
        }
        return previous;
    }

    private long applyLong(
        final int home, final int region, final int offset, final int op, final long operand, final long expected)
    {
        switch (op)
        {
            case GET_AND_ADD:
                return port.fetchAndAdd(home, region, offset, operand);
            case GET:
                return port.fetchAndAdd(home, region, offset, 0L);
            case COMPARE_AND_EXCHANGE:
                return port.compareAndSwap(home, region, offset, expected, operand);
            case GET_AND_SET:
                long guess = 0L;
                long seen;
                while ((seen = port.compareAndSwap(home, region, offset, guess, operand)) != guess)
                {
                    guess = seen;
                }
                return guess;
            default:
                throw new IllegalArgumentException("unknown atomic operation " + op);
        }
    }

    private int applyInt(
        final PageTable table, final int home, final int offset, final int op, final int operand,
        final int expected, final boolean cached)
    {
        final int wordOffset = offset & ~7;
        final int shift = (offset & 4) << 3;
        long guess = cached || home == nodeId ? table.memory().getLongVolatile(wordOffset) : 0L;
        while (true)
        {
            final int current = (int)(guess >>> shift);
            final int next;
            switch (op)
            {
                case GET_AND_ADD:
                    next = current + operand;
                    break;
                case GET_AND_SET:
                    next = operand;
                    break;
                case COMPARE_AND_EXCHANGE:
                    next = current == expected ? operand : current;
                    break;
                case GET:
                    next = current;
                    break;
                default:
                    throw new IllegalArgumentException("unknown atomic operation " + op);
            }
            final long update = (guess & ~(INT_MASK << shift)) | ((next & INT_MASK) << shift);
            final long seen = port.compareAndSwap(home, table.region(), wordOffset, guess, update);
            if (seen == guess)
            {
                return current;
            }
            guess = seen;
        }
    }

    private static long result(final int op, final long previous, final long operand, final long expected,
        final int width)
    {
        final long value;
        switch (op)
        {
            case GET_AND_ADD:
                value = previous + operand;
                break;
            case GET_AND_SET:
                value = operand;
                break;
            case COMPARE_AND_EXCHANGE:
                value = previous == expected ? operand : previous;
                break;
            default:
                value = previous;
                break;
        }
        return 8 == width ? value : (int)value;
    }

    /**
     * A plain write to the element made in this interval and not yet diffed goes home before the atomic, so the
     * atomic sees it, and leaves the twin agreeing with the copy for that element.
     */
    private void sendPendingWrite(
        final PageTable table, final int page, final int offset, final int width, final int home)
    {
        final int slot = table.twin(page);
        if (PageTable.NO_TWIN == slot)
        {
            return;
        }
        final AtomicBuffer memory = table.memory();
        final int twinOffset = twins.offset(slot) + offset - page * table.pageSize();
        final long mine = 8 == width ? memory.getLong(offset) : memory.getInt(offset);
        final long twin = 8 == width ? twins.buffer(slot).getLong(twinOffset) : twins.buffer(slot).getInt(twinOffset);
        if (mine != twin)
        {
            port.write(home, table.region(), offset, table.region(), offset, width);
            port.flushWrites();
            putBoth(table, page, offset, width, mine);
        }
    }

    private void putBoth(final PageTable table, final int page, final int offset, final int width, final long value)
    {
        put(table.memory(), offset, width, value);
        final int slot = table.twin(page);
        if (PageTable.NO_TWIN != slot)
        {
            put(twins.buffer(slot), twins.offset(slot) + offset - page * table.pageSize(), width, value);
        }
    }

    private static void put(final AtomicBuffer buffer, final int offset, final int width, final long value)
    {
        if (8 == width)
        {
            buffer.putLongVolatile(offset, value);
        }
        else
        {
            buffer.putIntVolatile(offset, (int)value);
        }
    }
}
