package org.viadsm.examples.ocean;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * One member's block of the finest grid and the element-wise operations the C program spells out region by
 * region (the four corners, the four edges, then the interior). Those operations touch each point of the block
 * once and independently, so they run here row by row over the same points: the block's interior, plus the rows
 * and columns that lie on the global boundary. Sums keep the C program's region order, since that decides their
 * rounding.
 * <p>
 * Contiguous row segments move with the arrays' bulk get/set; loops over points use views of the block, made when
 * the operation starts (after the member's last synchronization), and {@link #views} holds the views for reuse.
 * Update views cover the points the operation writes: the {@linkplain #ownedFrom() owned} points, or the interior.
 * <p>
 * <b>Note:</b> used by the one thread that runs the member.
 */
final class Block
{
    /** This member's processor id. */
    final int procid;
    /** Rows of the block, borders included (the C global {@code im} once {@code main} has set it). */
    final int im;
    /** Columns of the block, borders included (the C global {@code jm}); the stride between rows. */
    final int jm;
    final int firstrow;
    final int lastrow;
    final int firstcol;
    final int lastcol;
    /** Whether the block's top row is the global boundary (no neighbour UP). */
    final boolean top;
    /** Whether the block's bottom row is the global boundary. */
    final boolean bottom;
    /** Whether the block's left column is the global boundary. */
    final boolean left;
    /** Whether the block's right column is the global boundary. */
    final boolean right;
    /** First row this member writes: 0 on the top boundary, else 1. */
    final int rowLo;
    /** Last row this member writes. */
    final int rowHi;
    /** First column this member writes. */
    final int colLo;
    /** Last column this member writes. */
    final int colHi;
    /** Neighbour ids, indexed by the {@link OceanGeometry} slots. */
    final int[] nb;
    /** Scratch for row copies, as long as the longest row or column of any level. */
    final double[] scratch;
    /** The member's reusable views. */
    final ViewPool views = new ViewPool();

    Block(final OceanGeometry geometry, final int procid)
    {
        final int finest = geometry.numlev - 1;
        this.procid = procid;
        im = geometry.blockRows(finest);
        jm = geometry.blockCols(finest);
        firstrow = 1;
        lastrow = firstrow + geometry.yptsPerProc[finest] - 1;
        firstcol = 1;
        lastcol = firstcol + geometry.xptsPerProc[finest] - 1;
        nb = geometry.neighbors[procid];
        top = OceanGeometry.NONE == nb[OceanGeometry.UP];
        bottom = OceanGeometry.NONE == nb[OceanGeometry.DOWN];
        left = OceanGeometry.NONE == nb[OceanGeometry.LEFT];
        right = OceanGeometry.NONE == nb[OceanGeometry.RIGHT];
        rowLo = top ? 0 : firstrow;
        rowHi = bottom ? im - 1 : lastrow;
        colLo = left ? 0 : firstcol;
        colHi = right ? jm - 1 : lastcol;
        scratch = new double[Math.max(im, jm)];
    }

    /**
     * The first element of the points this member owns (rows {@link #rowLo} to {@link #rowHi}, columns
     * {@link #colLo} to {@link #colHi}): the range of an update view of every point it writes.
     *
     * @return the index of point ({@code rowLo}, {@code colLo}).
     */
    int ownedFrom()
    {
        return rowLo * jm + colLo;
    }

    /**
     * The end of the points this member owns.
     *
     * @return the index after point ({@code rowHi}, {@code colHi}).
     */
    int ownedTo()
    {
        return rowHi * jm + colHi + 1;
    }

    /**
     * An update view of the points this member owns in {@code a}.
     *
     * @param slot the update slot.
     * @param a    this member's block of a grid.
     * @return the view.
     */
    DoubleView updateOwned(final int slot, final DoubleArray a)
    {
        return views.update(slot, a, ownedFrom(), ownedTo());
    }

    /**
     * A read view of the points this member owns in {@code a}.
     *
     * @param slot the read slot.
     * @param a    this member's block of a grid.
     * @return the view.
     */
    DoubleReadView readOwned(final int slot, final DoubleArray a)
    {
        return views.read(slot, a, ownedFrom(), ownedTo());
    }

    /**
     * An update view of the interior points (global boundary excluded) of {@code a}.
     *
     * @param slot the update slot.
     * @param a    this member's block of a grid.
     * @return the view.
     */
    DoubleView updateInterior(final int slot, final DoubleArray a)
    {
        return views.update(slot, a, firstrow * jm + firstcol, lastrow * jm + lastcol + 1);
    }

    /**
     * Sets every point this member owns in {@code a} to {@code value}.
     *
     * @param a     this member's block of a grid.
     * @param value the value.
     */
    void fill(final DoubleArray a, final double value)
    {
        final int stride = jm;
        for (int i = rowLo; i <= rowHi; i++)
        {
            a.fill(i * stride + colLo, i * stride + colHi + 1, value);
        }
    }

    /**
     * Copies every point this member owns from {@code src} to {@code dst}.
     *
     * @param dst this member's block of the destination grid.
     * @param src this member's block of the source grid.
     */
    void copy(final DoubleArray dst, final DoubleArray src)
    {
        copyRows(dst, src, rowLo, rowHi, colLo, colHi);
    }

    /**
     * {@code a = a + scale * b} on every point this member owns; with {@code scale} 1 this is the C code's plain
     * sum, bit for bit.
     *
     * @param a     this member's block of the grid updated.
     * @param scale the factor.
     * @param b     this member's block of the grid added.
     */
    void addScaled(final DoubleArray a, final double scale, final DoubleArray b)
    {
        final DoubleView av = updateOwned(0, a);
        final DoubleReadView bv = readOwned(0, b);
        final int rowEnd = rowHi + 1;
        final int width = colHi + 1 - colLo;
        for (int i = rowLo; i < rowEnd; i++)
        {
            final int from = i * jm + colLo;
            RowKernels.addScaled(av, scale, bv, from, from + width);
        }
    }

    /**
     * Copies the interior points (global boundary excluded) from {@code src} to {@code dst}.
     *
     * @param dst this member's block of the destination grid.
     * @param src this member's block of the source grid.
     */
    void copyInterior(final DoubleArray dst, final DoubleArray src)
    {
        copyRows(dst, src, firstrow, lastrow, firstcol, lastcol);
    }

    private void copyRows(
        final DoubleArray dst, final DoubleArray src, final int i0, final int i1, final int j0, final int j1)
    {
        final double[] row = scratch;
        final int n = j1 - j0 + 1;
        final int stride = jm;
        for (int i = i0; i <= i1; i++)
        {
            src.get(i * stride + j0, row, 0, n);
            dst.set(i * stride + j0, row, 0, n);
        }
    }

    /**
     * Sets up the finest level of the multigrid solver for right-hand side {@code g}, as the C program does
     * before each solve: {@code rhs = g * ressqr} on every point this member owns, and the solution's
     * global-boundary points fixed to {@code g}'s.
     *
     * @param rhs    this member's finest block of the multigrid right-hand side.
     * @param q      this member's finest block of the multigrid solution.
     * @param g      this member's block of the grid to solve for.
     * @param ressqr the squared grid spacing.
     */
    void prepareSolve(final DoubleArray rhs, final DoubleArray q, final DoubleArray g, final double ressqr)
    {
        final DoubleReadView gv = readOwned(0, g);
        final DoubleView rv = updateOwned(0, rhs);
        final int stride = jm;
        final int rowEnd = rowHi + 1;
        final int width = colHi + 1 - colLo;
        for (int i = rowLo; i < rowEnd; i++)
        {
            final int from = i * stride + colLo;
            RowKernels.scale(rv, gv, ressqr, from, from + width);
        }
        final double[] row = scratch;
        final int n = colHi - colLo + 1;
        if (top)
        {
            g.get(colLo, row, 0, n);
            q.set(colLo, row, 0, n);
        }
        if (bottom)
        {
            g.get((im - 1) * stride + colLo, row, 0, n);
            q.set((im - 1) * stride + colLo, row, 0, n);
        }
        if (left || right)
        {
            final DoubleView qv = updateOwned(1, q);
            for (int i = rowLo; i <= rowHi; i++)
            {
                if (left)
                {
                    qv.set(i * stride, gv.get(i * stride));
                }
                if (right)
                {
                    qv.set(i * stride + jm - 1, gv.get(i * stride + jm - 1));
                }
            }
        }
    }

    /**
     * The C program's running sum over this member's points: a quarter of each global corner, half of each other
     * global-boundary point, all of each interior point, in the C order (corners, top, bottom, left, right, then
     * the interior row by row).
     *
     * @param a this member's block of the grid summed.
     * @return the sum.
     */
    double boundaryWeightedSum(final DoubleArray array)
    {
        final DoubleReadView a = readOwned(0, array);
        final int stride = jm;
        double sum = 0.0;
        if (top && left)
        {
            sum = sum + 0.25 * a.get(0);
        }
        if (top && right)
        {
            sum = sum + 0.25 * a.get(jm - 1);
        }
        if (bottom && left)
        {
            sum = sum + 0.25 * a.get((im - 1) * stride);
        }
        if (bottom && right)
        {
            sum = sum + 0.25 * a.get((im - 1) * stride + jm - 1);
        }
        if (top)
        {
            for (int j = firstcol; j <= lastcol; j++)
            {
                sum = sum + 0.5 * a.get(j);
            }
        }
        if (bottom)
        {
            for (int j = firstcol; j <= lastcol; j++)
            {
                sum = sum + 0.5 * a.get((im - 1) * stride + j);
            }
        }
        if (left)
        {
            for (int j = firstrow; j <= lastrow; j++)
            {
                sum = sum + 0.5 * a.get(j * stride);
            }
        }
        if (right)
        {
            for (int j = firstrow; j <= lastrow; j++)
            {
                sum = sum + 0.5 * a.get(j * stride + jm - 1);
            }
        }
        final int rowEnd = lastrow + 1;
        for (int i = firstrow; i < rowEnd; i++)
        {
            final int row = i * stride;
            sum = RowKernels.sum(a, sum, row + firstcol, row + lastcol + 1);
        }
        return sum;
    }

    /**
     * Zeroes the global corners of {@code z} this member owns, as the C kernels do before a stencil.
     *
     * @param z this member's block of a grid.
     */
    void zeroCorners(final DoubleArray z)
    {
        if (top && left)
        {
            z.set(0, 0.0);
        }
        if (bottom && left)
        {
            z.set((im - 1) * jm, 0.0);
        }
        if (top && right)
        {
            z.set(jm - 1, 0.0);
        }
        if (bottom && right)
        {
            z.set((im - 1) * jm + jm - 1, 0.0);
        }
    }

    /**
     * Zeroes the global-boundary edges of {@code z} this member owns (corners excluded), as the C stencils do
     * after computing the interior.
     *
     * @param z an update view of the points this member owns in a grid.
     */
    void zeroEdges(final DoubleView z)
    {
        final int stride = jm;
        if (top)
        {
            for (int j = firstcol; j <= lastcol; j++)
            {
                z.set(j, 0.0);
            }
        }
        if (bottom)
        {
            for (int j = firstcol; j <= lastcol; j++)
            {
                z.set((im - 1) * stride + j, 0.0);
            }
        }
        if (left)
        {
            for (int j = firstrow; j <= lastrow; j++)
            {
                z.set(j * stride, 0.0);
            }
        }
        if (right)
        {
            for (int j = firstrow; j <= lastrow; j++)
            {
                z.set(j * stride + jm - 1, 0.0);
            }
        }
    }
}
