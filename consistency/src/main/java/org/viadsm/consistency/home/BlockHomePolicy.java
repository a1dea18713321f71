package org.viadsm.consistency.home;

/**
 * Splits an array's pages into contiguous blocks, one per node in order: node {@code n} is home of pages
 * {@code [n * b, (n + 1) * b)} with {@code b = ceil(pages / nodes)}, so the last nodes may own fewer (or no)
 * pages. Matches programs that partition data into contiguous per-node ranges.
 */
public final class BlockHomePolicy implements HomePolicy
{
    private final int pagesPerNode;
    private final int nodeCount;

    /**
     * Creates the policy.
     *
     * @param pages     pages of the array.
     * @param nodeCount number of nodes.
     */
    public BlockHomePolicy(final int pages, final int nodeCount)
    {
        this.pagesPerNode = Math.max(1, (pages + nodeCount - 1) / nodeCount);
        this.nodeCount = nodeCount;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int home(final int page)
    {
        return Math.min(page / pagesPerNode, nodeCount - 1);
    }
}
