package org.viadsm.consistency.page;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.diff.DiffEncoder;
import org.viadsm.consistency.diff.DiffRuns;
import org.viadsm.consistency.diff.TwinPool;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;
import org.viadsm.consistency.notice.WriteNoticeReader;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * What a node does to pages under home-based lazy release consistency:
 * <ul>
 * <li>a read of an invalid page fetches it whole from its home (one RDMA Read, possibly prefetching the invalid
 * pages after it with the same home);</li>
 * <li>the first write to a page in an interval makes a twin (unless this node is the page's home, whose copy is
 * the master) and puts the page on the dirty list;</li>
 * <li>at a release every dirty page's diff goes home, one RDMA Write per run, straight into the home's copy, so
 * the home copy is current before the release completes; pages become read-only again;</li>
 * <li>at an acquire every page named by a new write notice is invalidated (after sending its own diff home if it
 * is dirty here), so the next access fetches the current copy.</li>
 * </ul>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class PageCoherence implements WriteNoticeReader.NoticeHandler
{
    private final ProtocolPort port;
    private final SharedSpace space;
    private final TwinPool twins;
    private final Counters counters;
    private final int nodeId;
    private final int nodeCount;
    private final int prefetchPages;
    private final DiffRuns runs = new DiffRuns();
    private boolean flushedSinceLastFence;

    /**
     * Creates the coherence actions.
     *
     * @param port          the network.
     * @param space         the node's arrays and dirty list.
     * @param twins         where twins live.
     * @param counters      the node's counters.
     * @param prefetchPages pages a read miss fetches at most.
     */
    public PageCoherence(
        final ProtocolPort port,
        final SharedSpace space,
        final TwinPool twins,
        final Counters counters,
        final int prefetchPages)
    {
        this.port = port;
        this.space = space;
        this.twins = twins;
        this.counters = counters;
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.prefetchPages = prefetchPages;
    }

    /**
     * Makes an invalid page readable: fetches it from its home.
     *
     * @param table the page's array.
     * @param page  the page.
     */
    public void readFault(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        if (PageState.INVALID != states[page])
        {
            return;
        }
        counters.increment(Counter.READ_FAULTS);
        final long startNs = System.nanoTime();
        fetch(table, page);
        counters.add(Counter.READ_FAULT_NS, System.nanoTime() - startNs);
    }

    /**
     * Makes a page writable for the rest of the interval: fetches it if invalid, twins it if another node is its
     * home, and puts it on the dirty list.
     *
     * @param table the page's array.
     * @param page  the page.
     */
    public void writeFault(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        if (PageState.READ_WRITE == states[page])
        {
            return;
        }
        counters.increment(Counter.WRITE_FAULTS);
        if (PageState.INVALID == states[page] || home(table, page) != nodeId)
        {
            final long startNs = System.nanoTime();
            if (PageState.INVALID == states[page])
            {
                fetch(table, page);
            }
            if (home(table, page) != nodeId)
            {
                final int slot = twins.acquire();
                twins.buffer(slot).putBytes(twins.offset(slot), table.memory(), page * table.pageSize(),
                    table.pageSize());
                table.twin(page, slot);
                counters.increment(Counter.TWINS);
            }
            counters.add(Counter.WRITE_FAULT_NS, System.nanoTime() - startNs);
        }
        states[page] = PageState.READ_WRITE;
        space.markDirty(table, page);
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} readable, as a read fault on each invalid one would.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void readable(final PageTable table, final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (PageState.INVALID == states[page])
            {
                readFault(table, page);
            }
        }
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} writable, as a write fault on each would.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void writable(final PageTable table, final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        for (int page = firstPage; page <= lastPage; page++)
        {
            if (PageState.READ_WRITE != states[page])
            {
                writeFault(table, page);
            }
        }
    }

    /**
     * Whether a release would have nothing to do: nothing was written since the last one.
     *
     * @return true if the dirty list is empty.
     */
    public boolean isClean()
    {
        return space.dirty().isEmpty();
    }

    /**
     * Release with nothing written ({@link #isClean()}): still waits for the writes issued so far, which a release
     * orders before whatever follows it (a lock hand-off, a barrier message).
     */
    public void releaseClean()
    {
        port.flushWrites();
        flushedSinceLastFence = false;
    }

    /**
     * Release: sends every dirty page's diff home and waits until all are in the homes' memory, makes the pages
     * read-only, and moves the dirty list into {@code notices}.
     *
     * @param notices cleared, then filled with the global pages written in the interval.
     * @return the number of pages written in the interval.
     */
    public int releaseDirty(final IntArrayList notices)
    {
        notices.clear();
        final IntArrayList dirty = space.dirty();
        final int count = dirty.size();
        for (int i = 0; i < count; i++)
        {
            final int globalPage = dirty.getInt(i);
            final PageTable table = space.tableOf(globalPage);
            final int page = globalPage - table.firstGlobalPage();
            if (table.twin(page) != PageTable.NO_TWIN)
            {
                flushDiff(table, page);
            }
            final byte[] states = table.states();
            if (PageState.READ_WRITE == states[page])
            {
                states[page] = PageState.READ_ONLY;
            }
            table.dirty(page, false);
            notices.addInt(globalPage);
        }
        dirty.clear();
        port.flushWrites();
        flushedSinceLastFence = false;
        return count;
    }

    /**
     * Acquire: applies one write notice from another node, invalidating the page unless this node is its home.
     *
     * @param globalPage the page written.
     */
    @Override
    public void onNotice(final int globalPage)
    {
        counters.increment(Counter.NOTICES_APPLIED);
        final PageTable table = space.tableOf(globalPage);
        invalidate(table, globalPage - table.firstGlobalPage());
    }

    /**
     * Acquire, when a peer's notices were lost: invalidates every page this node caches but is not home of.
     */
    public void invalidateAllCached()
    {
        for (final PageTable table : space.tables())
        {
            for (int page = 0; page < table.pages(); page++)
            {
                invalidate(table, page);
            }
        }
    }

    /**
     * Ends an acquire: waits for the diffs that invalidations sent home, so that a page refetched later is not
     * overwritten by its own diff still in flight.
     */
    public void finishAcquire()
    {
        if (flushedSinceLastFence)
        {
            port.flushWrites();
            flushedSinceLastFence = false;
        }
    }

    /**
     * The home of a page, claiming it with a compare-and-swap on its directory entry if the placement is first
     * touch and no node has claimed it yet.
     *
     * @param table the page's array.
     * @param page  the page.
     * @return the home node.
     */
    public int home(final PageTable table, final int page)
    {
        final HomePolicy policy = table.homes();
        final int known = policy.home(page);
        if (HomePolicy.UNDECIDED != known)
        {
            return known;
        }
        final int directoryNode = FirstTouchHomePolicy.directoryNode(page, nodeCount);
        final long offset = table.directoryOffset() + FirstTouchHomePolicy.directoryOffset(page, nodeCount);
        final long previous = port.compareAndSwap(directoryNode, table.region(), offset, 0L, nodeId + 1L);
        final int home = 0L == previous ? nodeId : (int)previous - 1;
        ((FirstTouchHomePolicy)policy).decide(page, home);
        return home;
    }

    private void fetch(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        final int home = home(table, page);
        if (home == nodeId)
        {
            states[page] = PageState.READ_ONLY;
            return;
        }
        int count = 1;
        while (count < prefetchPages && page + count < table.pages() && PageState.INVALID == states[page + count] &&
            table.homes().home(page + count) == home)
        {
            count++;
        }
        final int pageSize = table.pageSize();
        final long offset = (long)page * pageSize;
        port.read(home, table.region(), offset, table.region(), offset, count * pageSize);
        for (int i = 0; i < count; i++)
        {
            states[page + i] = PageState.READ_ONLY;
        }
        counters.add(Counter.PAGES_FETCHED, count);
    }

    private void invalidate(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        if (PageState.INVALID == states[page] || table.homes().home(page) == nodeId)
        {
            return;
        }
        if (table.twin(page) != PageTable.NO_TWIN)
        {
            flushDiff(table, page);
            flushedSinceLastFence = true;
        }
        states[page] = PageState.INVALID;
        counters.increment(Counter.INVALIDATIONS);
    }

    private void flushDiff(final PageTable table, final int page)
    {
        final int slot = table.twin(page);
        final int pageSize = table.pageSize();
        final int pageOffset = page * pageSize;
        final AtomicBuffer memory = table.memory();
        final int count = DiffEncoder.encode(memory, pageOffset, twins.buffer(slot), twins.offset(slot), pageSize,
            table.elementSize(), runs);
        if (count > 0)
        {
            final int home = table.homes().home(page);
            for (int i = 0; i < count; i++)
            {
                final long at = (long)pageOffset + runs.offset(i);
                port.write(home, table.region(), at, table.region(), at, runs.length(i));
            }
            final int bytes = runs.totalBytes();
            counters.increment(Counter.DIFFS);
            counters.add(Counter.DIFF_RUNS, count);
            counters.add(Counter.DIFF_BYTES, bytes);
        }
        twins.release(slot);
        table.twin(page, PageTable.NO_TWIN);
    }
}
