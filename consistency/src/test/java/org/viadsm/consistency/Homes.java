package org.viadsm.consistency;

import java.util.Arrays;

import org.viadsm.consistency.home.BlockHomePolicy;
import org.viadsm.consistency.home.CyclicHomePolicy;
import org.viadsm.consistency.home.ExplicitHomePolicy;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;

/**
 * How a test array's pages get homes: makes each node's home policy, as the dsm's placements do.
 */
@FunctionalInterface
interface Homes
{
    HomePolicy policy(int pages, int nodeCount);

    static Homes onNode(final int node)
    {
        return (pages, nodeCount) ->
        {
            final int[] homes = new int[pages];
            Arrays.fill(homes, node);
            return new ExplicitHomePolicy(homes);
        };
    }

    static Homes cyclic()
    {
        return (pages, nodeCount) -> new CyclicHomePolicy(nodeCount);
    }

    static Homes block()
    {
        return BlockHomePolicy::new;
    }

    static Homes firstTouch()
    {
        return (pages, nodeCount) -> new FirstTouchHomePolicy(pages);
    }
}
