package org.viadsm.examples.lu;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Drand48;
import org.viadsm.examples.runtime.VerificationException;

/**
 * The LU program's sequential parts, run by the master: the input matrix and right-hand side ({@code InitA}),
 * printing ({@code PrintA}) and the residual test ({@code CheckResult}). Element (i, j) is found through
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

    private void set(final int i, final int j, final double value)
    {
        final int block = layout.elementBlock(i, j);
        blockArray[block].set(layout.blockOffset[block] + layout.elementOffset(i, j), value);
    }

    /**
     * {@code InitA}: {@code srand48(1)}, the matrix column by column from {@code lrand48() / 32767.0} with the
     * diagonal times 10, and the row sums as right-hand side, so that the solution is all ones.
     */
    void initA(final DoubleArray rhs)
    {
        final int n = layout.n;
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
                set(i, j, value);
            }
        }
        for (int j = 0; j < n; j++)
        {
            rhs.set(j, 0.0);
        }
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                rhs.set(i, rhs.get(i) + get(i, j));
            }
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
