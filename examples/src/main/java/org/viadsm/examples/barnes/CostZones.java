package org.viadsm.examples.barnes;

import org.viadsm.dsm.array.IntArray;

/**
 * Cost-zone partitioning ({@code find_my_bodies} in {@code code.c}): the tree's leaves, visited in the order of a
 * Peano-Hilbert-like curve, are cut into {@code NPROC} zones of equal cost (the previous step's interaction
 * counts); a processor takes the bodies whose cumulative cost falls in [workMin, workMax).
 * <p>
 * <b>Note:</b> used by one member's thread.
 */
final class CostZones
{
    /**
     * For each of the 32 curve orientations, the order in which to visit a cell's eight children (the C's
     * {@code Child_Sequence}; the comments give the C's names for the orientations).
     */
    private static final int[][] CHILD_SEQUENCE = {
        {2, 5, 6, 1, 0, 3, 4, 7}, //  0 BRC_FUC
        {2, 5, 6, 1, 0, 7, 4, 3}, //  1 BRC_FRA
        {1, 6, 5, 2, 3, 0, 7, 4}, //  2 BRA_FDA
        {1, 6, 5, 2, 3, 4, 7, 0}, //  3 BRA_FRC
        {6, 1, 2, 5, 4, 7, 0, 3}, //  4 BLC_FDC
        {6, 1, 2, 5, 4, 3, 0, 7}, //  5 BLC_FLA
        {5, 2, 1, 6, 7, 4, 3, 0}, //  6 BLA_FUA
        {5, 2, 1, 6, 7, 0, 3, 4}, //  7 BLA_FLC
        {1, 2, 5, 6, 7, 4, 3, 0}, //  8 BUC_FUA
        {1, 2, 5, 6, 7, 0, 3, 4}, //  9 BUC_FLC
        {6, 5, 2, 1, 0, 3, 4, 7}, // 10 BUA_FUC
        {6, 5, 2, 1, 0, 7, 4, 3}, // 11 BUA_FRA
        {5, 6, 1, 2, 3, 0, 7, 4}, // 12 BDC_FDA
        {5, 6, 1, 2, 3, 4, 7, 0}, // 13 BDC_FRC
        {2, 1, 6, 5, 4, 7, 0, 3}, // 14 BDA_FDC
        {2, 1, 6, 5, 4, 3, 0, 7}, // 15 BDA_FLA
        {3, 4, 7, 0, 1, 2, 5, 6}, // 16 FRC_BUC
        {3, 4, 7, 0, 1, 6, 5, 2}, // 17 FRC_BRA
        {0, 7, 4, 3, 2, 1, 6, 5}, // 18 FRA_BDA
        {0, 7, 4, 3, 2, 5, 6, 1}, // 19 FRA_BRC
        {7, 0, 3, 4, 5, 6, 1, 2}, // 20 FLC_BDC
        {7, 0, 3, 4, 5, 2, 1, 6}, // 21 FLC_BLA
        {4, 3, 0, 7, 6, 5, 2, 1}, // 22 FLA_BUA
        {4, 3, 0, 7, 6, 1, 2, 5}, // 23 FLA_BLC
        {0, 3, 4, 7, 6, 5, 2, 1}, // 24 FUC_BUA
        {0, 3, 4, 7, 6, 1, 2, 5}, // 25 FUC_BLC
        {7, 4, 3, 0, 1, 2, 5, 6}, // 26 FUA_BUC
        {7, 4, 3, 0, 1, 6, 5, 2}, // 27 FUA_BRA
        {4, 7, 0, 3, 2, 1, 6, 5}, // 28 FDC_BDA
        {4, 7, 0, 3, 2, 5, 6, 1}, // 29 FDC_BRC
        {3, 0, 7, 4, 5, 6, 1, 2}, // 30 FDA_BDC
        {3, 0, 7, 4, 5, 2, 1, 6}, // 31 FDA_BLA
    };

    /**
     * The orientation of each visited child (the C's {@code Direction_Sequence}), by the same indices.
     */
    private static final int[][] DIRECTION_SEQUENCE = {
        {16,  3, 30,  6,  9, 26,  3, 31}, //  0 BRC_FUC
        {16,  3, 30,  6,  2, 17,  8, 20}, //  1 BRC_FRA
        {18,  1, 24,  4, 15, 28,  1, 25}, //  2 BRA_FDA
        {18,  1, 24,  4,  9, 26,  3, 31}, //  3 BRA_FRC
        {20,  7, 26,  2, 13, 30,  7, 27}, //  4 BLC_FDC
        {20,  7, 26,  2,  6, 21, 12, 16}, //  5 BLC_FLA
        {22,  5, 28,  0, 11, 24,  5, 29}, //  6 BLA_FUA
        {22,  5, 28,  0,  4, 23, 10, 18}, //  7 BLA_FLC
        {25, 10, 19, 15, 11, 24,  5, 29}, //  8 BUC_FUA
        {25, 10, 19, 15,  4, 23, 10, 18}, //  9 BUC_FLC
        {27,  8, 21, 13,  9, 26,  3, 31}, // 10 BUA_FUC
        {27,  8, 21, 13,  2, 17,  8, 20}, // 11 BUA_FRA
        {29, 14, 23, 11, 15, 28,  1, 25}, // 12 BDC_FDA
        {29, 14, 23, 11,  9, 26,  3, 31}, // 13 BDC_FRC
        {31, 12, 17,  9, 13, 30,  7, 27}, // 14 BDA_FDC
        {31, 12, 17,  9,  6, 21, 12, 16}, // 15 BDA_FLA
        { 9, 26,  3, 31, 25, 10, 19, 15}, // 16 FRC_BUC
        { 9, 26,  3, 31, 18,  1, 24,  4}, // 17 FRC_BRA
        { 2, 17,  8, 20, 31, 12, 17,  9}, // 18 FRA_BDA
        { 2, 17,  8, 20, 16,  3, 30,  6}, // 19 FRA_BRC
        { 4, 23, 10, 18, 29, 14, 23, 11}, // 20 FLC_BDC
        { 4, 23, 10, 18, 22,  5, 28,  0}, // 21 FLC_BLA
        { 6, 21, 12, 16, 27,  8, 21, 13}, // 22 FLA_BUA
        { 6, 21, 12, 16, 20,  7, 26,  2}, // 23 FLA_BLC
        { 9, 26,  3, 31, 27,  8, 21, 13}, // 24 FUC_BUA
        { 9, 26,  3, 31, 20,  7, 26,  2}, // 25 FUC_BLC
        {11, 24,  5, 29, 25, 10, 19, 15}, // 26 FUA_BUC
        {11, 24,  5, 29, 18,  1, 24,  4}, // 27 FUA_BRA
        {13, 30,  7, 27, 31, 12, 17,  9}, // 28 FDC_BDA
        {13, 30,  7, 27, 16,  3, 30,  6}, // 29 FDC_BRC
        {15, 28,  1, 25, 29, 14, 23, 11}, // 30 FDA_BDC
        {15, 28,  1, 25, 22,  5, 28,  0}, // 31 FDA_BLA
    };

    /** The orientation the walk starts with at the root: {@code BRC_FUC}. */
    static final int START_DIRECTION = 0;

    private final int id;
    private final int maxmybody;
    private final int bodyTabBase;
    private final IntArray mybodytab;
    private final IntArray cellInts;
    private final IntArray leafInts;
    private final IntArray bodyInts;

    private long workMin;
    private long workMax;
    private int mynbody;

    CostZones(final int id, final BarnesShared shared)
    {
        this.id = id;
        this.maxmybody = shared.maxmybody;
        this.bodyTabBase = id * shared.maxmybody;
        this.mybodytab = shared.mybodytab;
        this.cellInts = shared.cellInts;
        this.leafInts = shared.leafInts;
        this.bodyInts = shared.bodyInts;
    }

    /**
     * Fills this processor's {@code mybodytab} with the bodies of its zone.
     *
     * @return the number of bodies, the C's {@code mynbody}.
     */
    int partition(final int root, final long min, final long max)
    {
        workMin = min;
        workMax = max;
        mynbody = 0;
        findMyBodies(root, 0, START_DIRECTION);
        return mynbody;
    }

    private void findMyBodies(final int node, final long startWork, final int direction)
    {
        long work = startWork;
        if (NodeRef.LEAF == NodeRef.type(node))
        {
            final int base = NodeRef.index(node) * LeafLayout.INT_STRIDE;
            final int numBodies = leafInts.get(base + LeafLayout.NUM_BODIES_OFFSET);
            for (int i = 0; i < numBodies; i++)
            {
                final int p = leafInts.get(base + LeafLayout.BODYP_OFFSET + i);
                if (work >= workMin - .1)
                {
                    if ((mynbody + 2) > maxmybody)
                    {
                        throw new IllegalStateException("find_my_bodies: Processor " + id + " needs more than " +
                            maxmybody + " bodies; increase fleaves");
                    }
                    mybodytab.set(bodyTabBase + mynbody++, p);
                }
                work += bodyInts.get(NodeRef.index(p) * BodyLayout.INT_STRIDE + BodyLayout.COST_OFFSET);
                if (work >= workMax - .1)
                {
                    break;
                }
            }
        }
        else
        {
            final int base = NodeRef.index(node) * CellLayout.INT_STRIDE + CellLayout.SUBP_OFFSET;
            final int[] children = CHILD_SEQUENCE[direction];
            final int[] directions = DIRECTION_SEQUENCE[direction];
            for (int i = 0; (i < CellLayout.NSUB) && (work < (workMax - .1)); i++)
            {
                final int q = cellInts.get(base + children[i]);
                if (NodeRef.NULL != q)
                {
                    final long cost = NodeRef.LEAF == NodeRef.type(q) ?
                        leafInts.get(NodeRef.index(q) * LeafLayout.INT_STRIDE + NodeLayout.COST_OFFSET) :
                        cellInts.get(NodeRef.index(q) * CellLayout.INT_STRIDE + NodeLayout.COST_OFFSET);
                    if ((work + cost) >= (workMin - .1))
                    {
                        findMyBodies(q, work, directions[i]);
                    }
                    work += cost;
                }
            }
        }
    }
}
