package org.viadsm.examples.fft;

/**
 * The FFT's derived sizes, computed as the C program's {@code main} computes them: points, matrix edge, rows per
 * processor, the transpose blocking factor and the padding that makes every processor's rows end on a page
 * boundary. Rejects what the C program rejects, and what would crash it or not fit a Java array.
 */
final class FftLayout
{
    static final int PAGE_SIZE = 4096;
    static final int COMPLEX_BYTES = 16;
    private static final int MAX_LOG2_LINE_SIZE = 30;
    private static final int MAX_LOG2_POINTS = 30;

    final int log2Points;
    final int processors;
    final int points;
    final int rootN;
    final int rowsPerProc;
    final int lineSize;
    final int origNumLines;
    final int numCacheLines;
    final int padLength;
    /** Doubles in each of x, trans and umain2: {@code 2 * (N + rootN * pad_length)}. */
    final int matrixLength;

    FftLayout(final int log2Points, final int processors, final int numCacheLines, final int log2LineSize)
    {
        if (processors < 1 || Integer.bitCount(processors) != 1)
        {
            throw new IllegalArgumentException("P must be a power of 2: team size " + processors);
        }
        if (log2Points < 0 || 0 != (log2Points & 1))
        {
            throw new IllegalArgumentException("-m " + log2Points + ": M must be even and >= 0");
        }
        if (numCacheLines < 1)
        {
            throw new IllegalArgumentException("-n " + numCacheLines + ": number of cache lines must be >= 1");
        }
        if (log2LineSize < 0 || log2LineSize > MAX_LOG2_LINE_SIZE)
        {
            throw new IllegalArgumentException("-l " + log2LineSize + ": log base 2 of cache line length in bytes " +
                "must be in [0, " + MAX_LOG2_LINE_SIZE + "]");
        }
        if (log2Points > MAX_LOG2_POINTS)
        {
            throw new IllegalArgumentException("-m " + log2Points + ": too many points for a Java array");
        }
        this.log2Points = log2Points;
        this.processors = processors;
        final long n = 1L << log2Points;
        final long root = 1L << (log2Points / 2);
        final long rows = root / processors;
        if (0 == rows)
        {
            throw new IllegalArgumentException("Matrix not large enough. 2**(M/2) must be >= P: -m " + log2Points +
                ", team size " + processors);
        }
        this.rootN = (int)root;
        this.rowsPerProc = (int)rows;
        this.lineSize = 1 << log2LineSize;
        this.origNumLines = numCacheLines;
        if (lineSize < COMPLEX_BYTES)
        {
            final int factor = COMPLEX_BYTES / lineSize;
            this.numCacheLines = numCacheLines / factor;
            if (0 == this.numCacheLines)
            {
                throw new IllegalArgumentException("-n " + numCacheLines + " with -l " + log2LineSize +
                    " leaves no cache line for the blocking transpose");
            }
        }
        else
        {
            this.numCacheLines = numCacheLines;
        }
        long pad = lineSize <= COMPLEX_BYTES ? 1 : lineSize / COMPLEX_BYTES;
        if (rows * root * COMPLEX_BYTES >= PAGE_SIZE)
        {
            long pages = (2 * pad * Double.BYTES * rows) / PAGE_SIZE;
            if (pages * PAGE_SIZE != 2 * pad * Double.BYTES * rows)
            {
                pages++;
            }
            pad = (pages * PAGE_SIZE) / (COMPLEX_BYTES * rows);
        }
        else
        {
            pad = (PAGE_SIZE - (rows * root * COMPLEX_BYTES)) / (COMPLEX_BYTES * rows);
            if (pad * (COMPLEX_BYTES * rows) != (PAGE_SIZE - (rows * root * COMPLEX_BYTES)))
            {
                throw new IllegalArgumentException("Padding algorithm unsuccessful: -m " + log2Points +
                    ", team size " + processors);
            }
        }
        final long length = 2 * (n + root * pad);
        if (length > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("-m " + log2Points + " with -l " + log2LineSize +
                " needs " + length + " doubles per matrix: too many for a Java array");
        }
        this.points = (int)n;
        this.padLength = (int)pad;
        this.matrixLength = (int)length;
    }

    /**
     * The processor whose rows hold an element of x, trans or umain2: rows {@code [p * rowsPerProc, (p + 1) *
     * rowsPerProc)} are processor {@code p}'s, which transforms them and receives them in the transposes.
     *
     * @param element an index into one of the matrices.
     * @return the owning processor.
     */
    int rowOwner(final int element)
    {
        final long row = element / (2L * (rootN + padLength));
        return (int)Math.min(processors - 1, row / rowsPerProc);
    }

    /**
     * Whether the C program prints its warning that a cache line holds less than one complex double.
     *
     * @return true if the line size is below 16 bytes.
     */
    boolean lineWarning()
    {
        return lineSize < COMPLEX_BYTES;
    }
}
