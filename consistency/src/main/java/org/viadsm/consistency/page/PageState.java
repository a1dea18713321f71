package org.viadsm.consistency.page;

/**
 * States of a page in a node's page table, ordered so that one comparison tells whether an access may proceed:
 * a read needs {@code state >= READ_ONLY}, a write needs {@code state == READ_WRITE}.
 */
public final class PageState
{
    /**
     * Being overwritten: another node's page, not fetched and not twinned, that this node writes through an
     * overwrite view in the current interval. Only the page's overwritten range holds values (this node's); the
     * release sends that range home whole and the page becomes {@link #INVALID}. Any other access first fetches the
     * page and twins it, keeping the range's values ({@link PageCoherence}).
     */
    public static final byte WRITE_ONLY = -1;
    /** The local copy is stale or absent: the next access fetches the page from its home. */
    public static final byte INVALID = 0;
    /**
     * The local copy is current, fetched ahead of use with a page before it: the first access only records that
     * the prefetch was used (a fault with no remote operation), then the page is {@link #READ_ONLY}.
     */
    public static final byte PREFETCHED = 1;
    /**
     * The local copy is current as of the last acquire; the next write makes a twin (if not home), or marks an
     * exclusive home page written.
     */
    public static final byte READ_ONLY = 2;
    /**
     * Writable: written in the current interval (twinned if not home, and dirty), or an exclusive page at its home,
     * written freely across intervals.
     */
    public static final byte READ_WRITE = 3;

    private PageState()
    {
    }

    /**
     * A state's name.
     *
     * @param state the state.
     * @return its name.
     */
    public static String name(final byte state)
    {
        switch (state)
        {
            case WRITE_ONLY:
                return "WRITE_ONLY";
            case INVALID:
                return "INVALID";
            case PREFETCHED:
                return "PREFETCHED";
            case READ_ONLY:
                return "READ_ONLY";
            case READ_WRITE:
                return "READ_WRITE";
            default:
                return "UNKNOWN(" + state + ")";
        }
    }
}
