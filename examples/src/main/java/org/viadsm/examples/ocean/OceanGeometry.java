package org.viadsm.examples.ocean;

/**
 * Everything the C program's {@code main} and {@code subblock} derive from the grid size and processor count: the
 * processor grid, the multigrid levels and each member's neighbours. Every member computes its own copy (the values
 * only depend on the options), so nothing here lives in shared memory; the C program keeps them in shared memory
 * but only the master writes them, before the workers start.
 * <p>
 * Neighbour slots follow the C {@code #define}s: {@link #UP}, {@link #DOWN}, {@link #LEFT}, {@link #RIGHT},
 * {@link #UPLEFT}, {@link #UPRIGHT}, {@link #DOWNLEFT}, {@link #DOWNRIGHT}; -1 means the global boundary.
 */
final class OceanGeometry
{
    static final int UP = 0;
    static final int DOWN = 1;
    static final int LEFT = 2;
    static final int RIGHT = 3;
    static final int UPLEFT = 4;
    static final int UPRIGHT = 5;
    static final int DOWNLEFT = 6;
    static final int DOWNRIGHT = 7;
    static final int NONE = -1;

    /** Processor count. */
    final int nprocs;
    /** Processors along a row (columns of blocks). */
    final int xprocs;
    /** Processors along a column (rows of blocks). */
    final int yprocs;
    /** Number of multigrid levels; level {@code numlev - 1} is the finest. */
    final int numlev;
    /** Coarsest level the W cycle may visit. */
    final int minlevel;
    /** Grid rows per level, borders included. */
    final int[] imx;
    /** Grid columns per level, borders included. */
    final int[] jmx;
    /** Interior columns per processor and level. */
    final int[] xptsPerProc;
    /** Interior rows per processor and level. */
    final int[] yptsPerProc;
    /** Grid spacing per level in metres. */
    final double[] levRes;
    /** Interpolation coefficients per level, 1 / (rows - 1). */
    final double[] iIntCoeff;
    /** Interpolation coefficients per level, 1 / (columns - 1). */
    final double[] jIntCoeff;
    /** Neighbours of every processor: {@code neighbors[proc][UP..DOWNRIGHT]}. */
    final int[][] neighbors;
    /** Block row of every processor. */
    final int[] rownum;
    /** Block column of every processor. */
    final int[] colnum;

    private OceanGeometry(final int gridSize, final int nprocs, final int xprocs, final int yprocs, final int numlev)
    {
        this.nprocs = nprocs;
        this.xprocs = xprocs;
        this.yprocs = yprocs;
        this.numlev = numlev;
        imx = new int[numlev];
        jmx = new int[numlev];
        levRes = new double[numlev];
        xptsPerProc = new int[numlev];
        yptsPerProc = new int[numlev];
        iIntCoeff = new double[numlev];
        jIntCoeff = new double[numlev];
        neighbors = new int[nprocs][8];
        rownum = new int[nprocs];
        colnum = new int[nprocs];

        imx[numlev - 1] = gridSize;
        jmx[numlev - 1] = gridSize;
        for (int i = numlev - 2; i >= 0; i--)
        {
            imx[i] = ((imx[i + 1] - 2) / 2) + 2;
            jmx[i] = ((jmx[i + 1] - 2) / 2) + 2;
        }
        for (int i = 0; i < numlev; i++)
        {
            xptsPerProc[i] = (jmx[i] - 2) / xprocs;
            yptsPerProc[i] = (imx[i] - 2) / yprocs;
            iIntCoeff[i] = 1.0 / (imx[i] - 1);
            jIntCoeff[i] = 1.0 / (jmx[i] - 1);
        }
        int lowest = 0;
        for (int i = numlev - 1; i >= 0; i--)
        {
            if (xptsPerProc[i] < 2 || yptsPerProc[i] < 2)
            {
                lowest = i + 1;
                break;
            }
        }
        minlevel = lowest;
        for (int i = 0; i < nprocs; i++)
        {
            linkNeighbours(i);
            rownum[i] = i / xprocs;
            colnum[i] = i % xprocs;
        }
    }

    /**
     * Derives the geometry as the C program does, after checking the options as it does.
     *
     * @param gridSize the {@code -n} grid size, (power of 2) + 2.
     * @param nprocs   the processor count, a power of 2.
     * @param res      the {@code -r} grid spacing of the finest level.
     * @return the geometry.
     * @throws IllegalArgumentException naming the option when the C program would refuse the input.
     */
    static OceanGeometry of(final int gridSize, final int nprocs, final double res)
    {
        check(gridSize, nprocs);
        final int[] factors = factors(nprocs);
        final OceanGeometry geometry = new OceanGeometry(
            gridSize, nprocs, factors[0], factors[1], levels(gridSize, factors[0], factors[1]));
        geometry.levRes[geometry.numlev - 1] = res;
        for (int i = geometry.numlev - 2; i >= 0; i--)
        {
            geometry.levRes[i] = geometry.levRes[i + 1] * 2;
        }
        return geometry;
    }

    /**
     * The C program's option checks, in its order.
     *
     * @param gridSize the {@code -n} value.
     * @param nprocs   the team size (the C {@code -p}).
     * @throws IllegalArgumentException naming the option and value that the C program refuses.
     */
    static void check(final int gridSize, final int nprocs)
    {
        if (-1 == log2(gridSize - 2))
        {
            throw new IllegalArgumentException(
                "-n: grid must be ((power of 2)+2) in each dimension: n=" + gridSize);
        }
        if (nprocs < 1)
        {
            throw new IllegalArgumentException("-p (team size) must be >= 1: teamSize=" + nprocs);
        }
        if (-1 == log2(nprocs))
        {
            throw new IllegalArgumentException("-p (team size) must be a power of 2: teamSize=" + nprocs);
        }
        final int[] factors = factors(nprocs);
        if (0 == levels(gridSize, factors[0], factors[1]))
        {
            throw new IllegalArgumentException("-n: must have at least 2 grid points per processor in each " +
                "dimension: n=" + gridSize + ", teamSize=" + nprocs);
        }
    }

    /**
     * Interior rows of a processor's block at {@code level} plus its two border rows.
     *
     * @param level the level.
     * @return the block's row count.
     */
    int blockRows(final int level)
    {
        return yptsPerProc[level] + 2;
    }

    /**
     * Interior columns of a processor's block at {@code level} plus its two border columns.
     *
     * @param level the level.
     * @return the block's column count, the stride between its rows.
     */
    int blockCols(final int level)
    {
        return xptsPerProc[level] + 2;
    }

    /**
     * The C {@code log_2}: the exponent if {@code number} is a power of 2 (1 counts, as 2^0), else -1.
     *
     * @param number the number.
     * @return its base-2 logarithm or -1.
     */
    static int log2(final long number)
    {
        long cumulative = 1;
        int out = 0;
        while (cumulative < number && out < 50)
        {
            cumulative = cumulative * 2;
            out++;
        }
        return cumulative == number ? out : -1;
    }

    private static int[] factors(final int nprocs)
    {
        int xprocs = 0;
        int yprocs = 0;
        int j = (int)Math.sqrt(nprocs);
        while (0 == xprocs && j > 0)
        {
            final int k = nprocs / j;
            if (k * j == nprocs)
            {
                if (k > j)
                {
                    xprocs = j;
                    yprocs = k;
                }
                else
                {
                    xprocs = k;
                    yprocs = j;
                }
            }
            j--;
        }
        return new int[] {xprocs, yprocs};
    }

    private static int levels(final int gridSize, final int xprocs, final int yprocs)
    {
        long itemp = 1;
        long jtemp = 1;
        int numlev = 0;
        while (itemp < gridSize - 2)
        {
            itemp = itemp * 2;
            jtemp = jtemp * 2;
            if (itemp / yprocs > 1 && jtemp / xprocs > 1)
            {
                numlev++;
            }
        }
        return numlev;
    }

    private void linkNeighbours(final int i)
    {
        final int[] n = neighbors[i];
        java.util.Arrays.fill(n, NONE);
        if (i >= xprocs)
        {
            n[UP] = i - xprocs;
        }
        if (i < nprocs - xprocs)
        {
            n[DOWN] = i + xprocs;
        }
        if ((i % xprocs) > 0)
        {
            n[LEFT] = i - 1;
        }
        if ((i % xprocs) < (xprocs - 1))
        {
            n[RIGHT] = i + 1;
        }
        final int up = n[UP];
        if (NONE != up)
        {
            if ((up % xprocs) > 0)
            {
                n[UPLEFT] = up - 1;
            }
            if ((up % xprocs) < (xprocs - 1))
            {
                n[UPRIGHT] = up + 1;
            }
        }
        final int down = n[DOWN];
        if (NONE != down)
        {
            if ((down % xprocs) > 0)
            {
                n[DOWNLEFT] = down - 1;
            }
            if ((down % xprocs) < (xprocs - 1))
            {
                n[DOWNRIGHT] = down + 1;
            }
        }
    }
}
