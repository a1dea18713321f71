package org.viadsm.consistency.home;

/**
 * Deals an array's pages round-robin: page {@code p} lives on node {@code p mod nodes}.
 */
public final class CyclicHomePolicy implements HomePolicy
{
    private final int nodeCount;

    /**
     * Creates the policy.
     *
     * @param nodeCount number of nodes.
     */
    public CyclicHomePolicy(final int nodeCount)
    {
        this.nodeCount = nodeCount;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int home(final int page)
    {
        return page % nodeCount;
    }
}
