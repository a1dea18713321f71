package org.viadsm.examples.barnes;

/**
 * The fields cells and leaves share, at the same offsets in both, as the C's {@code struct _cell} and
 * {@code struct _leaf} share their leading fields. Each kind lives in two shared arrays: one of reals
 * ({@link #REAL_STRIDE} doubles per node) and one of ints ({@link CellLayout#INT_STRIDE} or
 * {@link LeafLayout#INT_STRIDE} per node).
 * <pre>
 * reals (DoubleArray), REAL_STRIDE = 4 doubles per node
 *  +------+-------+-------+-------+
 *  | mass | pos.x | pos.y | pos.z |
 *  +------+-------+-------+-------+
 * ints (IntArray), first 7 ints of every node
 *  +------+-------+---------------------+-----------+-----------+--------+------+-----
 *  | cost | level | parent (cell ref)   | child_num | processor | seqnum | done | kind-specific ...
 *  +------+-------+---------------------+-----------+-----------+--------+------+-----
 * </pre>
 * Each array is split into one region per processor, as the C allocates one {@code ctab} and one {@code ltab} per
 * processor: processor {@code i} takes its nodes from {@code [i * maxmy, (i + 1) * maxmy)}, so a node's index is its
 * C {@code seqnum}. The C's {@code next}, {@code prev} (never read) and {@code done_cv} (a pthread condition
 * variable, see {@link TreeBuilder}) are not stored.
 */
final class NodeLayout
{
    static final int MASS_OFFSET = 0;
    static final int POS_OFFSET = 1;
    static final int REAL_STRIDE = 4;

    static final int COST_OFFSET = 0;
    static final int LEVEL_OFFSET = 1;
    static final int PARENT_OFFSET = 2;
    static final int CHILD_NUM_OFFSET = 3;
    static final int PROCESSOR_OFFSET = 4;
    static final int SEQNUM_OFFSET = 5;
    static final int DONE_OFFSET = 6;

    /** Highest bit of an integer coordinate: the C's {@code IMAX}, {@code 1L << (64 - 2)}. */
    static final long IMAX = 1L << 62;

    private NodeLayout()
    {
    }

    /**
     * The C's levels are powers of two up to {@code IMAX >> 1} (or 0); an int field holds their bit length.
     */
    static int encodeLevel(final long level)
    {
        return Long.SIZE - Long.numberOfLeadingZeros(level);
    }

    static long decodeLevel(final int bitLength)
    {
        return 0 == bitLength ? 0L : 1L << (bitLength - 1);
    }
}
