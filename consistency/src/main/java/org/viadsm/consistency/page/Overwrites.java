package org.viadsm.consistency.page;

import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;

/**
 * Pages written through overwrite views: an invalid page of another node that a view covers is neither fetched nor
 * twinned. It is {@link PageState#WRITE_ONLY} and dirty, with the view's part of it as an overwritten range (those
 * that adjoin join, up to {@link OverwrittenRanges#RANGES} apart), and the release sends each range home whole, one
 * diff run each, every element (a diff against a twin of the stale copy would leave out an element written with the
 * value that copy still held, which the home may have changed since), then leaves the page invalid. This node never
 * read the page, so it joins no copyset. A page whose unwritten part is needed after all (a read, another write, an
 * atomic, one range too many) is fetched then, its ranges kept, and twinned as fetched; an acquire's notice for it
 * sends its ranges first.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class Overwrites
{
    private final PageCoherence coherence;
    private final SharedSpace space;
    private final Counters counters;
    private final PageFetcher fetcher;
    private final DiffSender diffs;
    private final OverwrittenRanges ranges;
    private final int nodeId;

    Overwrites(
        final PageCoherence coherence,
        final SharedSpace space,
        final Counters counters,
        final PageFetcher fetcher,
        final DiffSender diffs,
        final int nodeId)
    {
        this.coherence = coherence;
        this.space = space;
        this.counters = counters;
        this.fetcher = fetcher;
        this.diffs = diffs;
        this.ranges = diffs.overwritten();
        this.nodeId = nodeId;
    }

    /**
     * Makes the pages of the array's bytes {@code [from, to)} writable for an overwrite of them, which this node's
     * application writes whole before its next synchronization: an invalid page another node is home of becomes
     * {@link PageState#WRITE_ONLY}, neither fetched nor twinned, dirty, with the part of the range it holds as an
     * overwritten range (a later part that overlaps or adjoins one widens it, another takes a free one); every other
     * page is made writable as a write fault would, and a {@code WRITE_ONLY} page given a part apart from all of its
     * {@link OverwrittenRanges#RANGES} ranges is fetched and twinned first, its ranges kept.
     *
     * @param table the pages' array.
     * @param from  the first byte of the range in the array.
     * @param to    the end of the range in the array, exclusive, above {@code from}.
     */
    void overwritable(final PageTable table, final long from, final long to)
    {
        final int firstPage = (int)(from / table.pageSize());
        final int lastPage = (int)((to - 1) / table.pageSize());
        final byte[] states = table.states();
        final int pageSize = table.pageSize();
        // an exclusive bound: a loop to an inclusive one compiles with a limit check that traps on a one-page range
        final int endPage = lastPage + 1;
        for (int page = firstPage; page < endPage; page++)
        {
            final byte state = states[page];
            if (PageState.READ_WRITE == state)
            {
                continue;
            }
            final long pageStart = (long)page * pageSize;
            final int partFrom = (int)Math.max(0, from - pageStart);
            final int partTo = (int)Math.min(pageSize, to - pageStart);
            if (PageState.WRITE_ONLY == state)
            {
                if (!ranges.add(table.firstGlobalPage() + page, partFrom, partTo))
                {
                    coherence.writeFault(table, page);
                }
            }
            else if (PageState.INVALID == state && coherence.home(table, page) != nodeId)
            {
                counters.increment(Counter.WRITE_FAULTS);
                counters.increment(Counter.OVERWRITES);
                ranges.start(table.firstGlobalPage() + page, partFrom, partTo);
                table.state(page, PageState.WRITE_ONLY);
                space.markDirty(table, page);
            }
            else
            {
                coherence.writeFault(table, page);
            }
        }
    }

    /**
     * Fetches a {@link PageState#WRITE_ONLY} page whose unwritten part is needed, as a read or a write fault: the
     * ranges are kept aside, the page fetched and twinned as fetched, and the ranges put back, so the page is an
     * ordinary written page of the interval, whose diff holds every element of the ranges that differs from the
     * home's copy (an element written with the home's value needs no run). A page fetched for a write is written
     * unread, as after a write fault.
     */
    void fetch(final PageTable table, final int page, final boolean forWrite)
    {
        final long startNs = System.nanoTime();
        final int slot = diffs.stash(table, page);
        PageFetcher.neededAgain(table, page);
        fetcher.fetch(table, table.homes().home(page), page, 1);
        if (forWrite)
        {
            PageFetcher.fetchedForWrite(table, page);
        }
        diffs.twin(table, page);
        diffs.restore(table, page, slot);
        table.state(page, PageState.READ_WRITE);
        if (!forWrite)
        {
            counters.increment(Counter.READ_FAULTS);
        }
        counters.add(forWrite ? Counter.WRITE_FAULT_NS : Counter.READ_FAULT_NS, System.nanoTime() - startNs);
    }

    /**
     * Sends a {@link PageState#WRITE_ONLY} page's ranges home and leaves it invalid, at a release or when a notice
     * invalidates it; nothing for any other page.
     *
     * @return whether the page was {@link PageState#WRITE_ONLY}.
     */
    boolean sendHome(final PageTable table, final int page)
    {
        if (PageState.WRITE_ONLY != table.states()[page])
        {
            return false;
        }
        diffs.sendOverwritten(table, page);
        table.state(page, PageState.INVALID);
        return true;
    }
}
