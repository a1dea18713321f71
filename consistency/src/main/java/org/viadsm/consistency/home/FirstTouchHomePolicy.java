package org.viadsm.consistency.home;

/**
 * The first node to touch a page becomes its home. Homes start {@link #UNDECIDED}; the node that faults first
 * claims the page with a compare-and-swap on the page's directory entry (kept by node {@code page mod N}), and
 * every node caches the outcome here.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class FirstTouchHomePolicy implements HomePolicy
{
    private final int[] homes;

    /**
     * Creates the policy with every home undecided.
     *
     * @param pages pages of the array.
     */
    public FirstTouchHomePolicy(final int pages)
    {
        this.homes = new int[pages];
        java.util.Arrays.fill(homes, UNDECIDED);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int home(final int page)
    {
        return homes[page];
    }

    /**
     * Records a page's home once it is known.
     *
     * @param page the page.
     * @param node its home.
     */
    public void decide(final int page, final int node)
    {
        homes[page] = node;
    }

    /**
     * The node keeping the directory entry of a page.
     *
     * @param page      the page.
     * @param nodeCount number of nodes.
     * @return the directory node.
     */
    public static int directoryNode(final int page, final int nodeCount)
    {
        return page % nodeCount;
    }

    /**
     * Offset of a page's directory entry within the directory area of its directory node.
     *
     * @param page      the page.
     * @param nodeCount number of nodes.
     * @return the entry's offset in bytes.
     */
    public static long directoryOffset(final int page, final int nodeCount)
    {
        return (long)(page / nodeCount) * Long.BYTES;
    }

    /**
     * Bytes each node's directory area needs for an array.
     *
     * @param pages     pages of the array.
     * @param nodeCount number of nodes.
     * @return the directory length.
     */
    public static int directoryLength(final int pages, final int nodeCount)
    {
        return ((pages + nodeCount - 1) / nodeCount) * Long.BYTES;
    }
}
