package org.viadsm.testsupport.protocol;

import java.util.Arrays;

import org.viadsm.consistency.home.BlockHomePolicy;
import org.viadsm.consistency.home.CyclicHomePolicy;
import org.viadsm.consistency.home.ExplicitHomePolicy;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;

/**
 * How the pages of an {@link InMemoryCluster}'s array get homes: makes each node's home policy, as the dsm's
 * placements do.
 */
@FunctionalInterface
public interface Homes
{
    /**
     * Makes one node's home policy for an array.
     *
     * @param pages     the array's pages.
     * @param nodeCount the cluster's nodes.
     * @return a policy of its own for the node (first touch keeps state per node).
     */
    HomePolicy policy(int pages, int nodeCount);

    /**
     * Every page at one node.
     *
     * @param node the home of every page.
     * @return the homes.
     */
    static Homes onNode(final int node)
    {
        return (pages, nodeCount) ->
        {
            final int[] homes = new int[pages];
            Arrays.fill(homes, node);
            return new ExplicitHomePolicy(homes);
        };
    }

    /**
     * Page p at node p mod n.
     *
     * @return the homes.
     */
    static Homes cyclic()
    {
        return (pages, nodeCount) -> new CyclicHomePolicy(nodeCount);
    }

    /**
     * Contiguous blocks of pages, one per node.
     *
     * @return the homes.
     */
    static Homes block()
    {
        return BlockHomePolicy::new;
    }

    /**
     * Each page's home is the first node to touch it.
     *
     * @return the homes.
     */
    static Homes firstTouch()
    {
        return (pages, nodeCount) -> new FirstTouchHomePolicy(pages);
    }
}
