package org.viadsm.dsm;

import org.viadsm.consistency.HlrcNode;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;

/**
 * The slow path of one shared array's accesses: page faults, which enter the protocol through the node's guard.
 */
final class PageFaults
{
    private final Dsm dsm;
    private final HlrcNode node;
    private final PageTable table;
    private final int pageShift;

    PageFaults(final Dsm dsm, final HlrcNode node, final PageTable table)
    {
        this.dsm = dsm;
        this.node = node;
        this.table = table;
        this.pageShift = Integer.numberOfTrailingZeros(table.pageSize());
    }

    byte[] states()
    {
        return table.states();
    }

    int pageShift()
    {
        return pageShift;
    }

    String name()
    {
        return table.name();
    }

    void read(final int page)
    {
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

    void readable(final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (states[page] < PageState.READ_ONLY)
            {
                read(page);
            }
        }
    }

    void writable(final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (states[page] != PageState.READ_WRITE)
            {
                write(page);
            }
        }
    }

    int home(final int page)
    {
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
}
