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
        final int[] bounds = compute(procs, boxPerSide, out);
        for (int i = 0; i < bounds.length; i++)
        {
            startEnd.set(i, bounds[i]);
        }
    }

    /**
     * The processor whose boxes hold box (i, j, k).
     *
     * @param bounds     the partition, as {@link #compute(int, int, PrintStream)} returns it.
     * @param box        the box's index, {@link SpatialLayout#box(int, int, int, int)}.
     * @param boxPerSide boxes per side.
     * @return the processor.
     */
    static int owner(final int[] bounds, final int box, final int boxPerSide)
    {
        final int[] coordinates = {box / (boxPerSide * boxPerSide), box / boxPerSide % boxPerSide, box % boxPerSide};
        for (int p = 0; p < bounds.length / SpatialLayout.START_END_LENGTH; p++)
        {
            boolean inside = true;
            for (int dir = 0; dir < coordinates.length; dir++)
            {
                inside &= coordinates[dir] >= bounds[SpatialLayout.startEnd(p, dir, false)] &&
                    coordinates[dir] <= bounds[SpatialLayout.startEnd(p, dir, true)];
            }
            if (inside)
            {
                return p;
            }
        }
        return 0;
    }

    /**
     * Computes the partition, start_end's contents, and prints the C program's lines about it.
     *
     * @param procs      number of processors.
     * @param boxPerSide boxes per side.
     * @param out        where to print.
     * @return start_end.
     */
    static int[] compute(final int procs, final int boxPerSide, final PrintStream out)
    {
        final int[] startEnd = new int[procs * SpatialLayout.START_END_LENGTH];
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
        return startEnd;
    }

    private static void set(
        final int[] startEnd, final int p, final int dir, final long first, final long last, final int boxPerSide)
    {
        startEnd[SpatialLayout.startEnd(p, dir, false)] = (int)first;
        startEnd[SpatialLayout.startEnd(p, dir, true)] = (int)(last > boxPerSide - 1 ? boxPerSide - 1 : last);
    }
}
