package org.viadsm.examples.lu;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Drand48;
import org.viadsm.examples.runtime.VerificationException;

/**
 * The LU program's parts outside the factorization: the input matrix and right-hand side ({@code InitA}, run by
 * every member for its own blocks), and, run by the master, printing ({@code PrintA}) and the residual test
 * ({@code CheckResult}). Element (i, j) is found through
 * {@link LuLayout#elementBlock(int, int)} and {@link LuLayout#elementOffset(int, int)}.
 */
final class LuMatrix
{
    /** {@code MAXRAND}: lrand48() has 31 bits, so entries reach about 65538. */
    static final double MAXRAND = 32767.0;
    static final double TOLERANCE = 0.00001;

    private final LuLayout layout;
    private final DoubleArray[] blockArray;

    LuMatrix(final LuLayout layout, final DoubleArray[] procArrays)
    {
        this.layout = layout;
        final int blocks = layout.nblocks * layout.nblocks;
        this.blockArray = new DoubleArray[blocks];
        for (int b = 0; b < blocks; b++)
        {
            blockArray[b] = procArrays[layout.blockProc[b]];
        }
    }

    private double get(final int i, final int j)
    {
        final int block = layout.elementBlock(i, j);
        return blockArray[block].get(layout.blockOffset[block] + layout.elementOffset(i, j));
    }

    /**
     * {@code InitA}, by owners: {@code srand48(1)}, the matrix column by column from {@code lrand48() / 32767.0} with
     * the diagonal times 10, and the row sums as right-hand side, so that the solution is all ones. Each member runs
     * the generator over every element, as the C program's master does, and stores only the column stretches of the
     * blocks it owns, so the matrix is the C program's bit for bit and no member writes another's array. The member
     * given the right-hand side (the master) sums each row in private, in the C program's order (column by column),
     * and stores the sums once.
     *
     * @param member the member storing its blocks.
     * @param rhs    the right-hand side to compute and store, or null if this member does not.
     */
    void initA(final int member, final DoubleArray rhs)
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        final int nblocks = layout.nblocks;
        final double[] column = new double[n];
        final double[] sums = null == rhs ? null : new double[n];
        final Drand48 random = new Drand48(1);
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                double value = random.lrand48() / MAXRAND;
                if (i == j)
                {
                    value *= 10;
                }
                column[i] = value;
            }
            final int bigJ = j / bs;
            for (int bigI = 0, i = 0; bigI < nblocks; bigI++, i += bs)
            {
                final int block = bigI + bigJ * nblocks;
                if (layout.blockProc[block] == member)
                {
                    blockArray[block].set(layout.blockOffset[block] + layout.elementOffset(i, j), column, i,
                        Math.min(i + bs, n) - i);
                }
            }
            if (null != sums)
            {
                for (int i = 0; i < n; i++)
                {
                    sums[i] += column[i];
                }
            }
        }
        if (null != rhs)
        {
            rhs.set(0, sums, 0, n);
        }
    }

    /**
     * {@code PrintA}: every element as {@code "%8.1f "}, row by row.
     */
    void printA(final PrintStream out)
    {
        final int n = layout.n;
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < n; i++)
        {
            line.setLength(0);
            for (int j = 0; j < n; j++)
            {
                line.append(CFormat.format("%8.1f ", get(i, j)));
            }
            line.append('\n');
            out.print(line);
        }
        out.flush();
    }

    /**
     * {@code CheckResult}: solves L U y = rhs by forward and back substitution and prints {@code TEST PASSED} if
     * every |y_i - 1| is at most 1e-5, else {@code TEST FAILED} with the last offending difference.
     *
     * @throws VerificationException if the test failed.
     */
    void checkResult(final DoubleArray rhs, final PrintStream out)
    {
        final int n = layout.n;
        final double[] y = new double[n];
        rhs.get(0, y, 0, n);
        for (int j = 0; j < n; j++)
        {
            y[j] = y[j] / get(j, j);
            for (int i = j + 1; i < n; i++)
            {
                y[i] -= get(i, j) * y[j];
            }
        }
        for (int j = n - 1; j >= 0; j--)
        {
            for (int i = 0; i < j; i++)
            {
                y[i] -= get(i, j) * y[j];
            }
        }
        boolean bogus = false;
        double maxDiff = 0.0;
        int bogusIndex = -1;
        for (int j = 0; j < n; j++)
        {
            final double diff = y[j] - 1.0;
            if (Math.abs(diff) > TOLERANCE)
            {
                bogus = true;
                maxDiff = diff;
                bogusIndex = j;
            }
        }
        if (bogus)
        {
            out.print(CFormat.format("TEST FAILED: (%.5f diff)\n", maxDiff));
            throw new VerificationException("LU residual test failed: x[" + bogusIndex + "] - 1 = " + maxDiff +
                " exceeds " + TOLERANCE);
        }
        out.print("TEST PASSED\n");
    }
}
