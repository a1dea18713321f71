package org.viadsm.dsm;

import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.SyncEpoch;
import org.viadsm.consistency.node.HlrcNode;
import org.viadsm.consistency.page.PageState;
import org.viadsm.consistency.page.PageTable;

/**
 * The slow path of one shared array's accesses: page faults, which enter the protocol through the node's guard.
 * Once the array is freed every page is invalid, so every access comes here and is refused.
 * <p>
 * It also keeps the sync epoch in which every page of the array was found readable ({@link #readableIn}) and
 * writable ({@link #writableIn}). Page states only rise between two synchronizations of the node (invalidations
 * and downgrades happen at acquires and releases, which advance the epoch), so while the epoch has that value an
 * element access needs no page-state check: one compare of two fields that the JIT hoists out of a loop, which
 * leaves the loop as plain as a view's. The scans that establish them resume where they stopped, so an epoch costs
 * one pass over the states at most, plus one look per fault.
 */
final class PageFaults
{
    private final Dsm dsm;
    private final HlrcNode node;
    private final PageTable table;
    private final int pageShift;
    private final SyncEpoch epoch;
    private final byte[] states;
    private boolean freed;
    /** The epoch in which every page was found at least {@link PageState#READ_ONLY}, or -1. */
    long readableIn = -1;
    /** The epoch in which every page was found {@link PageState#READ_WRITE}, or -1. */
    long writableIn = -1;
    /** The epoch of the last scan for {@link #readableIn} since the last fault, or -1. */
    long readScannedIn = -1;
    /** The epoch of the last scan for {@link #writableIn} since the last fault, or -1. */
    long writeScannedIn = -1;
    private long readScanEpoch = -1;
    private int readScanFrom;
    private long writeScanEpoch = -1;
    private int writeScanFrom;
    private ArrayAtomics atomics;

    PageFaults(final Dsm dsm, final HlrcNode node, final PageTable table)
    {
        this.dsm = dsm;
        this.node = node;
        this.table = table;
        this.pageShift = Integer.numberOfTrailingZeros(table.pageSize());
        this.epoch = node.syncEpoch();
        this.states = table.states();
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

    byte[] states()
    {
        return table.states();
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
        readableIn = -1;
        writableIn = -1;
        readScannedIn = -1;
        writeScannedIn = -1;
    }

    /**
     * Looks whether every page is readable (and writable) in the current epoch: at the array's allocation, and
     * after each synchronization of the node for an array whose pages were all readable in an earlier epoch, so
     * that element access in the new epoch does not take its slow path even once (a branch taken once stays in
     * the JIT's compiled loop, with its call).
     *
     * @param always false to skip an array whose pages were never all readable.
     */
    void revalidate(final boolean always)
    {
        if (!freed && (always || readableIn >= 0))
        {
            scanWritable();
            if (writableIn != epoch.value())
            {
                scanReadable();
            }
        }
    }

    /**
     * An element read that found {@link #readableIn} stale: faults the page if it is not readable, else looks
     * whether every page now is.
     */
    void readMiss(final int page)
    {
        if (states[page] < PageState.READ_ONLY)
        {
            read(page);
            readScannedIn = -1;
        }
        else
        {
            scanReadable();
        }
    }

    /**
     * An element write that found {@link #writableIn} stale: faults the page if it is not writable, else looks
     * whether every page now is.
     */
    void writeMiss(final int page)
    {
        if (states[page] != PageState.READ_WRITE)
        {
            write(page);
            writeScannedIn = -1;
        }
        else
        {
            scanWritable();
        }
    }

    private void scanReadable()
    {
        final long now = epoch.value();
        if (readScanEpoch != now)
        {
            readScanEpoch = now;
            readScanFrom = 0;
        }
        int page = readScanFrom;
        while (page < states.length && states[page] >= PageState.READ_ONLY)
        {
            page++;
        }
        readScanFrom = page;
        readScannedIn = now;
        if (page == states.length)
        {
            readableIn = now;
        }
    }

    private void scanWritable()
    {
        final long now = epoch.value();
        if (writeScanEpoch != now)
        {
            writeScanEpoch = now;
            writeScanFrom = 0;
        }
        int page = writeScanFrom;
        while (page < states.length && PageState.READ_WRITE == states[page])
        {
            page++;
        }
        writeScanFrom = page;
        writeScannedIn = now;
        if (page == states.length)
        {
            writableIn = now;
            readableIn = now;
        }
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
     * Makes {@code [firstPage, lastPage]} readable: one entry into the protocol if any page is invalid; nothing to
     * look at while every page of the array is readable.
     */
    void readable(final int firstPage, final int lastPage)
    {
        if (readableIn == epoch.value())
        {
            return;
        }
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (states[page] < PageState.READ_ONLY)
            {
                makeValid(page, lastPage, false);
                return;
            }
        }
    }

    /**
     * Makes {@code [firstPage, lastPage]} writable: one entry into the protocol if any page is not yet; nothing to
     * look at while every page of the array is writable.
     */
    void writable(final int firstPage, final int lastPage)
    {
        if (writableIn == epoch.value())
        {
            return;
        }
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (states[page] != PageState.READ_WRITE)
            {
                makeValid(page, lastPage, true);
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
