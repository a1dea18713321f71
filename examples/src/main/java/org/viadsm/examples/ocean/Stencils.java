package org.viadsm.examples.ocean;

import static org.viadsm.examples.ocean.OceanGeometry.DOWN;
import static org.viadsm.examples.ocean.OceanGeometry.DOWNLEFT;
import static org.viadsm.examples.ocean.OceanGeometry.DOWNRIGHT;
import static org.viadsm.examples.ocean.OceanGeometry.LEFT;
import static org.viadsm.examples.ocean.OceanGeometry.NONE;
import static org.viadsm.examples.ocean.OceanGeometry.RIGHT;
import static org.viadsm.examples.ocean.OceanGeometry.UP;
import static org.viadsm.examples.ocean.OceanGeometry.UPLEFT;
import static org.viadsm.examples.ocean.OceanGeometry.UPRIGHT;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;

/**
 * The border exchanges and the two finite-difference operators of OCEAN: the C {@code laplacalc},
 * {@code jacobcalc} and {@code jacobcalc2} (the last two are the same code on different grids), and the border
 * copies they and the multigrid solver share. A block's border points are copies of its neighbours' outermost
 * interior points; each member copies them into its own block before a stencil reads them. The stencils read
 * through views of whole blocks and write through an update view of the points the member owns; border columns
 * are copied through views, border rows with bulk copies.
 */
final class Stencils
{
    private Stencils()
    {
    }

    /**
     * Copies the four edges of block {@code pid} (corners excluded) from its neighbours, as every C stencil does
     * first: the top row from the bottom interior row of the block above, and so on.
     *
     * @param x       every processor's block of the grid, each {@code im} by {@code jm}.
     * @param pid     the block to fill.
     * @param nb      its neighbours.
     * @param im      block rows.
     * @param jm      block columns.
     * @param scratch a row buffer of at least {@code jm - 2} elements.
     * @param views   the member's views; read slot 0 and update slot 0 are re-wrapped.
     */
    static void copyEdges(
        final DoubleArray[] x,
        final int pid,
        final int[] nb,
        final int im,
        final int jm,
        final double[] scratch,
        final ViewPool views)
    {
        final DoubleArray a = x[pid];
        final int lastrow = im - 2;
        final int lastcol = jm - 2;
        int j = nb[UP];
        if (NONE != j)
        {
            x[j].get((im - 2) * jm + 1, scratch, 0, lastcol);
            a.set(1, scratch, 0, lastcol);
        }
        j = nb[DOWN];
        if (NONE != j)
        {
            x[j].get(jm + 1, scratch, 0, lastcol);
            a.set((im - 1) * jm + 1, scratch, 0, lastcol);
        }
        final int left = nb[LEFT];
        final int right = nb[RIGHT];
        if (NONE != left || NONE != right)
        {
            // Rows 1 to lastrow: the border columns written and the neighbours' columns read.
            final DoubleView av = views.update(0, a, jm, (im - 1) * jm);
            if (NONE != left)
            {
                final DoubleReadView b = views.read(0, x[left], jm, (im - 1) * jm);
                for (int i = 1; i <= lastrow; i++)
                {
                    av.set(i * jm, b.get(i * jm + jm - 2));
                }
            }
            if (NONE != right)
            {
                final DoubleReadView b = views.read(0, x[right], jm, (im - 1) * jm);
                for (int i = 1; i <= lastrow; i++)
                {
                    av.set(i * jm + jm - 1, b.get(i * jm + 1));
                }
            }
        }
    }

    /**
     * Fills the four corners of block {@code pid} from the blocks that hold those points: the diagonal
     * neighbours, or along the global boundary the side neighbours, as the C {@code jacobcalc} and
     * {@code copy_borders} do.
     *
     * @param x   every processor's block of the grid.
     * @param pid the block to fill.
     * @param nb  its neighbours.
     * @param im  block rows.
     * @param jm  block columns.
     */
    static void copyCorners(final DoubleArray[] x, final int pid, final int[] nb, final int im, final int jm)
    {
        final DoubleArray a = x[pid];
        final int ul = 0;
        final int ur = jm - 1;
        final int dl = (im - 1) * jm;
        final int dr = (im - 1) * jm + jm - 1;
        int jj = nb[UPLEFT];
        if (NONE != jj)
        {
            a.set(ul, x[jj].get((im - 2) * jm + jm - 2));
        }
        jj = nb[UPRIGHT];
        if (NONE != jj)
        {
            a.set(ur, x[jj].get((im - 2) * jm + 1));
        }
        jj = nb[DOWNLEFT];
        if (NONE != jj)
        {
            a.set(dl, x[jj].get(jm + jm - 2));
        }
        jj = nb[DOWNRIGHT];
        if (NONE != jj)
        {
            a.set(dr, x[jj].get(jm + 1));
        }

        if (NONE == nb[UP])
        {
            jj = nb[LEFT];
            if (NONE != jj)
            {
                a.set(ul, x[jj].get(jm - 2));
            }
            else
            {
                jj = nb[DOWN];
                if (NONE != jj)
                {
                    a.set(dl, x[jj].get(jm));
                }
            }
            jj = nb[RIGHT];
            if (NONE != jj)
            {
                a.set(ur, x[jj].get(1));
            }
            else
            {
                jj = nb[DOWN];
                if (NONE != jj)
                {
                    a.set(dr, x[jj].get(jm + jm - 1));
                }
            }
        }
        else if (NONE == nb[DOWN])
        {
            jj = nb[LEFT];
            if (NONE != jj)
            {
                a.set(dl, x[jj].get((im - 1) * jm + jm - 2));
            }
            else
            {
                jj = nb[UP];
                if (NONE != jj)
                {
                    a.set(ul, x[jj].get((im - 2) * jm));
                }
            }
            jj = nb[RIGHT];
            if (NONE != jj)
            {
                a.set(dr, x[jj].get((im - 1) * jm + 1));
            }
            else
            {
                jj = nb[UP];
                if (NONE != jj)
                {
                    a.set(ur, x[jj].get((im - 2) * jm + jm - 1));
                }
            }
        }
        else if (NONE == nb[LEFT])
        {
            jj = nb[UP];
            if (NONE != jj)
            {
                a.set(ul, x[jj].get((im - 2) * jm));
            }
            jj = nb[DOWN];
            if (NONE != jj)
            {
                a.set(dl, x[jj].get(jm));
            }
        }
        else if (NONE == nb[RIGHT])
        {
            jj = nb[UP];
            if (NONE != jj)
            {
                a.set(ur, x[jj].get((im - 2) * jm + jm - 1));
            }
            jj = nb[DOWN];
            if (NONE != jj)
            {
                a.set(dr, x[jj].get(jm + jm - 1));
            }
        }
    }

    /**
     * The C {@code laplacalc}: {@code z = factlap * (5-point Laplacian of x)} on the block's interior, zero on its
     * global-boundary edges; the border of {@code x} is refreshed from the neighbours first.
     *
     * @param b       the member's block geometry.
     * @param x       every processor's block of the input grid.
     * @param z       every processor's block of the output grid.
     * @param factlap 1 / res^2.
     */
    static void laplacalc(final Block b, final DoubleArray[] x, final DoubleArray[] z, final double factlap)
    {
        final int jm = b.jm;
        copyEdges(x, b.procid, b.nb, b.im, jm, b.scratch, b.views);
        final DoubleReadView t2a = b.views.read(0, x[b.procid]);
        final DoubleView t2b = b.updateOwned(0, z[b.procid]);
        final int colEnd = b.lastcol + 1;
        final int rowEnd = b.lastrow + 1;
        for (int i = b.firstrow; i < rowEnd; i++)
        {
            laplacRow(t2a, t2b, i * jm, jm, b.firstcol, colEnd, factlap);
        }
        b.zeroEdges(t2b);
    }

    /**
     * The C {@code jacobcalc}: the Arakawa Jacobian of {@code x} and {@code y} into {@code z} on the block's
     * interior, zero on its global boundary; borders and corners of {@code x} and {@code y} are refreshed from
     * the neighbours first (the C code interleaves the corner copies of the two grids; they touch disjoint
     * points, so the order does not matter).
     *
     * @param b         the member's block geometry.
     * @param x         every processor's block of the first grid.
     * @param y         every processor's block of the second grid.
     * @param z         every processor's block of the output grid.
     * @param factjacob -1 / (12 res^2).
     */
    static void jacobcalc(
        final Block b, final DoubleArray[] x, final DoubleArray[] y, final DoubleArray[] z, final double factjacob)
    {
        final int pid = b.procid;
        final int im = b.im;
        final int jm = b.jm;
        b.zeroCorners(z[pid]);
        copyCorners(x, pid, b.nb, im, jm);
        copyCorners(y, pid, b.nb, im, jm);
        copyEdges(y, pid, b.nb, im, jm, b.scratch, b.views);
        copyEdges(x, pid, b.nb, im, jm, b.scratch, b.views);

        final DoubleReadView t2a = b.views.read(0, x[pid]);
        final DoubleReadView t2b = b.views.read(1, y[pid]);
        final DoubleView t2c = b.updateOwned(0, z[pid]);
        final int colEnd = b.lastcol + 1;
        final int rowEnd = b.lastrow + 1;
        for (int i = b.firstrow; i < rowEnd; i++)
        {
            jacobRow(t2a, t2b, t2c, i * jm, jm, b.firstcol, colEnd, factjacob);
        }
        b.zeroEdges(t2c);
    }

    /**
     * One row of {@link #laplacalc}, points {@code [from, to)}: a method of its own, called once per row, so that
     * the JIT compiles it early in a JVM's first run as a plain method, not only as a loop entered from the
     * interpreter, and keeps it compiled in the next runs.
     *
     * @param x       read view of the input block.
     * @param z       update view of the output block.
     * @param r       index of the row's first point.
     * @param jm      the stride between rows.
     * @param from    first column.
     * @param to      end column, exclusive.
     * @param factlap 1 / res^2.
     */
    private static void laplacRow(
        final DoubleReadView x,
        final DoubleView z,
        final int r,
        final int jm,
        final int from,
        final int to,
        final double factlap)
    {
        final int rp = r + jm;
        final int rm = r - jm;
        for (int iindex = from; iindex < to; iindex++)
        {
            z.set(r + iindex, factlap * (x.get(rp + iindex) +
                x.get(rm + iindex) + x.get(r + iindex + 1) +
                x.get(r + iindex - 1) - 4. * x.get(r + iindex)));
        }
    }

    /**
     * One row of {@link #jacobcalc}, points {@code [from, to)}, a method of its own for the reason
     * {@link #laplacRow} gives.
     *
     * @param t2a       read view of the first grid's block.
     * @param t2b       read view of the second grid's block.
     * @param t2c       update view of the output block.
     * @param r         index of the row's first point.
     * @param jm        the stride between rows.
     * @param from      first column.
     * @param to        end column, exclusive.
     * @param factjacob -1 / (12 res^2).
     */
    private static void jacobRow(
        final DoubleReadView t2a,
        final DoubleReadView t2b,
        final DoubleView t2c,
        final int r,
        final int jm,
        final int from,
        final int to,
        final double factjacob)
    {
        final int rp = r + jm;
        final int rm = r - jm;
        for (int iindex = from; iindex < to; iindex++)
        {
            final int ip = iindex + 1;
            final int imm = iindex - 1;
            final double aC = t2a.get(r + iindex);
            final double aP = t2a.get(r + ip);
            final double aM = t2a.get(r + imm);
            final double bM = t2b.get(r + imm);
            final double bP = t2b.get(r + ip);
            final double dC = t2b.get(rp + iindex);
            final double dM = t2b.get(rp + imm);
            final double dP = t2b.get(rp + ip);
            final double eC = t2b.get(rm + iindex);
            final double eM = t2b.get(rm + imm);
            final double eP = t2b.get(rm + ip);
            final double fC = t2a.get(rp + iindex);
            final double fM = t2a.get(rp + imm);
            final double fP = t2a.get(rp + ip);
            final double gC = t2a.get(rm + iindex);
            final double gM = t2a.get(rm + imm);
            final double gP = t2a.get(rm + ip);
            final double f1 = (bM + dM - bP - dP) * (fC - aC);
            final double f2 = (eM + bM - eP - bP) * (aC - gC);
            final double f3 = (dC + dP - eC - eP) * (aP - aC);
            final double f4 = (dM + dC - eM - eC) * (aC - aM);
            final double f5 = (dC - bP) * (fP - aC);
            final double f6 = (bM - eC) * (aC - gM);
            final double f7 = (bP - eC) * (gP - aC);
            final double f8 = (dC - bM) * (aC - fM);
            t2c.set(r + iindex, factjacob * (f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8));
        }
    }
}
