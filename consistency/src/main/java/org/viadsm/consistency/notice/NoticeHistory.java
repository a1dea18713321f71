package org.viadsm.consistency.notice;

/**
 * The write notices of the recent intervals of every node that this node knows, kept on the heap, so that a
 * releaser can forward to the next holder of a lock the notices it lacks (TreadMarks' lock grant carries them)
 * instead of the acquirer reading them from each writer's log.
 * <p>
 * For each node the history holds a contiguous run of intervals, the newest ones this node applied or closed,
 * each with its pages, in rings of {@link #INTERVALS} intervals and {@link #PAGES} pages: an interval whose pages
 * were overwritten or that fell out of the index ring is no longer {@link #covers covered}, and the acquirer reads
 * it from the writer's log as before. Appending an interval that does not follow the newest one starts the node's
 * run afresh.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class NoticeHistory
{
    /** Intervals kept per node, a power of two. */
    public static final int INTERVALS = 256;
    /** Pages kept per node, a power of two. */
    public static final int PAGES = 8192;

    private final long[] oldest;
    private final long[] newest;
    private final long[] tails;
    private final long[][] starts;
    private final int[][] pages;

    /**
     * Creates an empty history.
     *
     * @param nodeCount number of nodes.
     */
    public NoticeHistory(final int nodeCount)
    {
        oldest = new long[nodeCount];
        newest = new long[nodeCount];
        tails = new long[nodeCount];
        starts = new long[nodeCount][INTERVALS];
        pages = new int[nodeCount][PAGES];
    }

    /**
     * Starts the record of an interval of a node; its pages follow through {@link #addPage}.
     *
     * @param node     the writer.
     * @param sequence the interval.
     */
    public void beginInterval(final int node, final long sequence)
    {
        if (sequence != newest[node] + 1 || oldest[node] > newest[node])
        {
            oldest[node] = sequence;
        }
        newest[node] = sequence;
        starts[node][(int)(sequence & (INTERVALS - 1))] = tails[node];
        if (sequence - oldest[node] >= INTERVALS)
        {
            oldest[node] = sequence - INTERVALS + 1;
        }
    }

    /**
     * Adds a page to the interval begun last for the node.
     *
     * @param node       the writer.
     * @param globalPage the page.
     */
    public void addPage(final int node, final int globalPage)
    {
        pages[node][(int)(tails[node]++ & (PAGES - 1))] = globalPage;
    }

    /**
     * Adds pages to the interval begun last for the node, as {@link #addPage} on each in turn would, with bulk
     * copies.
     *
     * @param node        the writer.
     * @param globalPages the pages.
     * @param count       how many of {@code globalPages} to add.
     */
    public void addPages(final int node, final int[] globalPages, final int count)
    {
        final int[] ring = pages[node];
        final long tail = tails[node];
        // only the newest PAGES can stay in the ring
        final int kept = Math.min(count, PAGES);
        final int from = count - kept;
        final int at = (int)((tail + from) & (PAGES - 1));
        final int first = Math.min(kept, PAGES - at);
        System.arraycopy(globalPages, from, ring, at, first);
        System.arraycopy(globalPages, from + first, ring, 0, kept - first);
        tails[node] = tail + count;
    }

    /**
     * Forgets a node's intervals up to {@code sequence}: their notices were not all seen here.
     *
     * @param node     the writer.
     * @param sequence the newest interval not known.
     */
    public void forget(final int node, final long sequence)
    {
        oldest[node] = sequence + 1;
        newest[node] = Math.max(newest[node], sequence);
    }

    /**
     * Whether the history holds every page of the node's intervals {@code (after, upTo]}.
     *
     * @param node  the writer.
     * @param after the newest interval not needed.
     * @param upTo  the newest interval needed.
     * @return true if they can be forwarded.
     */
    public boolean covers(final int node, final long after, final long upTo)
    {
        return after + 1 >= oldest[node] && upTo <= newest[node] && tails[node] - start(node, after + 1) <= PAGES;
    }

    /**
     * Ring position of the first page of a covered interval; the position after the newest one's last page for
     * {@code newest + 1}.
     *
     * @param node     the writer.
     * @param sequence the interval.
     * @return its first page's position.
     */
    public long start(final int node, final long sequence)
    {
        return sequence > newest[node] ? tails[node] : starts[node][(int)(sequence & (INTERVALS - 1))];
    }

    /**
     * The page at a ring position of a node's run.
     *
     * @param node     the writer.
     * @param position a position of a covered interval.
     * @return the page.
     */
    public int page(final int node, final long position)
    {
        return pages[node][(int)(position & (PAGES - 1))];
    }
}
