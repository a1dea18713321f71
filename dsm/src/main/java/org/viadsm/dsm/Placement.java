package org.viadsm.dsm;

import java.util.Locale;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

import org.viadsm.consistency.home.BlockHomePolicy;
import org.viadsm.consistency.home.CyclicHomePolicy;
import org.viadsm.consistency.home.ExplicitHomePolicy;
import org.viadsm.consistency.home.FirstTouchHomePolicy;
import org.viadsm.consistency.home.HomePolicy;

/**
 * Where a shared array's pages get their homes, the nodes whose copies are the master copies: a page's home writes
 * it without sending diffs and serves every other node's misses. A program puts each page at the node that writes
 * it, as its partitioning says: {@link #onNode(int)} for an array one node owns, {@link #byElement(IntUnaryOperator)}
 * for an array partitioned among the nodes, {@link #block()} (the default), {@link #cyclic()} or
 * {@link #firstTouch()} otherwise. Every node must allocate an array with the same placement; the allocation
 * checks it.
 * <p>
 * Placements are immutable; a function given to {@link #explicit} or {@link #byElement} must give the same answers
 * on every node.
 */
public final class Placement
{
    private static final Placement BLOCK = new Placement(Kind.BLOCK, 0, null);
    private static final Placement CYCLIC = new Placement(Kind.CYCLIC, 0, null);
    private static final Placement FIRST_TOUCH = new Placement(Kind.FIRST_TOUCH, 0, null);

    private final Kind kind;
    private final int node;
    private final IntUnaryOperator map;

    private Placement(final Kind kind, final int node, final IntUnaryOperator map)
    {
        this.kind = kind;
        this.node = node;
        this.map = map;
    }

    /**
     * Contiguous blocks of pages, one block per node in node order: node {@code n} is home of pages
     * {@code [n * b, (n + 1) * b)} with {@code b = ceil(pages / nodes)}.
     *
     * @return the placement.
     */
    public static Placement block()
    {
        return BLOCK;
    }

    /**
     * Pages dealt round-robin over the nodes: page {@code p} lives on node {@code p mod nodes}.
     *
     * @return the placement.
     */
    public static Placement cyclic()
    {
        return CYCLIC;
    }

    /**
     * Each page's home is the first node to touch it (read, write or {@code homeOf}).
     *
     * @return the placement.
     */
    public static Placement firstTouch()
    {
        return FIRST_TOUCH;
    }

    /**
     * Every page at one node, the array's owner.
     *
     * @param node the home of every page.
     * @return the placement.
     * @throws IllegalArgumentException if {@code node} is negative.
     */
    public static Placement onNode(final int node)
    {
        if (node < 0)
        {
            throw new IllegalArgumentException("node must not be negative: " + node);
        }
        return new Placement(Kind.NODE, node, null);
    }

    /**
     * Homes chosen page by page.
     *
     * @param pageToNode maps a page index to its home node.
     * @return the placement.
     */
    public static Placement explicit(final IntUnaryOperator pageToNode)
    {
        return new Placement(Kind.EXPLICIT, 0, Objects.requireNonNull(pageToNode, "pageToNode"));
    }

    /**
     * Homes chosen by the elements' owners, as a program partitions an array among its nodes: each page lives at
     * the owner of the element in its middle (of its last element, for the array's last page), so a page that
     * straddles two partitions goes to the one holding most of it.
     *
     * @param elementToNode maps an element index to the node that owns (writes) it.
     * @return the placement.
     */
    public static Placement byElement(final IntUnaryOperator elementToNode)
    {
        return new Placement(Kind.ELEMENT, 0, Objects.requireNonNull(elementToNode, "elementToNode"));
    }

    /**
     * Parses {@code block}, {@code cyclic}, {@code first-touch} or {@code node:<n>}.
     *
     * @param text the name.
     * @return the placement.
     * @throws IllegalArgumentException naming the accepted forms.
     */
    public static Placement parse(final String text)
    {
        final String name = text.trim().toLowerCase(Locale.ROOT);
        switch (name)
        {
            case "block":
                return block();
            case "cyclic":
                return cyclic();
            case "first-touch":
            case "firsttouch":
                return firstTouch();
            default:
                if (name.startsWith("node:"))
                {
                    try
                    {
                        return onNode(Integer.parseInt(name.substring(5)));
                    }
                    catch (final NumberFormatException ex)
                    {
                        break;
                    }
                }
                break;
        }
        throw new IllegalArgumentException(
            "unknown placement '" + text + "'; expected block, cyclic, first-touch or node:<n>");
    }

    /**
     * The home policy of an array.
     *
     * @param pages           pages of the array.
     * @param elementsPerPage elements in one page.
     * @param length          elements of the array.
     * @param nodeCount       number of nodes.
     * @return a new policy.
     * @throws IllegalArgumentException if a home is not a node of the cluster.
     */
    HomePolicy policy(final int pages, final int elementsPerPage, final int length, final int nodeCount)
    {
        switch (kind)
        {
            case BLOCK:
                return new BlockHomePolicy(pages, nodeCount);
            case CYCLIC:
                return new CyclicHomePolicy(nodeCount);
            case FIRST_TOUCH:
                return new FirstTouchHomePolicy(pages);
            default:
                final int[] homes = new int[pages];
                for (int page = 0; page < pages; page++)
                {
                    final int home = home(page, elementsPerPage, length);
                    if (home < 0 || home >= nodeCount)
                    {
                        throw new IllegalArgumentException("placement " + this + " puts page " + page + " on node " +
                            home + ", but nodes are 0.." + (nodeCount - 1));
                    }
                    homes[page] = home;
                }
                return new ExplicitHomePolicy(homes);
        }
    }

    /**
     * A fingerprint of the page-to-home map, equal on every node that would place the pages alike; used to check
     * that all nodes allocated with the same placement.
     *
     * @param pages           pages of the array.
     * @param elementsPerPage elements in one page.
     * @param length          elements of the array.
     * @param nodeCount       number of nodes.
     * @return the fingerprint.
     */
    long fingerprint(final int pages, final int elementsPerPage, final int length, final int nodeCount)
    {
        if (Kind.FIRST_TOUCH == kind)
        {
            return 0x46495253544C4CL;
        }
        long hash = 0xCBF29CE484222325L;
        final HomePolicy policy = policy(pages, elementsPerPage, length, nodeCount);
        for (int page = 0; page < pages; page++)
        {
            hash = (hash ^ policy.home(page)) * 0x100000001B3L;
        }
        return hash;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String toString()
    {
        switch (kind)
        {
            case NODE:
                return "node:" + node;
            case FIRST_TOUCH:
                return "first-touch";
            case ELEMENT:
                return "by-element";
            default:
                return kind.name().toLowerCase(Locale.ROOT);
        }
    }

    private int home(final int page, final int elementsPerPage, final int length)
    {
        switch (kind)
        {
            case NODE:
                return node;
            case EXPLICIT:
                return map.applyAsInt(page);
            default:
                final long middle = (long)page * elementsPerPage + elementsPerPage / 2;
                return map.applyAsInt((int)Math.min(middle, Math.max(0, length - 1)));
        }
    }

    private enum Kind
    {
        BLOCK, CYCLIC, FIRST_TOUCH, NODE, EXPLICIT, ELEMENT
    }
}
