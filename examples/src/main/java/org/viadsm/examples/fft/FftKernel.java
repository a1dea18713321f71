package org.viadsm.examples.fft;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the six-step FFT ({@code SlaveStart} and what it calls in the C program): blocked
 * transposes between {@code x} and the scratch matrix, 1D FFTs on this processor's rows with its private copy of the
 * roots of unity, and the twiddle step from {@code umain2}. Rows {@code [myFirst, myLast)} are this processor's.
 * <p>
 * Each transpose makes views after the barrier before it: an update view of this processor's rows of the matrix it
 * writes and a read view of each source block's rows, which make the pages writable and valid. The steps then copy
 * what they work on into private arrays in bulk, work there and copy the result back, as {@link #touchArray()}
 * does: the transpose a tile of each block at a time, the row steps (1D FFT, twiddle, scaling) each of this
 * processor's rows with its row of {@code umain2}. Loops over plain arrays compile small and fast and run fast
 * before they are compiled, where the same loops over views ran at tier 3, an interface call per element, until
 * their C2 compilations came through, which on a loaded 2-core machine was after the first warm runs. Views are
 * re-wrapped and the private arrays reused, so the steps allocate nothing.
 * <p>
 * <b>Note:</b> used by the one thread that runs its member.
 */
final class FftKernel
{
    /** The C program's {@code #define PI 3.1416}, kept so that the twiddle factors are the same numbers. */
    static final double PI = 3.1416;
    /** The edge of the transpose's tiles in complex numbers: two tiles of 16 KiB. */
    private static final int TILE = 32;

    private final Team team;
    private final PrintStream out;
    private final FftLayout layout;
    private final DoubleArray x;
    private final DoubleArray scratch;
    private final DoubleArray umain2;
    private final double[] upriv;
    private final double[] column;
    /** The row the row steps work on, copied from the matrix and back. */
    private final double[] row;
    /** The row's twiddle factors, copied from {@code umain2}. */
    private final double[] twiddles;
    /** A tile of the transpose's source block, {@link #TILE} rows of {@link #TILE} complex numbers. */
    private final double[] tileIn = new double[2 * TILE * TILE];
    /** The tile transposed. */
    private final double[] tileOut = new double[2 * TILE * TILE];
    /** A row of each matrix for {@link #touchArray()}. */
    private final double[] touchRow;
    private final int myNum;
    private final int myFirst;
    private final int myLast;
    private final boolean dostats;
    private final boolean copyBack;
    private boolean isOutput = true;
    /** This processor's rows of the matrix the current transpose writes. */
    private DoubleView rows;
    /** The source rows of the block the transpose reads. */
    private DoubleReadView source;
    private long transtimeUs;

    FftKernel(
        final Team team,
        final FftLayout layout,
        final DoubleArray x,
        final DoubleArray scratch,
        final DoubleArray umain2,
        final boolean dostats,
        final boolean copyBack)
    {
        this.team = team;
        this.out = team.out();
        this.layout = layout;
        this.x = x;
        this.scratch = scratch;
        this.umain2 = umain2;
        this.myNum = team.id();
        this.myFirst = layout.rootN * myNum / layout.processors;
        this.myLast = layout.rootN * (myNum + 1) / layout.processors;
        this.dostats = dostats;
        this.copyBack = copyBack;
        this.upriv = new double[2 * (layout.rootN - 1)];
        this.column = new double[2 * layout.rootN];
        this.row = new double[2 * layout.rootN];
        this.twiddles = new double[2 * layout.rootN];
        this.touchRow = new double[6 * layout.rootN];
    }

    /**
     * Copies the roots of unity for the 1D FFTs into this processor's private array ({@code upriv}).
     *
     * @param umain the shared roots.
     */
    void copyRoots(final DoubleArray umain)
    {
        umain.get(0, upriv, 0, upriv.length);
    }

    /**
     * Reads this processor's rows of every matrix once, to start without cold misses ({@code TouchArray}).
     *
     * @return the sum of what was read.
     */
    double touchArray()
    {
        final int rootN = layout.rootN;
        final int rowStride = rootN + layout.padLength;
        final int length = 2 * rootN;
        final double[] row = touchRow;
        double tot = 0.0;
        for (int j = 0; j < upriv.length; j++)
        {
            tot += upriv[j];
        }
        for (int j = myFirst; j < myLast; j++)
        {
            final int off = 2 * j * rowStride;
            x.get(off, row, 0, length);
            scratch.get(off, row, length, length);
            umain2.get(off, row, 2 * length, length);
            tot = addRow(row, length, tot);
        }
        return tot;
    }

    /**
     * Adds the elements of a row of each matrix, copied one after the other into {@code row}, to {@code sum} in the
     * C program's order. The rows are copied in bulk and summed here, over a plain array: the loop is compiled
     * small and once, where a loop over this processor's rows of three shared views, run once per run, was
     * compiled on stack replacement and compiled again, whole, in a later run, each time with every view's fault
     * path (0.1 to 0.5 s of C2 per warm run it fell in, on a loaded 2-core machine).
     */
    private static double addRow(final double[] row, final int length, final double sum)
    {
        double tot = sum;
        for (int re = 0; re < length; re += 2)
        {
            tot += row[re] + row[re + 1] + row[length + re] + row[length + re + 1] + row[2 * length + re] +
                row[2 * length + re + 1];
        }
        return tot;
    }

    /**
     * Transpose time accumulated by {@link #fft1d(int)}, in microseconds ({@code l_transtime}).
     *
     * @return the time.
     */
    long transtimeUs()
    {
        return transtimeUs;
    }

    /**
     * One forward ({@code direction} 1) or inverse ({@code -1}) six-step FFT of {@code x}; four barriers.
     *
     * @param direction 1 or -1.
     */
    void fft1d(final int direction)
    {
        final boolean timed = 0 == myNum || dostats;
        final int m1 = layout.log2Points / 2;
        final int n1 = 1 << m1;
        final int rowLength = 2 * (n1 + layout.padLength);
        long clocktime1 = 0;
        long clocktime2 = 0;

        out.print(CFormat.format("iter_num = %lu\n", myLast - myFirst));
        team.barrier();
        if (timed)
        {
            clocktime1 = SplashClock.micros();
        }

        transpose(n1, x, scratch);
        if (timed)
        {
            clocktime2 = SplashClock.micros();
            transtimeUs += clocktime2 - clocktime1;
            out.print(CFormat.format("Step 1: %8lu\n", clocktime2 - clocktime1));
        }

        if (isOutput)
        {
            // FFT1DOnce prints its count at its first call; the count is the same for every row (m butterflies
            // of n / 2 each), so it is printed here, where the branch stays out of the hot method's profile.
            out.print(CFormat.format("FFt1DOnce: iter_num = %lu\n", (long)m1 * (n1 / 2)));
            isOutput = false;
        }
        for (int j = myFirst; j < myLast; j++)
        {
            final int off = j * rowLength;
            scratch.get(off, row, 0, 2 * n1);
            umain2.get(off, twiddles, 0, 2 * n1);
            fft1dOnce(direction, m1, n1, row);
            twiddleOneCol(direction, n1, row, twiddles);
            scratch.set(off, row, 0, 2 * n1);
        }
        team.barrier();
        if (timed)
        {
            clocktime1 = SplashClock.micros();
            out.print(CFormat.format("Step 2: %8lu\n", clocktime1 - clocktime2));
        }

        transpose(n1, scratch, x);
        if (timed)
        {
            clocktime2 = SplashClock.micros();
            transtimeUs += clocktime2 - clocktime1;
            out.print(CFormat.format("Step 3: %8lu\n", clocktime2 - clocktime1));
        }

        for (int j = myFirst; j < myLast; j++)
        {
            final int off = j * rowLength;
            x.get(off, row, 0, 2 * n1);
            fft1dOnce(direction, m1, n1, row);
            if (-1 == direction)
            {
                scale(n1, layout.points, row);
            }
            x.set(off, row, 0, 2 * n1);
        }
        team.barrier();
        if (timed)
        {
            clocktime1 = SplashClock.micros();
            out.print(CFormat.format("Step 4: %8lu\n", clocktime1 - clocktime2));
        }

        transpose(n1, x, scratch);
        if (timed)
        {
            clocktime2 = SplashClock.micros();
            transtimeUs += clocktime2 - clocktime1;
            out.print(CFormat.format("Step 5: %8lu\n", clocktime2 - clocktime1));
        }
        team.barrier();

        if (copyBack)
        {
            for (int j = myFirst; j < myLast; j++)
            {
                // CopyColumn: the C code copies the row as a block.
                scratch.get(j * rowLength, column, 0, 2 * n1);
                x.set(j * rowLength, column, 0, 2 * n1);
            }
        }
        team.barrier();
    }

    /**
     * {@code TwiddleOneCol}: multiplies the row by its twiddle factors.
     */
    private static void twiddleOneCol(final int direction, final int n1, final double[] x, final double[] u)
    {
        final double dir = direction;
        for (int i = 0; i < n1; i++)
        {
            final double omegaR = u[2 * i];
            final double omegaC = dir * u[2 * i + 1];
            final double xr = x[2 * i];
            final double xc = x[2 * i + 1];
            x[2 * i] = omegaR * xr - omegaC * xc;
            x[2 * i + 1] = omegaR * xc + omegaC * xr;
        }
    }

    private static void scale(final int n1, final int n, final double[] x)
    {
        final double divisor = n;
        for (int i = 0; i < 2 * n1; i++)
        {
            x[i] = x[i] / divisor;
        }
    }

    /**
     * The staggered blocked transpose: first the blocks of the processors after this one, then those before it,
     * then its own; prints the iteration count of the first part as the C program does. Makes this processor's rows
     * of {@code dest} writable ({@link #rows}) for the row steps that follow it.
     */
    private void transpose(final int n1, final DoubleArray src, final DoubleArray dest)
    {
        final int rowLength = 2 * (n1 + layout.padLength);
        rows = dest.update(myFirst * rowLength, myLast * rowLength, rows);
        final int processors = layout.processors;
        int blksize = myLast - myFirst;
        int numblks = (2 * blksize) / layout.numCacheLines;
        if (numblks * layout.numCacheLines != 2 * blksize)
        {
            numblks++;
        }
        blksize = blksize / numblks;
        final int rowCount = n1 / processors;
        final int n1p = n1 + layout.padLength;
        long iterNum = 0;
        for (int l = myNum + 1; l < processors; l++)
        {
            iterNum += transposeBlocks(src, dest, l * rowCount, numblks, blksize, n1p);
        }
        out.print(CFormat.format("Transpose: iter_num = %lu\n", iterNum));
        for (int l = 0; l < myNum; l++)
        {
            transposeBlocks(src, dest, l * rowCount, numblks, blksize, n1p);
        }
        transposeBlocks(src, dest, myNum * rowCount, numblks, blksize, n1p);
    }

    private long transposeBlocks(
        final DoubleArray src,
        final DoubleArray dest,
        final int firstV,
        final int numblks,
        final int blksize,
        final int n1p)
    {
        if (0 == blksize)
        {
            // Too few cache lines for a block row: the C program's loops transpose nothing.
            return 0;
        }
        long iterNum = 0;
        int vOff = firstV;
        for (int k = 0; k < numblks; k++)
        {
            int hOff = myFirst;
            for (int m = 0; m < numblks; m++)
            {
                // One view of the block's source rows, from its first element to its last. The other processors'
                // columns in between share pages with this processor's while a row fits in about two pages; longer
                // rows fetch pages that only they hold.
                final int first = 2 * (vOff * n1p + hOff);
                final int last = 2 * ((vOff + blksize - 1) * n1p + hOff + blksize);
                // The view only makes the block's pages valid, in one fault for the range: the copies read the array.
                source = src.read(first, last, source);
                transposeBlock(src, dest, vOff, hOff, blksize, n1p);
                iterNum += (long)blksize * blksize;
                hOff += blksize;
            }
            vOff += blksize;
        }
        return iterNum;
    }

    /**
     * Copies the block of {@code blksize} rows from {@code vOff} and as many columns from {@code hOff} of the source
     * into the destination, transposed, a tile of {@link #TILE} by {@link #TILE} complex numbers at a time: the tile's
     * source rows are copied into a private tile, transposed there and copied to its destination rows in bulk. The
     * read view of the block made its source pages valid and the update view this processor's rows writable, so
     * the copies fault nothing.
     */
    private void transposeBlock(
        final DoubleArray src,
        final DoubleArray dest,
        final int vOff,
        final int hOff,
        final int blksize,
        final int n1p)
    {
        final double[] in = tileIn;
        final double[] out = tileOut;
        for (int i0 = 0; i0 < blksize; i0 += TILE)
        {
            final int tileRows = Math.min(TILE, blksize - i0);
            for (int j0 = 0; j0 < blksize; j0 += TILE)
            {
                final int tileColumns = Math.min(TILE, blksize - j0);
                for (int i = 0; i < tileRows; i++)
                {
                    src.get(2 * ((vOff + i0 + i) * n1p + hOff + j0), in, 2 * TILE * i, 2 * tileColumns);
                }
                transposeTile(in, out, tileRows, tileColumns);
                for (int j = 0; j < tileColumns; j++)
                {
                    dest.set(2 * ((hOff + j0 + j) * n1p + vOff + i0), out, 2 * TILE * j, 2 * tileRows);
                }
            }
        }
    }

    /**
     * Row {@code j} of {@code out} becomes column {@code j} of {@code in}, over {@code rows} rows and {@code columns}
     * columns of complex numbers, each tile row {@link #TILE} complex numbers long.
     */
    private static void transposeTile(final double[] in, final double[] out, final int rows, final int columns)
    {
        for (int j = 0; j < columns; j++)
        {
            final int o = 2 * TILE * j;
            for (int i = 0; i < rows; i++)
            {
                final int n = 2 * TILE * i + 2 * j;
                out[o + 2 * i] = in[n];
                out[o + 2 * i + 1] = in[n + 1];
            }
        }
    }

    private static int bitReverse(final int m, final int k)
    {
        int j = 0;
        int tmp = k;
        for (int i = 0; i < m; i++)
        {
            j = 2 * j + (tmp & 0x1);
            tmp = tmp >> 1;
        }
        return j;
    }

    private static void reverse(final int n, final int m, final double[] x)
    {
        for (int k = 0; k < n; k++)
        {
            final int j = bitReverse(m, k);
            if (j > k)
            {
                final int a = 2 * j;
                final int b = 2 * k;
                final double re = x[a];
                x[a] = x[b];
                x[b] = re;
                final double im = x[a + 1];
                x[a + 1] = x[b + 1];
                x[b + 1] = im;
            }
        }
    }

    /**
     * {@code FFT1DOnce}: the in-place radix-2 FFT of one row of {@code n} complex numbers.
     */
    private void fft1dOnce(final int direction, final int m, final int n, final double[] x)
    {
        final double[] u = upriv;
        final double dir = direction;
        reverse(n, m, x);
        for (int q = 1; q <= m; q++)
        {
            final int l = 1 << q;
            final int r = n / l;
            final int lstar = l / 2;
            final int u1 = 2 * (lstar - 1);
            for (int k = 0; k < r; k++)
            {
                final int x1 = 2 * (k * l);
                final int x2 = 2 * (k * l + lstar);
                for (int j = 0; j < lstar; j++)
                {
                    final double omegaR = u[u1 + 2 * j];
                    final double omegaC = dir * u[u1 + 2 * j + 1];
                    final double x2r = x[x2 + 2 * j];
                    final double x2c = x[x2 + 2 * j + 1];
                    final double tauR = omegaR * x2r - omegaC * x2c;
                    final double tauC = omegaR * x2c + omegaC * x2r;
                    final double x1r = x[x1 + 2 * j];
                    final double x1c = x[x1 + 2 * j + 1];
                    x[x2 + 2 * j] = x1r - tauR;
                    x[x2 + 2 * j + 1] = x1c - tauC;
                    x[x1 + 2 * j] = x1r + tauR;
                    x[x1 + 2 * j + 1] = x1c + tauC;
                }
            }
        }
    }
}
