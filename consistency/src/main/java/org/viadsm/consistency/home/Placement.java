package org.viadsm.consistency.home;

import java.util.Locale;
import java.util.function.IntUnaryOperator;

/**
 * How a shared array's pages are given homes: {@link #block()} (the default), {@link #cyclic()},
 * {@link #firstTouch()}, {@link #onNode(int)} or {@link #explicit(IntUnaryOperator)}. Every node must allocate an
 * array with the same placement; the allocation checks it.
 */
public final class Placement
{
    private static final Placement BLOCK = new Placement(Kind.BLOCK, 0, null);
    private static final Placement CYCLIC = new Placement(Kind.CYCLIC, 0, null);
    private static final Placement FIRST_TOUCH = new Placement(Kind.FIRST_TOUCH, 0, null);

    private final Kind kind;
    private final int node;
    private final IntUnaryOperator homes;

    private Placement(final Kind kind, final int node, final IntUnaryOperator homes)
    {
        this.kind = kind;
        this.node = node;
        this.homes = homes;
    }

    /**
     * Contiguous blocks of pages, one block per node in node order.
     *
     * @return the placement.
     */
    public static Placement block()
    {
        return BLOCK;
    }

    /**
     * Pages dealt round-robin over the nodes.
     *
     * @return the placement.
     */
    public static Placement cyclic()
    {
        return CYCLIC;
    }

    /**
     * Each page's home is the first node to touch it.
     *
     * @return the placement.
     */
    public static Placement firstTouch()
    {
        return FIRST_TOUCH;
    }

    /**
     * Every page on one node.
     *
     * @param node the home of every page.
     * @return the placement.
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
     * Homes chosen page by page; the function must give the same answers on every node.
     *
     * @param pageToNode maps a page index to its home node.
     * @return the placement.
     */
    public static Placement explicit(final IntUnaryOperator pageToNode)
    {
        return new Placement(Kind.EXPLICIT, 0, java.util.Objects.requireNonNull(pageToNode, "pageToNode"));
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
     * The home policy for an array of {@code pages} pages on {@code nodeCount} nodes.
     *
     * @param pages     pages of the array.
     * @param nodeCount number of nodes.
     * @return a new policy.
     * @throws IllegalArgumentException if a home is not a node of the cluster.
     */
    public HomePolicy policy(final int pages, final int nodeCount)
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
                final int[] table = new int[pages];
                for (int page = 0; page < pages; page++)
                {
                    final int home = Kind.NODE == kind ? node : homes.applyAsInt(page);
                    if (home < 0 || home >= nodeCount)
                    {
                        throw new IllegalArgumentException(
                            "placement " + this + " puts page " + page + " on node " + home + ", but nodes are 0.." +
                            (nodeCount - 1));
                    }
                    table[page] = home;
                }
                return new ExplicitHomePolicy(table);
        }
    }

    /**
     * A fingerprint of the page-to-home map, equal on every node that would place the pages alike; used to check
     * that all nodes allocated with the same placement.
     *
     * @param pages     pages of the array.
     * @param nodeCount number of nodes.
     * @return the fingerprint.
     */
    public long fingerprint(final int pages, final int nodeCount)
    {
        if (Kind.FIRST_TOUCH == kind)
        {
            return 0x46495253544C4CL;
        }
        long hash = 0xCBF29CE484222325L;
        final HomePolicy policy = policy(pages, nodeCount);
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
            default:
                return kind.name().toLowerCase(Locale.ROOT);
        }
    }

    private enum Kind
    {
        BLOCK, CYCLIC, FIRST_TOUCH, NODE, EXPLICIT
    }
}
