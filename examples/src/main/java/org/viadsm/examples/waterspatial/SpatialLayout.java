package org.viadsm.examples.waterspatial;

import org.viadsm.examples.water.MoleculeLayout;

/**
 * WATER-SPATIAL's shared memory and locks.
 * <pre>
 *   links      DoubleArray  NMOL link records of {@link #LINK_LENGTH} doubles (struct link: molecule_type, then
 *                           next_mol), link l at l * 85; {@link #NEXT} holds the index of the next link in its box,
 *                           or -1 (NULL), as a double, so a link stays one 680-byte record as in C. Links are numbered
 *                           in the order the master allocates them (lattice order).
 *   BOX        IntArray     BOX_PER_SIDE^3 list heads (box_type.list: a link index or -1), box (i, j, k) at
 *                           (i * BOX_PER_SIDE + j) * BOX_PER_SIDE + k
 *   start_end  IntArray     per processor p, [dir][FIRST, LAST] box coordinates: at p * 6 + 2 * dir + {0, 1}
 *   gl         DoubleArray  {@link org.viadsm.examples.water.GlobalLayout} (struct GlobalMemory)
 * </pre>
 * Each processor's my_boxes list, G_MALLOCed in C but built and read by its owner only, is private here.
 * <p>
 * Locks: the C struct's single locks get ids 0 to 5 in declaration order; box (i, j, k)'s boxlock is
 * {@link #BOX_LOCK} plus its index. The C program's three barriers map to the team barrier.
 */
final class SpatialLayout
{
    static final String LINKS_NAME = "water-spatial.links";
    static final String BOX_NAME = "water-spatial.BOX";
    static final String START_END_NAME = "water-spatial.start_end";
    static final String GL_NAME = "water-spatial.gl";

    static final int IO_LOCK = 0;
    static final int INDEX_LOCK = 1;
    static final int INTRAF_VIR_LOCK = 2;
    static final int INTERF_VIR_LOCK = 3;
    static final int KINETI_SUM_LOCK = 4;
    static final int POTENG_SUM_LOCK = 5;
    static final int BOX_LOCK = 6;

    /**
     * Offset of next_mol in a link record.
     */
    static final int NEXT = MoleculeLayout.LENGTH;

    /**
     * Doubles per link record.
     */
    static final int LINK_LENGTH = MoleculeLayout.LENGTH + 1;

    /**
     * The NULL link.
     */
    static final int NIL = -1;

    /**
     * Ints per processor in start_end.
     */
    static final int START_END_LENGTH = 6;

    private SpatialLayout()
    {
    }

    /**
     * Index of box (i, j, k).
     *
     * @param i           x coordinate.
     * @param j           y coordinate.
     * @param k           z coordinate.
     * @param boxPerSide  boxes per side.
     * @return the index.
     */
    static int box(final int i, final int j, final int k, final int boxPerSide)
    {
        return (i * boxPerSide + j) * boxPerSide + k;
    }

    /**
     * Offset in start_end of processor {@code p}'s first ({@code last} false) or last box in direction {@code dir}.
     *
     * @param p    the processor.
     * @param dir  the direction.
     * @param last FIRST or LAST.
     * @return the offset.
     */
    static int startEnd(final int p, final int dir, final boolean last)
    {
        return p * START_END_LENGTH + 2 * dir + (last ? 1 : 0);
    }
}
