package org.viadsm.examples.waterspatial;

import org.viadsm.examples.water.WaterSystem;

/**
 * The box grid of {@code SYSCNS}: BOX_PER_SIDE = (long) (BOXL / CUTOFF), at least 1, so a box is at least as wide
 * as the cutoff and only the 27 neighbouring boxes can hold interaction partners.
 */
final class SpatialGrid
{
    /**
     * Most boxes accepted (the grid's arrays and lock ids must fit in an int).
     */
    static final long MAX_BOXES = 1L << 24;

    private final long boxPerSide;
    private final double boxLength;

    SpatialGrid(final WaterSystem system)
    {
        long perSide = (long)(system.boxl() / system.cutoff());
        if (0 == perSide)
        {
            perSide = 1;
        }
        boxPerSide = perSide;
        boxLength = system.boxl() / ((double)perSide);
    }

    /**
     * Boxes per side; check {@link #numBoxes()} before narrowing.
     *
     * @return BOX_PER_SIDE.
     */
    int boxPerSide()
    {
        return (int)boxPerSide;
    }

    /**
     * Number of boxes.
     *
     * @return BOX_PER_SIDE^3, or more than {@link #MAX_BOXES} if that overflows.
     */
    long numBoxes()
    {
        if (boxPerSide > (1L << 20))
        {
            return Long.MAX_VALUE;
        }
        return boxPerSide * boxPerSide * boxPerSide;
    }

    /**
     * Width of a box.
     *
     * @return BOX_LENGTH.
     */
    double boxLength()
    {
        return boxLength;
    }
}
