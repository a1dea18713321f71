package org.viadsm.consistency.page;

import org.agrona.collections.IntArrayList;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.diff.TwinPool;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;
import org.viadsm.consistency.notice.WriteNoticeReader;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * What a node does to pages under home-based lazy release consistency, paying only for sharing:
 * <ul>
 * <li>a read of an invalid page fetches it whole from its home (one RDMA Read, possibly prefetching the invalid
 * pages after it with the same home), after joining the page's copyset at the home;</li>
 * <li>a page no other node caches is <em>exclusive</em> at its home: writable there across intervals, with no write
 * fault (but its first, which only records that it has been written, and does so for every home page of its
 * copyset word that nobody caches, see {@link HomeSettlement#openWord}), twin, diff or write notice;</li>
 * <li>the first write to any other page in an interval makes a twin (unless this node is the page's home, whose copy
 * is the master) and puts the page on the dirty list;</li>
 * <li>at a release every dirty page's diff goes home, RDMA Writes of its runs ({@link DiffSender}) straight into
 * the home's copy, so the home copy is current before the release completes; the home then looks at its copysets:
 * a dirty page of its own that nobody caches becomes exclusive, with no notice, and an exclusive page somebody now
 * caches becomes read-only, so its next write faults, with a notice if it has ever been written (it may have been
 * written since that node's copy was read);</li>
 * <li>a copy of another node's page that was fetched by a write fault, and so not read before it was written, is
 * dropped at that release once its diff has gone, and its copyset left: it was fetched only to be twinned, and
 * keeping it would make the home track its writes to the page until two notices made this node leave;</li>
 * <li>at an acquire every page named by a new write notice is invalidated (after sending its own diff home if it
 * is dirty here), so the next access fetches the current copy;</li>
 * <li>an invalid page of another node that an overwrite view covers is neither fetched nor twinned, and its
 * overwritten ranges go home whole at the release ({@link Overwrites}).</li>
 * </ul>
 * <b>Why the exclusive pages stay coherent.</b> A node caches a page only after joining its copyset: it adds its bit at
 * the home, bumps the array's registration count there, then the home's count of registrations (remote atomics, each
 * a full fence at the home's memory), and only then reads the page. The home, at each release, fences its own writes,
 * reads its count of registrations and, only when that moved, the arrays' counts and the copysets. Either the home sees
 * the registration, and then every page the registering node may have read gets a notice in this interval (applied at
 * the node's next acquire that covers it), or it does not, and then the registration, hence the read after it, came
 * after the home's writes of every earlier interval, which the copy therefore holds; later writes reach the home's
 * copy, and the home's next release sees the registration and sends their notice. So a node that caches a page always
 * gets a notice for every write to it that it has not seen; a notice may name a page that was not written (the home
 * cannot tell), which only costs a fetch. A node leaves a copyset only for a page whose copy it has invalidated and not
 * read since, when a second notice names it, at the end of that acquire (see {@link CopysetMembership}), so a home
 * never stops noticing a page that somebody still caches. Pages other nodes write are tracked with twins and diffs.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class PageCoherence implements WriteNoticeReader.NoticeHandler
{
    private final ProtocolPort port;
    private final SharedSpace space;
    private final Counters counters;
    private final int nodeId;
    private final int nodeCount;
    private final DiffSender diffs;
    private final Copysets copysets;
    private final PageFetcher fetcher;
    private final HomeSettlement settlement;
    private final Overwrites overwrites;
    private final IntArrayList homeDirty = new IntArrayList();

    /**
     * Creates the coherence actions.
     *
     * @param port          the network.
     * @param space         the node's arrays and dirty list.
     * @param twins         where twins live.
     * @param counters      the node's counters.
     * @param prefetchPages pages a fault fetches at most (the missing page and pages read ahead).
     * @param controlRegion the control region's id, the same on every node.
     * @param registrations the offset, in every node's control region, of the count of copyset registrations at
     *                      that node (see {@link org.viadsm.consistency.ControlRegionLayout#registrations()}).
     */
    public PageCoherence(
        final ProtocolPort port,
        final SharedSpace space,
        final TwinPool twins,
        final Counters counters,
        final int prefetchPages,
        final int controlRegion,
        final int registrations)
    {
        this.port = port;
        this.space = space;
        this.diffs = new DiffSender(port, twins, counters);
        this.counters = counters;
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.copysets = new Copysets(port, counters, controlRegion, registrations);
        this.fetcher = new PageFetcher(port, counters, copysets, prefetchPages);
        this.settlement = new HomeSettlement(space, copysets, counters, nodeId);
        this.overwrites = new Overwrites(this, space, counters, fetcher, diffs, nodeId);
    }

    /**
     * Makes an invalid page readable: fetches it from its home, with the pages read ahead of it. A page read ahead
     * becomes readable at its first access.
     *
     * @param table the page's array.
     * @param page  the page.
     */
    public void readFault(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        if (PageState.PREFETCHED == states[page])
        {
            fetcher.used(table, page);
        }
        else if (PageState.INVALID == states[page])
        {
            counters.increment(Counter.READ_FAULTS);
            final long startNs = System.nanoTime();
            fetch(table, page);
            counters.add(Counter.READ_FAULT_NS, System.nanoTime() - startNs);
        }
        else if (PageState.WRITE_ONLY == states[page])
        {
            overwrites.fetch(table, page, false);
        }
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
        final byte wasState = states[page];
        if (PageState.WRITE_ONLY == wasState)
        {
            overwrites.fetch(table, page, true);
            return;
        }
        if (PageState.PREFETCHED == states[page])
        {
            fetcher.used(table, page);
        }
        if (PageState.READ_ONLY == states[page] && table.homes().home(page) == nodeId)
        {
            settlement.openWord(table, page >>> 6);
            if (PageState.READ_WRITE == states[page])
            {
                // Exclusive: nothing to track, it stays writable.
                return;
            }
        }
        if (PageState.INVALID == states[page] || home(table, page) != nodeId)
        {
            final long startNs = System.nanoTime();
            if (PageState.INVALID == states[page])
            {
                fetch(table, page);
                if (table.isExclusive(page))
                {
                    // Claimed here under first touch: exclusive, nothing to track.
                    table.state(page, PageState.READ_WRITE);
                    counters.add(Counter.WRITE_FAULT_NS, System.nanoTime() - startNs);
                    return;
                }
            }
            if (home(table, page) != nodeId)
            {
                if (PageState.INVALID == wasState)
                {
                    PageFetcher.fetchedForWrite(table, page);
                }
                diffs.twin(table, page);
            }
            counters.add(Counter.WRITE_FAULT_NS, System.nanoTime() - startNs);
        }
        table.state(page, PageState.READ_WRITE);
        space.markDirty(table, page);
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} readable: the invalid ones come in runs, one RDMA Read for
     * each run of contiguous invalid pages with the same home.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void readable(final PageTable table, final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        final int end = lastPage + 1;
        for (int page = firstPage; page < end; page++)
        {
            if (PageState.PREFETCHED == states[page])
            {
                fetcher.used(table, page);
            }
            else if (PageState.INVALID == states[page])
            {
                page = fetchRun(table, page, lastPage) - 1;
            }
            else if (PageState.WRITE_ONLY == states[page])
            {
                readFault(table, page);
            }
        }
    }

    /**
     * Makes every page of {@code [firstPage, lastPage]} writable, as a write fault on each would; the invalid ones
     * are fetched first, in runs.
     *
     * @param table     the pages' array.
     * @param firstPage the first page.
     * @param lastPage  the last page, inclusive.
     */
    public void writable(final PageTable table, final int firstPage, final int lastPage)
    {
        final byte[] states = table.states();
        // an exclusive bound: a loop to an inclusive one compiles with a limit check that traps on a one-page range
        final int end = lastPage + 1;
        for (int page = firstPage; page < end; page++)
        {
            if (PageState.INVALID == states[page])
            {
                fetchRun(table, page, lastPage);
            }
            if (PageState.READ_WRITE != states[page])
            {
                writeFault(table, page);
            }
        }
    }

    /**
     * Makes bytes {@code [from, to)} of an array writable for an overwrite: set whole by the application before its
     * next synchronization (see {@link Overwrites}).
     * @param table the array.
     * @param from  the first byte.
     * @param to    the end, exclusive, above {@code from}.
     */
    public void overwritable(final PageTable table, final long from, final long to)
    {
        overwrites.overwritable(table, from, to);
    }

    /**
     * Whether a release has something to do: pages written since the last one, or exclusive pages that another
     * node may have started caching since. Fences this node's writes before looking at its copysets; a node alone
     * has nobody who could cache its pages, so it neither fences nor looks.
     *
     * @return true if the release must run.
     */
    public boolean hasReleaseWork()
    {
        if (!space.dirty().isEmpty())
        {
            return true;
        }
        return nodeCount > 1 && settlement.hasNewSharers();
    }

    /** Release when {@link #hasReleaseWork()} is false: waits for the writes issued so far (a node alone has none). */
    public void releaseClean()
    {
        if (nodeCount > 1)
        {
            port.flushWrites();
        }
    }

    /**
     * Release: sends every dirty page's diff home and waits until all are in the homes' memory, then settles the
     * pages this node is home of against their copysets, and lists the interval's write notices: the pages other
     * nodes are home of that it wrote, its own written pages that another node caches (which become read-only), and
     * its exclusive pages that another node has started to cache (which become read-only too). Its written pages
     * that nobody caches become exclusive.
     *
     * @param notices cleared, then filled with the global pages of the interval's write notices.
     * @return the number of notices.
     */
    public int releaseDirty(final IntArrayList notices)
    {
        notices.clear();
        homeDirty.clear();
        final IntArrayList dirty = space.dirty();
        final int count = dirty.size();
        for (int i = 0; i < count; i++)
        {
            releasePage(dirty.getInt(i), notices);
        }
        dirty.clear();
        // the leaves go after the diffs: operations to one node take effect in the order they are posted
        diffs.post();
        copysets.leaveDropped(space);
        port.flushWrites();
        settlement.settle(homeDirty, notices);
        return notices.size();
    }

    /**
     * Release of one dirty page: its diff goes home if another node is its home, and the page becomes read-only (or
     * is dropped) with a notice; a page of its own waits for {@link HomeSettlement#settle}. A method of its own, so
     * that the JIT compiles it within a few hundred pages: a release runs too rarely for the JIT to compile its
     * loop, and interpreted, the work of a page cost about as much as its diff (RADIX releases thousands of pages a
     * dozen times a run).
     */
    private void releasePage(final int globalPage, final IntArrayList notices)
    {
        final PageTable table = space.tableOf(globalPage);
        final int page = globalPage - table.firstGlobalPage();
        table.dirty(page, false);
        if (table.homes().home(page) == nodeId)
        {
            homeDirty.addInt(globalPage);
            return;
        }
        if (overwrites.sendHome(table, page))
        {
            notices.addInt(globalPage);
            return;
        }
        final byte[] states = table.states();
        if (table.twin(page) != PageTable.NO_TWIN)
        {
            diffs.send(table, page);
        }
        if (PageTable.COPY_WRITTEN_UNREAD == table.copyUse(page))
        {
            fetcher.dropWrittenUnread(table, page);
        }
        else if (PageState.READ_WRITE == states[page])
        {
            table.state(page, PageState.READ_ONLY);
        }
        notices.addInt(globalPage);
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
        for (int t = 0; t < space.tableCount(); t++)
        {
            final PageTable table = space.table(t);
            for (int page = 0; page < table.pages(); page++)
            {
                invalidate(table, page);
            }
        }
    }

    /**
     * Ends a barrier's acquire as {@link #finishLockAcquire()} does, but waits for the copyset leaves: a collective
     * free removes the array's region after its barrier.
     */
    public void finishAcquire()
    {
        diffs.post();
        if (copysets.leaveDropped(space))
        {
            port.flushWrites();
        }
    }

    /**
     * Ends a lock's acquire: posts the diffs that invalidations sent home and the copyset leaves, and waits for
     * neither (a round trip with a contended lock held): the lock's release waits for them, before it hands on a
     * clock that covers them; the node's next access to such a page fetches it from the same home, after them.
     */
    public void finishLockAcquire()
    {
        diffs.post();
        copysets.leaveDropped(space);
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
        final int home = home(table, page);
        if (home == nodeId)
        {
            // Claimed under first touch: nobody can have cached it yet, nobody has written it.
            table.makeExclusive(page, PageState.READ_ONLY);
            return;
        }
        PageFetcher.neededAgain(table, page);
        fetcher.fault(table, page, home);
    }

    /**
     * Fetches the run of invalid pages with the same home that starts at {@code first}, within
     * {@code [first, last]}, as one read fault.
     *
     * @return the page after the run.
     */
    private int fetchRun(final PageTable table, final int first, final int last)
    {
        final int home = home(table, first);
        if (home == nodeId)
        {
            table.makeExclusive(first, PageState.READ_ONLY);
            return first + 1;
        }
        final byte[] states = table.states();
        int end = first + 1;
        while (end < last + 1 && PageState.INVALID == states[end] && home(table, end) == home)
        {
            end++;
        }
        for (int page = first; page < end; page++)
        {
            PageFetcher.neededAgain(table, page);
        }
        counters.increment(Counter.READ_FAULTS);
        final long startNs = System.nanoTime();
        fetcher.fetch(table, home, first, end - first);
        counters.add(Counter.READ_FAULT_NS, System.nanoTime() - startNs);
        return end;
    }

    private void invalidate(final PageTable table, final int page)
    {
        final byte[] states = table.states();
        if (table.homes().home(page) == nodeId)
        {
            return;
        }
        if (overwrites.sendHome(table, page))
        {
            return;
        }
        if (PageTable.COPY_DROPPED == table.copyUse(page))
        {
            // a notice came after the drop: the copy would have been invalid now, the drop cost nothing
            table.copyUse(page, PageTable.COPY_KEPT_OR_READ);
        }
        if (PageState.INVALID == states[page])
        {
            // a second notice, and the copy the first one invalidated was not read since: leave the copyset.
            // Leaving at the first would make a page that every lock holder reads (migratory data) leave and
            // rejoin on every hand-off, a remote atomic each way
            copysets.dropped(table, page);
            return;
        }
        if (PageState.PREFETCHED == states[page])
        {
            counters.increment(Counter.PREFETCHED_UNUSED);
        }
        if (table.twin(page) != PageTable.NO_TWIN)
        {
            diffs.send(table, page);
        }
        table.state(page, PageState.INVALID);
        counters.increment(Counter.INVALIDATIONS);
    }
}
