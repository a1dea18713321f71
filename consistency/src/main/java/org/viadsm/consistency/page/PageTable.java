package org.viadsm.consistency.page;

import java.util.Arrays;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.home.HomePolicy;

/**
 * One shared array's pages on this node: their states, homes and twins, and the local memory that holds the
 * node's copy of every page (the master copy for the pages this node is home of).
 * <p>
 * The {@link #states()} array is what shared arrays check on every access; it is changed only by the node's
 * application thread (faults, acquires and releases), so plain reads suffice.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class PageTable
{
    /** Marks a page without a twin. */
    public static final int NO_TWIN = -1;

    private final String name;
    private final int region;
    private final int firstGlobalPage;
    private final int pages;
    private final int pageSize;
    private final int elementSize;
    private final HomePolicy homes;
    private final AtomicBuffer memory;
    private final int directoryOffset;
    private final byte[] states;
    private final int[] twins;
    private final boolean[] dirty;

    /**
     * Creates the table; pages this node is home of start {@link PageState#READ_ONLY}, the others
     * {@link PageState#INVALID}.
     *
     * @param name            the array's name, for messages.
     * @param region          the region id of the array's memory.
     * @param firstGlobalPage global number of page 0.
     * @param pages           number of pages.
     * @param pageSize        bytes per page.
     * @param elementSize     bytes per element (1, 2, 4 or 8): the diff granularity.
     * @param homes           the home policy.
     * @param memory          this node's copy; {@code pages * pageSize} bytes, then the first-touch directory.
     * @param nodeId          this node.
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
        final int nodeId)
    {
        this.name = name;
        this.region = region;
        this.firstGlobalPage = firstGlobalPage;
        this.pages = pages;
        this.pageSize = pageSize;
        this.elementSize = elementSize;
        this.homes = homes;
        this.memory = memory;
        this.directoryOffset = pages * pageSize;
        this.states = new byte[pages];
        this.twins = new int[pages];
        this.dirty = new boolean[pages];
        Arrays.fill(twins, NO_TWIN);
        for (int page = 0; page < pages; page++)
        {
            states[page] = homes.home(page) == nodeId ? PageState.READ_ONLY : PageState.INVALID;
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
        return directoryOffset;
    }

    /**
     * Page states, indexed by page; see {@link PageState}.
     *
     * @return the live state array.
     */
    public byte[] states()
    {
        return states;
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
