package org.viadsm.consistency.page;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.agrona.collections.IntArrayList;

/**
 * Every shared array of a node, numbered into one global page space in allocation order, and the node's dirty
 * list: the global pages written in the current interval. A removed (freed) array's global pages are never given
 * to another array, so a page number always means one array.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class SharedSpace
{
    private final List<PageTable> tables = new ArrayList<>();
    private final List<PageTable> tablesView = Collections.unmodifiableList(tables);
    private final IntArrayList dirty = new IntArrayList();
    private int nextGlobalPage;

    /**
     * Creates an empty space: no arrays, nothing dirty.
     */
    public SharedSpace()
    {
    }

    /**
     * The global number the next array's first page gets.
     *
     * @return the next global page.
     */
    public int nextGlobalPage()
    {
        return nextGlobalPage;
    }

    /**
     * Adds an array's page table; its pages must start at {@link #nextGlobalPage()}.
     *
     * @param table the table.
     * @throws IllegalArgumentException if the table's pages do not follow the previous array's.
     */
    public void add(final PageTable table)
    {
        if (table.firstGlobalPage() != nextGlobalPage)
        {
            throw new IllegalArgumentException("array '" + table.name() + "' starts at global page " +
                table.firstGlobalPage() + ", expected " + nextGlobalPage);
        }
        tables.add(table);
        nextGlobalPage += table.pages();
    }

    /**
     * Removes an array's page table, which must have nothing on the dirty list (the caller releases first).
     *
     * @param table the table.
     * @throws IllegalArgumentException if the table is not in this space.
     * @throws IllegalStateException    if one of its pages is dirty.
     */
    public void remove(final PageTable table)
    {
        if (!tables.contains(table))
        {
            throw new IllegalArgumentException("array '" + table.name() + "' is not in this space");
        }
        for (int page = 0; page < table.pages(); page++)
        {
            if (table.isDirty(page))
            {
                throw new IllegalStateException("array '" + table.name() + "' has dirty page " + page);
            }
        }
        tables.remove(table);
    }

    /**
     * The arrays, in allocation order.
     *
     * @return an unmodifiable view.
     */
    public List<PageTable> tables()
    {
        return tablesView;
    }

    /**
     * The number of arrays, for a loop over {@link #table(int)} that makes no iterator (the release and acquire
     * paths allocate nothing).
     *
     * @return the number of arrays.
     */
    public int tableCount()
    {
        return tables.size();
    }

    /**
     * An array by its position in allocation order.
     *
     * @param index from 0 to {@link #tableCount()} - 1.
     * @return its page table.
     */
    public PageTable table(final int index)
    {
        return tables.get(index);
    }

    /**
     * The array a global page belongs to.
     *
     * @param globalPage the page.
     * @return its table.
     * @throws IllegalArgumentException if no array has that page.
     */
    public PageTable tableOf(final int globalPage)
    {
        int low = 0;
        int high = tables.size() - 1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            final PageTable table = tables.get(mid);
            if (globalPage < table.firstGlobalPage())
            {
                high = mid - 1;
            }
            else if (globalPage >= table.firstGlobalPage() + table.pages())
            {
                low = mid + 1;
            }
            else
            {
                return table;
            }
        }
        throw new IllegalArgumentException("no shared array has global page " + globalPage);
    }

    /**
     * Puts a page on the dirty list, once per interval.
     *
     * @param table the page's array.
     * @param page  the page within it.
     */
    public void markDirty(final PageTable table, final int page)
    {
        if (!table.isDirty(page))
        {
            table.dirty(page, true);
            dirty.addInt(table.firstGlobalPage() + page);
        }
    }

    /**
     * The dirty list.
     *
     * @return the live list of global pages.
     */
    public IntArrayList dirty()
    {
        return dirty;
    }
}
