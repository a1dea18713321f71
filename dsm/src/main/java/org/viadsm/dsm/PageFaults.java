package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.SyncEpoch;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;

/**
 * The slow path of one shared array's accesses: page faults, which enter the protocol through the node's guard.
 * Once the array is freed every page is invalid, so every access comes here and is refused.
 */
final class PageFaults
{
    private final Dsm dsm;
    private final HlrcNode node;
    private final PageTable table;
    private final int pageShift;
    private final SyncEpoch epoch;
    private boolean freed;
    private ArrayAtomics atomics;

    PageFaults(final Dsm dsm, final HlrcNode node, final PageTable table)
    {
        this.dsm = dsm;
        this.node = node;
        this.table = table;
        this.pageShift = Integer.numberOfTrailingZeros(table.pageSize());
        this.epoch = node.syncEpoch();
    }

    /**
     * The address of this node's copy of page 0, for element access.
     */
    long address()
    {
        return table.memory().addressOffset();
    }

    SyncEpoch epoch()
    {
        return epoch;
    }

    /**
     * The array's atomic operations, made on first use; refused once the array is freed.
     */
    ArrayAtomics atomics()
    {
        checkLive();
        if (null == atomics)
        {
            atomics = new ArrayAtomics(dsm, node, table);
        }
        return atomics;
    }

    PageTable table()
    {
        return table;
    }

    int pageShift()
    {
        return pageShift;
    }

    int nodeId()
    {
        return dsm.nodeId();
    }

    String name()
    {
        return table.name();
    }

    boolean isFreed()
    {
        return freed;
    }

    /** Marks the array freed; the caller has invalidated every page. */
    void free()
    {
        freed = true;
    }

    void read(final int page)
    {
        checkLive();
        dsm.enter();
        try
        {
            node.readFault(table, page);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("reading page " + page + " of '" + table.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    void write(final int page)
    {
        checkLive();
        dsm.enter();
        try
        {
            node.writeFault(table, page);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("writing page " + page + " of '" + table.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    /**
     * Makes {@code [firstPage, lastPage]} readable: one entry into the protocol if any page is invalid, no look at
     * the pages while every page of the array is writable.
     */
    void readable(final int firstPage, final int lastPage)
    {
        if (table.allWritable())
        {
            return;
        }
        final byte[] states = table.states();
        // "< end", not "<= lastPage": a "<=" loop that C2 saw make one trip only is compiled with a loop limit check
        // that traps (loop_limit_check) at the first longer range and sends every kernel inlining it back to C2
        final int end = lastPage + 1;
        for (int page = firstPage; page < end; page++)
        {
            if (states[page] < PageState.READ_ONLY)
            {
                makeValid(page, lastPage, false);
                return;
            }
        }
    }

    /**
     * Makes {@code [firstPage, lastPage]} writable: one entry into the protocol if any page is not yet, no look at
     * the pages while every page of the array is writable.
     */
    void writable(final int firstPage, final int lastPage)
    {
        if (table.allWritable())
        {
            return;
        }
        final byte[] states = table.states();
        final int end = lastPage + 1;
        for (int page = firstPage; page < end; page++)
        {
            if (states[page] != PageState.READ_WRITE)
            {
                makeValid(page, lastPage, true);
                return;
            }
        }
    }

    /**
     * Makes the elements {@code [first, end)} writable for an overwrite (see
     * {@link HlrcNode#overwritable}): one entry into the protocol if any of their pages is not yet writable.
     */
    void overwritable(final int first, final int end, final int elementShift)
    {
        if (table.allWritable())
        {
            return;
        }
        final long from = (long)first << elementShift;
        final long to = (long)end << elementShift;
        final int firstPage = (int)(from >>> pageShift);
        final int lastPage = (int)((to - 1) >>> pageShift);
        final byte[] states = table.states();
        // an exclusive bound: a loop to an inclusive one compiles with a limit check that traps on a one-page range
        final int endPage = lastPage + 1;
        for (int page = firstPage; page < endPage; page++)
        {
            if (states[page] != PageState.READ_WRITE)
            {
                checkLive();
                dsm.enter();
                try
                {
                    node.overwritable(table, from, to);
                }
                catch (final ProtocolException ex)
                {
                    throw dsm.failure("overwriting pages " + page + ".." + lastPage + " of '" + table.name() + "'",
                        ex);
                }
                finally
                {
                    dsm.exit();
                }
                return;
            }
        }
    }

    private void makeValid(final int firstPage, final int lastPage, final boolean write)
    {
        checkLive();
        dsm.enter();
        try
        {
            if (write)
            {
                node.writable(table, firstPage, lastPage);
            }
            else
            {
                node.readable(table, firstPage, lastPage);
            }
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure((write ? "writing" : "reading") + " pages " + firstPage + ".." + lastPage + " of '" +
                table.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    int home(final int page)
    {
        checkLive();
        dsm.enter();
        try
        {
            return node.home(table, page);
        }
        catch (final ProtocolException ex)
        {
            throw dsm.failure("finding the home of page " + page + " of '" + table.name() + "'", ex);
        }
        finally
        {
            dsm.exit();
        }
    }

    private void checkLive()
    {
        if (freed)
        {
            throw new IllegalStateException("shared array '" + table.name() + "' was freed");
        }
    }
}
