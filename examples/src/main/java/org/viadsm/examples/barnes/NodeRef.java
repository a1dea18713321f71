package org.viadsm.examples.barnes;

/**
 * The C program's {@code nodeptr} as an int: the node's index in its own array shifted left by two, with the node
 * type in the low two bits. The type codes are the C's ({@code BODY} 1, {@code CELL} 2, {@code LEAF} 3), so
 * {@code Type(x)} needs no memory read, and 0 is {@code NULL}.
 * <pre>
 *   31                                 2 1   0
 *  +------------------------------------+-----+
 *  |  index in bodies, cells or leaves   | type|
 *  +------------------------------------+-----+
 * </pre>
 */
final class NodeRef
{
    static final int NULL = 0;
    static final int BODY = 1;
    static final int CELL = 2;
    static final int LEAF = 3;

    private static final int TYPE_BITS = 2;
    private static final int TYPE_MASK = (1 << TYPE_BITS) - 1;

    private NodeRef()
    {
    }

    static int of(final int type, final int index)
    {
        return (index << TYPE_BITS) | type;
    }

    static int type(final int ref)
    {
        return ref & TYPE_MASK;
    }

    static int index(final int ref)
    {
        return ref >>> TYPE_BITS;
    }
}
