package org.viadsm.consistency.page;

import java.util.Arrays;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.home.HomePolicy;

/**
 * One shared array's pages on this node: their states, homes and twins, and the local memory that holds the
 * node's copy of every page (the master copy for the pages this node is home of).
 * <p>
 * The {@link #states()} array is what shared arrays check on every access; it is changed only by the node's
 * application thread (faults, acquires and releases), so plain reads suffice, and only through
 * {@link #state(int, byte)} and {@link #invalidateAll()}, which count the pages that are not
 * {@link PageState#READ_WRITE}: {@link #allWritable()} answers for the whole array in one compare, at no cost to a
 * synchronization (no rescan), so element access can skip its per-page check while every page is writable.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class PageTable
{
    /** Marks a page without a twin. */
    public static final int NO_TWIN = -1;
    /** A copy kept at releases as usual; none was dropped, or a notice since made its drop free. */
    static final byte COPY_KEPT_OR_READ = 0;
    /** A copy fetched by a write fault in the current interval: written before it was read. */
    static final byte COPY_WRITTEN_UNREAD = 1;
    /** A copy dropped at a release, as written unread, and not needed since. */
    static final byte COPY_DROPPED = 2;
    /** A copy whose drop cost a fetch (this node needed it again before any notice): never dropped again. */
    static final byte COPY_ALWAYS_KEPT = 3;

    private final String name;
    private final int region;
    private final int firstGlobalPage;
    private final int pages;
    private final int pageSize;
    private final int elementSize;
    private final HomePolicy homes;
    private final AtomicBuffer memory;
    private final ArrayRegionLayout layout;
    private final byte[] states;
    private final int[] twins;
    private final boolean[] dirty;
    private final byte[] copyUse;
    private final long[] exclusive;
    private final CopysetMembership membership;
    private int exclusiveCount;
    private int unwritable;
    private long registrationsSeen;
    private int readAheadWindow = 1;
    private int readAheadStart;
    private int readAheadEnd = -1;

    /**
     * Creates the table; pages this node is home of start exclusive (nobody else caches them yet) and clean
     * ({@link PageState#READ_ONLY}: never written; {@link PageState#READ_WRITE} on a node alone), the others
     * {@link PageState#INVALID}.
     *
     * @param name            the array's name, for messages.
     * @param region          the region id of the array's memory.
     * @param firstGlobalPage global number of page 0.
     * @param pages           number of pages.
     * @param pageSize        bytes per page.
     * @param elementSize     bytes per element (1, 2, 4 or 8): the diff granularity.
     * @param homes           the home policy.
     * @param memory          this node's copy of the region, laid out as {@link ArrayRegionLayout} says.
     * @param nodeId          this node.
     * @param nodeCount       number of nodes.
     * @throws IllegalArgumentException if {@code memory} is shorter than the layout.
     */
    public PageTable(
        final String name,
        final int region,
        final int firstGlobalPage,
        final int pages,
        final int pageSize,
        final int elementSize,
        final HomePolicy homes,
        final AtomicBuffer memory,
        final int nodeId,
        final int nodeCount)
    {
        this.name = name;
        this.region = region;
        this.firstGlobalPage = firstGlobalPage;
        this.pages = pages;
        this.pageSize = pageSize;
        this.elementSize = elementSize;
        this.homes = homes;
        this.memory = memory;
        this.layout = new ArrayRegionLayout(pages, pageSize, nodeCount);
        if (memory.capacity() < layout.length())
        {
            throw new IllegalArgumentException("array '" + name + "' needs a region of " + layout.length() +
                " bytes, has " + memory.capacity());
        }
        this.states = new byte[pages];
        this.unwritable = pages;
        this.twins = new int[pages];
        this.dirty = new boolean[pages];
        this.copyUse = new byte[pages];
        this.exclusive = new long[layout.words()];
        this.membership = new CopysetMembership(layout.words());
        Arrays.fill(twins, NO_TWIN);
        // A node alone starts its pages writable: nobody will ever cache them, so no first write needs to say that
        // they were written, and element access never takes its fault branch (which would stay in the JIT's profile).
        final byte homeState = 1 == nodeCount ? PageState.READ_WRITE : PageState.READ_ONLY;
        for (int page = 0; page < pages; page++)
        {
            if (homes.home(page) == nodeId)
            {
                makeExclusive(page, homeState);
            }
        }
    }

    /**
     * The array's name.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * Region id of the array's memory.
     *
     * @return the region.
     */
    public int region()
    {
        return region;
    }

    /**
     * Global number of page 0.
     *
     * @return the first global page.
     */
    public int firstGlobalPage()
    {
        return firstGlobalPage;
    }

    /**
     * Number of pages.
     *
     * @return the page count.
     */
    public int pages()
    {
        return pages;
    }

    /**
     * Bytes per page.
     *
     * @return the page size.
     */
    public int pageSize()
    {
        return pageSize;
    }

    /**
     * Bytes per element: the granularity of diffs.
     *
     * @return 1, 2, 4 or 8.
     */
    public int elementSize()
    {
        return elementSize;
    }

    /**
     * The home policy.
     *
     * @return the policy.
     */
    public HomePolicy homes()
    {
        return homes;
    }

    /**
     * This node's copy of the array.
     *
     * @return the memory.
     */
    public AtomicBuffer memory()
    {
        return memory;
    }

    /**
     * Offset of the first-touch directory in every node's region.
     *
     * @return the offset, right after the pages.
     */
    public int directoryOffset()
    {
        return layout.directoryOffset();
    }

    /**
     * The layout of the array's region.
     *
     * @return the layout.
     */
    public ArrayRegionLayout layout()
    {
        return layout;
    }

    /**
     * Whether a page this node is home of is exclusive: no other node caches it, so it is writable here across
     * intervals and its writes need no notices.
     *
     * @param page the page.
     * @return true if exclusive.
     */
    public boolean isExclusive(final int page)
    {
        return 0 != (exclusive[page >>> 6] & (1L << page));
    }

    /**
     * Makes a home page exclusive, off the dirty list: {@link PageState#READ_WRITE} once written, writable across
     * intervals; {@link PageState#READ_ONLY} while clean, so that its first write (a fault that only changes the
     * state) says that it was written.
     *
     * @param page  the page.
     * @param state {@link PageState#READ_WRITE} if the page may have been written, else
     *              {@link PageState#READ_ONLY}.
     */
    void makeExclusive(final int page, final byte state)
    {
        if (!isExclusive(page))
        {
            exclusive[page >>> 6] |= 1L << page;
            exclusiveCount++;
        }
        state(page, state);
    }

    /**
     * Ends the exclusivity of some pages of one copyset word: another node may now cache them. Their states are
     * the caller's to change.
     *
     * @param word the word.
     * @param bits the pages, as bits of the word; all exclusive.
     */
    void endExclusive(final int word, final long bits)
    {
        exclusive[word] &= ~bits;
        exclusiveCount -= Long.bitCount(bits);
    }

    /**
     * The exclusive pages of a copyset word.
     *
     * @param word the word.
     * @return the pages, as bits.
     */
    long exclusive(final int word)
    {
        return exclusive[word];
    }

    /**
     * Number of exclusive pages.
     *
     * @return the count.
     */
    public int exclusiveCount()
    {
        return exclusiveCount;
    }

    /**
     * Which of the array's copysets this node is leaving.
     *
     * @return the membership.
     */
    CopysetMembership membership()
    {
        return membership;
    }

    /**
     * Pages the next fault reads at most, as the array's accesses have used what was read ahead.
     *
     * @return the window, at least 1.
     */
    int readAheadWindow()
    {
        return readAheadWindow;
    }

    /**
     * Sets the read-ahead window.
     *
     * @param pages at least 1.
     */
    void readAheadWindow(final int pages)
    {
        readAheadWindow = pages;
    }

    /**
     * First page of the last fault's run.
     *
     * @return the page.
     */
    int readAheadStart()
    {
        return readAheadStart;
    }

    /**
     * End (exclusive) of the last fault's run: a fault there continues a sequential walk.
     *
     * @return the page after the run, or -1 before the first run.
     */
    int readAheadEnd()
    {
        return readAheadEnd;
    }

    /**
     * Records the last fault's run.
     *
     * @param start its first page.
     * @param end   the page after it.
     */
    void readAhead(final int start, final int end)
    {
        readAheadStart = start;
        readAheadEnd = end;
    }

    /**
     * The registration count of the array's copysets as this node, their home, last read it.
     *
     * @return the count.
     */
    long registrationsSeen()
    {
        return registrationsSeen;
    }

    /**
     * Records the registration count last read.
     *
     * @param count the count.
     */
    void registrationsSeen(final long count)
    {
        registrationsSeen = count;
    }

    /**
     * Page states, indexed by page; see {@link PageState}. Read-only for the callers: a state changes through
     * {@link #state(int, byte)}.
     *
     * @return the live state array.
     */
    public byte[] states()
    {
        return states;
    }

    /**
     * Changes a page's state.
     *
     * @param page  the page.
     * @param state its new state; see {@link PageState}.
     */
    public void state(final int page, final byte state)
    {
        final byte was = states[page];
        states[page] = state;
        if ((PageState.READ_WRITE == was) != (PageState.READ_WRITE == state))
        {
            unwritable += PageState.READ_WRITE == was ? 1 : -1;
        }
    }

    /**
     * Makes every page {@link PageState#INVALID}, as when the array is freed or the node leaves.
     */
    public void invalidateAll()
    {
        Arrays.fill(states, PageState.INVALID);
        unwritable = pages;
    }

    /**
     * Whether every page is {@link PageState#READ_WRITE}, so that no access to the array needs a fault. One compare
     * of a field that only a change of state writes, which the JIT hoists out of an access loop.
     *
     * @return true if no page is invalid, prefetched or read-only.
     */
    public boolean allWritable()
    {
        return 0 == unwritable;
    }

    /**
     * Twin slot of a page.
     *
     * @param page the page.
     * @return the slot, or {@link #NO_TWIN}.
     */
    public int twin(final int page)
    {
        return twins[page];
    }

    /**
     * Sets the twin slot of a page.
     *
     * @param page the page.
     * @param slot the slot, or {@link #NO_TWIN}.
     */
    public void twin(final int page, final int slot)
    {
        twins[page] = slot;
    }

    /**
     * Whether a page is on the node's dirty list: written in the current interval, so it is in its write notices.
     *
     * @param page the page.
     * @return true if dirty.
     */
    public boolean isDirty(final int page)
    {
        return dirty[page];
    }

    /**
     * Marks a page dirty or clean.
     *
     * @param page  the page.
     * @param value whether it is on the dirty list.
     */
    public void dirty(final int page, final boolean value)
    {
        dirty[page] = value;
    }

    /**
     * What this node knows of how it uses its copy of a page another node is home of, for dropping copies it only
     * writes; see {@link PageCoherence}: {@link #COPY_KEPT_OR_READ} (the default), {@link #COPY_WRITTEN_UNREAD},
     * {@link #COPY_DROPPED} or {@link #COPY_ALWAYS_KEPT}.
     *
     * @param page the page.
     * @return the use.
     */
    byte copyUse(final int page)
    {
        return copyUse[page];
    }

    /**
     * Records how this node uses its copy of a page.
     *
     * @param page the page.
     * @param use  the use.
     */
    void copyUse(final int page, final byte use)
    {
        copyUse[page] = use;
    }

    /**
     * Whether a global page number belongs to this array.
     *
     * @param globalPage the global page.
     * @return true if it does.
     */
    public boolean contains(final int globalPage)
    {
        return globalPage >= firstGlobalPage && globalPage < firstGlobalPage + pages;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        return "PageTable{name=" + name + ", region=" + region + ", pages=" + pages + ", firstGlobalPage=" +
            firstGlobalPage + '}';
    }
}
