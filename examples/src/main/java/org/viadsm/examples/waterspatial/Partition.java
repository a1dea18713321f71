package org.viadsm.examples.waterspatial;

import java.io.PrintStream;

import org.viadsm.dsm.array.IntArray;
import org.viadsm.examples.runtime.CFormat;

/**
 * The master's static partition of the box grid among the processors: P is factored into xprocs * yprocs * zprocs
 * with xprocs as close to the cube root as a factorization allows, each side is cut into that many slabs of
 * BOX_PER_SIDE / procs boxes, the first (BOX_PER_SIDE mod procs) slabs one box thicker, and processors are
 * numbered with z fastest.
 */
final class Partition
{
    private Partition()
    {
    }

    /**
     * Computes the partition into start_end and prints the C program's lines about it.
     *
     * @param procs      number of processors.
     * @param boxPerSide boxes per side.
     * @param startEnd   the shared start_end array.
     * @param out        where to print.
     */
    static void compute(final int procs, final int boxPerSide, final IntArray startEnd, final PrintStream out)
    {
        long xprocs = 0;
        long yprocs = 0;
        long zprocs = 0;
        final double proccbrt = Math.pow((double)procs, 1.0 / 3.0) + 0.00000000000001;
        long j = (long)proccbrt;
        if (j < 1)
        {
            j = 1;
        }
        while (0 == xprocs && j > 0)
        {
            long k = (long)Math.sqrt((double)(procs / j));
            if (k < 1)
            {
                k = 1;
            }
            while (0 == yprocs && k > 0)
            {
                final long l = procs / (j * k);
                if (j * k * l == procs)
                {
                    xprocs = j;
                    yprocs = k;
                    zprocs = l;
                }
                k--;
            }
            j--;
        }
        out.print(CFormat.format("xprocs = %ld\typrocs = %ld\tzprocs = %ld\n", xprocs, yprocs, zprocs));
        out.flush();

        long xInc = boxPerSide / xprocs;
        long yInc = boxPerSide / yprocs;
        long zInc = boxPerSide / zprocs;
        final long xLeft = boxPerSide - xprocs * xInc;
        final long yLeft = boxPerSide - yprocs * yInc;
        final long zLeft = boxPerSide - zprocs * zInc;
        out.print(CFormat.format("x_inc = %ld\t y_inc = %ld\t z_inc = %ld\n", xInc, yInc, zInc));
        out.print(CFormat.format("x_left = %ld\t y_left = %ld\t z_left = %ld\n", xLeft, yLeft, zLeft));
        out.flush();

        int procnum = 0;
        long xFirst = 0;
        long xCt = xLeft;
        long xLast = -1;
        xInc++;
        for (long i = 0; i < xprocs; i++)
        {
            long yCt = yLeft;
            if (0 == xCt)
            {
                xInc--;
            }
            xLast += xInc;
            long yFirst = 0;
            long yLast = -1;
            yInc++;
            for (long jj = 0; jj < yprocs; jj++)
            {
                long zCt = zLeft;
                if (0 == yCt)
                {
                    yInc--;
                }
                yLast += yInc;
                long zFirst = 0;
                long zLast = -1;
                zInc++;
                for (long kk = 0; kk < zprocs; kk++)
                {
                    if (0 == zCt)
                    {
                        zInc--;
                    }
                    zLast += zInc;
                    set(startEnd, procnum, 0, xFirst, xLast, boxPerSide);
                    set(startEnd, procnum, 1, yFirst, yLast, boxPerSide);
                    set(startEnd, procnum, 2, zFirst, zLast, boxPerSide);
                    zFirst = zLast + 1;
                    zCt--;
                    procnum++;
                }
                yFirst = yLast + 1;
                yCt--;
            }
            xFirst = xLast + 1;
            xCt--;
        }
    }

    private static void set(
        final IntArray startEnd, final int p, final int dir, final long first, final long last, final int boxPerSide)
    {
        startEnd.set(SpatialLayout.startEnd(p, dir, false), (int)first);
        startEnd.set(SpatialLayout.startEnd(p, dir, true), (int)(last > boxPerSide - 1 ? boxPerSide - 1 : last));
    }
}
