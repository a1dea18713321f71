package org.viadsm.examples.barnes;

/**
 * A leaf's integer fields: {@link NodeLayout}'s seven, its body count, then up to
 * {@link #MAX_BODIES_PER_LEAF} body {@link NodeRef}s ({@code bodyp}).
 * <pre>
 * leaves.ints (IntArray), INT_STRIDE = 18 ints per leaf
 *  +-------------------------------+------------+----------+-----+----------+
 *  | NodeLayout fields 0..6        | num_bodies | bodyp[0] | ... | bodyp[9] |
 *  +-------------------------------+------------+----------+-----+----------+
 * </pre>
 */
final class LeafLayout
{
    static final int MAX_BODIES_PER_LEAF = 10;
    static final int NUM_BODIES_OFFSET = 7;
    static final int BODYP_OFFSET = 8;
    static final int INT_STRIDE = BODYP_OFFSET + MAX_BODIES_PER_LEAF;

    private LeafLayout()
    {
    }
}
