package org.viadsm.examples.sor;

/**
 * The self-check's reference: the same SOR on a plain Java array, one thread, no shared memory, rows in order.
 */
final class SequentialSor
{
    private SequentialSor()
    {
    }

    /**
     * Runs SOR sequentially and returns its checksum, computed as the parallel run computes it.
     *
     * @param rows       interior rows.
     * @param cols       interior columns.
     * @param iterations red-black iterations.
     * @param omega      relaxation factor.
     * @return the checksum.
     */
    static double checksum(final int rows, final int cols, final int iterations, final double omega)
    {
        final int stride = cols + 2;
        final double[] a = new double[(rows + 2) * stride];
        for (int i = 0; i <= rows + 1; i++)
        {
            for (int j = 0; j <= cols + 1; j++)
            {
                final boolean edge = 0 == i || rows + 1 == i || 0 == j || cols + 1 == j;
                a[i * stride + j] = edge ? RedBlackGrid.boundary(i, j, rows, cols) : 0.0;
            }
        }
        for (int iter = 0; iter < iterations; iter++)
        {
            for (int colour = RedBlackGrid.RED; colour <= RedBlackGrid.BLACK; colour++)
            {
                for (int i = 1; i <= rows; i++)
                {
                    for (int j = 1; j <= cols; j++)
                    {
                        if (colour == ((i + j) & 1))
                        {
                            final int x = i * stride + j;
                            a[x] = RedBlackGrid.relax(a[x - stride], a[x + stride], a[x - 1], a[x + 1], a[x], omega);
                        }
                    }
                }
            }
        }
        final double[] rowSums = new double[rows];
        for (int i = 1; i <= rows; i++)
        {
            rowSums[i - 1] = RedBlackGrid.sumRow(a, i * stride + 1, cols);
        }
        return RedBlackGrid.sumRow(rowSums, 0, rows);
    }
}
