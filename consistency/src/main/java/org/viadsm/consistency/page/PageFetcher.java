package org.viadsm.consistency.page;

import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Fetches pages from their homes in runs: contiguous invalid pages with the same home come in one RDMA Read,
 * after one copyset registration. A fault reads ahead only as far as its array's accesses have used what was read
 * ahead: the pages read ahead are {@link PageState#PREFETCHED}, so their first access says that they were used;
 * a fault right after a run whose pages were all used doubles the array's window (up to the configured pages),
 * any other fault halves it, down to the faulting page alone.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class PageFetcher
{
    private final ProtocolPort port;
    private final Counters counters;
    private final Copysets copysets;
    private final int maxPages;

    PageFetcher(final ProtocolPort port, final Counters counters, final Copysets copysets, final int maxPages)
    {
        this.port = port;
        this.counters = counters;
        this.copysets = copysets;
        this.maxPages = maxPages;
    }

    /**
     * A fault on an invalid page another node is home of: fetches it, and after it as many of the following
     * invalid pages with the same home as the array's window allows.
     *
     * @param table the page's array.
     * @param page  the page.
     * @param home  its home.
     */
    void fault(final PageTable table, final int page, final int home)
    {
        final int window = adapt(table, page);
        final byte[] states = table.states();
        int count = 1;
        while (count < window && page + count < table.pages() && PageState.INVALID == states[page + count] &&
            table.homes().home(page + count) == home)
        {
            count++;
        }
        transfer(table, home, page, count);
        // the faulting page is read now; the pages after it wait for their first access
        table.state(page, PageState.READ_ONLY);
        for (int ahead = page + 1; ahead < page + count; ahead++)
        {
            table.state(ahead, PageState.PREFETCHED);
        }
        table.readAhead(page, page + count);
    }

    /**
     * Fetches pages {@code [first, first + count)}, all invalid and homed at {@code home}, in one read.
     *
     * @param table the pages' array.
     * @param home  their home.
     * @param first the first page.
     * @param count how many, all made {@link PageState#READ_ONLY}.
     */
    void fetch(final PageTable table, final int home, final int first, final int count)
    {
        transfer(table, home, first, count);
        for (int page = first; page < first + count; page++)
        {
            table.state(page, PageState.READ_ONLY);
        }
    }

    /**
     * The first access to a page read ahead: it was worth reading.
     *
     * @param table the page's array.
     * @param page  the page, {@link PageState#PREFETCHED}.
     */
    void used(final PageTable table, final int page)
    {
        table.state(page, PageState.READ_ONLY);
        counters.increment(Counter.PREFETCHED_USED);
    }

    /**
     * Joins the pages' copysets where this node has not, and reads them: one wait for both.
     */
    private void transfer(final PageTable table, final int home, final int first, final int count)
    {
        final int pageSize = table.pageSize();
        final long offset = (long)first * pageSize;
        copysets.register(table, home, first, count);
        port.read(home, table.region(), offset, table.region(), offset, count * pageSize);
        counters.add(Counter.PAGES_FETCHED, count);
    }

    private int adapt(final PageTable table, final int page)
    {
        int window = table.readAheadWindow();
        if (page == table.readAheadEnd() && !hasUnused(table))
        {
            window = Math.min(maxPages, window << 1);
        }
        else
        {
            window = Math.max(1, window >> 1);
        }
        table.readAheadWindow(window);
        return window;
    }

    private static boolean hasUnused(final PageTable table)
    {
        final byte[] states = table.states();
        for (int page = table.readAheadStart(); page < table.readAheadEnd(); page++)
        {
            if (PageState.PREFETCHED == states[page])
            {
                return true;
            }
        }
        return false;
    }

    /**
     * A page of another node is fetched, by a fault or a view: if this node had dropped its copy as written unread
     * and needs it again with no notice in between, the drop cost this fetch, and the copy is always kept from now
     * on.
     */
    static void neededAgain(final PageTable table, final int page)
    {
        if (PageTable.COPY_DROPPED == table.copyUse(page))
        {
            table.copyUse(page, PageTable.COPY_ALWAYS_KEPT);
        }
    }

    /**
     * A write fault fetched a copy of another node's page: it is written before it is read (unless the fetch found
     * it {@link #neededAgain}).
     */
    static void fetchedForWrite(final PageTable table, final int page)
    {
        if (PageTable.COPY_KEPT_OR_READ == table.copyUse(page))
        {
            table.copyUse(page, PageTable.COPY_WRITTEN_UNREAD);
        }
    }

    /**
     * Release: a copy of another node's page that was fetched for a write, and not accessed before it, is dropped
     * once its diff is sent, and the page's copyset left (with the others at the end of the release): a node that
     * writes a page without reading it (a master initialising others' partitions, a producer) would otherwise stay
     * in the copyset, and the home would take a write fault, and send a notice, at every interval it writes the
     * page until two notices made this node leave. Reading the page again fetches it, as after a notice; a page
     * this node needs again before a notice names it is kept from then on (BARNES writes cells unread, interval
     * after interval).
     */
    void dropWrittenUnread(final PageTable table, final int page)
    {
        table.copyUse(page, PageTable.COPY_DROPPED);
        table.state(page, PageState.INVALID);
        copysets.dropped(table, page);
    }
}
