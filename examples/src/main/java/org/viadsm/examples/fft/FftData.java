package org.viadsm.examples.fft;

import java.io.PrintStream;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.CFormat;
import org.viadsm.examples.runtime.Drand48;

/**
 * The FFT's sequential parts, run by the master: input generation, roots of unity, checksum and printing. The
 * matrices are {@code rootN} rows of {@code rootN} complex numbers (re, im), each row padded to
 * {@code rootN + pad_length} complex numbers.
 */
final class FftData
{
    private FftData()
    {
    }

    /**
     * {@code InitX}: {@code srand48(0)}, then re and im of every point from {@code drand48()}, row by row.
     */
    static void initX(final FftLayout layout, final DoubleArray x)
    {
        final Drand48 random = new Drand48(0);
        final int rootN = layout.rootN;
        for (int j = 0; j < rootN; j++)
        {
            final int k = j * (rootN + layout.padLength);
            for (int i = 0; i < rootN; i++)
            {
                x.set(2 * (k + i), random.drand48());
                x.set(2 * (k + i) + 1, random.drand48());
            }
        }
    }

    /**
     * {@code InitU}: the roots of unity of the 1D FFTs, level by level, up to {@code rootN - 1} entries.
     */
    static void initU(final FftLayout layout, final DoubleArray u)
    {
        final int rootN = layout.rootN;
        for (int q = 0; 1L << q < layout.points; q++)
        {
            final int n1 = 1 << q;
            final int base = n1 - 1;
            for (int j = 0; j < n1; j++)
            {
                if (base + j > rootN - 1)
                {
                    return;
                }
                final double angle = 2.0 * FftKernel.PI * j / (2 * n1);
                u.set(2 * (base + j), Math.cos(angle));
                u.set(2 * (base + j) + 1, -Math.sin(angle));
            }
        }
    }

    /**
     * {@code InitU2}: the twiddle factors of the whole matrix, laid out like it.
     */
    static void initU2(final FftLayout layout, final DoubleArray u)
    {
        final int n1 = layout.rootN;
        final double n = layout.points;
        for (int j = 0; j < n1; j++)
        {
            final int k = j * (n1 + layout.padLength);
            for (int i = 0; i < n1; i++)
            {
                final double angle = 2.0 * FftKernel.PI * i * j / n;
                u.set(2 * (k + i), Math.cos(angle));
                u.set(2 * (k + i) + 1, -Math.sin(angle));
            }
        }
    }

    /**
     * {@code CheckSum}: the sum of re + im over all points, row by row.
     *
     * @return the sum.
     */
    static double checkSum(final FftLayout layout, final DoubleArray x)
    {
        final int rootN = layout.rootN;
        double cks = 0.0;
        for (int j = 0; j < rootN; j++)
        {
            final int k = j * (rootN + layout.padLength);
            for (int i = 0; i < rootN; i++)
            {
                cks += x.get(2 * (k + i)) + x.get(2 * (k + i) + 1);
            }
        }
        return cks;
    }

    /**
     * {@code PrintArray}: every point as {@code " %4.2f %4.2f"}, comma separated, eight to a line.
     */
    static void printArray(final FftLayout layout, final DoubleArray x, final PrintStream out)
    {
        final int rootN = layout.rootN;
        final long n = layout.points;
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < rootN; i++)
        {
            final int k = i * (rootN + layout.padLength);
            for (int j = 0; j < rootN; j++)
            {
                text.append(CFormat.format(" %4.2f %4.2f", x.get(2 * (k + j)), x.get(2 * (k + j) + 1)));
                final long index = (long)i * rootN + j;
                if (index != n - 1)
                {
                    text.append(',');
                }
                if (0 == (index + 1) % 8)
                {
                    text.append('\n');
                }
            }
        }
        text.append("\n\n");
        out.print(text);
    }
}
