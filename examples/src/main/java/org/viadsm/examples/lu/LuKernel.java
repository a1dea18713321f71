package org.viadsm.examples.lu;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the blocked LU factorization ({@code lu} and {@code TouchA} in the C program), with the
 * block kernels {@code lu0}, {@code bdiv}, {@code bmodd}, {@code bmod} and {@code daxpy}. A block is an array and
 * the offset of its first element; blocks are column-major with a stride equal to their number of rows.
 * <p>
 * <b>Note:</b> used by the one thread that runs its member.
 */
final class LuKernel
{
    private final Team team;
    private final LuLayout layout;
    private final DoubleArray[] blockArray;
    private final int[] blockOffset;
    private final int myNum;
    private final boolean dostats;

    double tInFac;
    double tInSolve;
    double tInMod;
    double tInBar;

    LuKernel(final Team team, final LuLayout layout, final DoubleArray[] procArrays, final boolean dostats)
    {
        this.team = team;
        this.layout = layout;
        this.myNum = team.id();
        this.dostats = dostats;
        final int blocks = layout.nblocks * layout.nblocks;
        this.blockArray = new DoubleArray[blocks];
        this.blockOffset = layout.blockOffset;
        for (int b = 0; b < blocks; b++)
        {
            blockArray[b] = procArrays[layout.blockProc[b]];
        }
    }

    /**
     * {@code TouchA}: reads every element of this processor's blocks once.
     *
     * @return the sum of what was read.
     */
    double touchA()
    {
        final int nblocks = layout.nblocks;
        final int n = layout.n;
        final int bs = layout.blockSize;
        double tot = 0.0;
        for (int bigJ = 0; bigJ < nblocks; bigJ++)
        {
            for (int bigI = 0; bigI < nblocks; bigI++)
            {
                if (layout.blockOwner(bigI, bigJ) == myNum)
                {
                    final int jbs = bigJ == nblocks - 1 && 0 != n % bs ? n % bs : bs;
                    final int ibs = bigI == nblocks - 1 && 0 != n % bs ? n % bs : bs;
                    final DoubleArray a = blockArray[bigI + bigJ * nblocks];
                    final int off = blockOffset[bigI + bigJ * nblocks];
                    for (int j = 0; j < jbs; j++)
                    {
                        for (int i = 0; i < ibs; i++)
                        {
                            tot += a.get(off + i + j * ibs);
                        }
                    }
                }
            }
        }
        return tot;
    }

    /**
     * {@code lu}: factors the matrix in place, one block column at a time; two barriers per block column.
     */
    void lu()
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        final int nblocks = layout.nblocks;
        final boolean timed = 0 == myNum || dostats;
        long t1 = 0;
        long t11 = 0;
        long t2 = 0;
        long t22 = 0;
        long t3 = 0;
        for (int k = 0, bigK = 0; k < n; k += bs, bigK++)
        {
            final int kl = Math.min(k + bs, n);
            final int strK = kl - k;
            if (timed)
            {
                t1 = SplashClock.micros();
            }

            final int diag = bigK + bigK * nblocks;
            if (layout.blockOwner(bigK, bigK) == myNum)
            {
                lu0(blockArray[diag], blockOffset[diag], strK, strK);
            }
            if (timed)
            {
                t11 = SplashClock.micros();
            }
            team.barrier();
            if (timed)
            {
                t2 = SplashClock.micros();
            }

            final DoubleArray d = blockArray[diag];
            final int dOff = blockOffset[diag];
            for (int i = kl, bigI = bigK + 1; i < n; i += bs, bigI++)
            {
                if (layout.blockOwnerColumn(bigI) == myNum)
                {
                    final int strI = Math.min(i + bs, n) - i;
                    final int blk = bigI + bigK * nblocks;
                    bdiv(blockArray[blk], blockOffset[blk], d, dOff, strI, strK, strI, strK);
                }
            }
            for (int j = kl, bigJ = bigK + 1; j < n; j += bs, bigJ++)
            {
                if (layout.blockOwnerRow(bigJ) == myNum)
                {
                    final int strJ = Math.min(j + bs, n) - j;
                    final int blk = bigK + bigJ * nblocks;
                    bmodd(d, dOff, blockArray[blk], blockOffset[blk], strK, strJ, strK, strK);
                }
            }
            if (timed)
            {
                t22 = SplashClock.micros();
            }
            team.barrier();
            if (timed)
            {
                t3 = SplashClock.micros();
            }

            for (int i = kl, bigI = bigK + 1; i < n; i += bs, bigI++)
            {
                final int strI = Math.min(i + bs, n) - i;
                final int blkA = bigI + bigK * nblocks;
                final DoubleArray a = blockArray[blkA];
                final int aOff = blockOffset[blkA];
                for (int j = kl, bigJ = bigK + 1; j < n; j += bs, bigJ++)
                {
                    final int strJ = Math.min(j + bs, n) - j;
                    if (layout.blockOwner(bigI, bigJ) == myNum)
                    {
                        final int blkB = bigK + bigJ * nblocks;
                        final int blkC = bigI + bigJ * nblocks;
                        bmod(a, aOff, blockArray[blkB], blockOffset[blkB], blockArray[blkC], blockOffset[blkC],
                            strI, strJ, strK, strI, strK, strI);
                    }
                }
            }
            if (timed)
            {
                final long t4 = SplashClock.micros();
                tInFac += t11 - t1;
                tInSolve += t22 - t2;
                tInMod += t4 - t3;
                tInBar += (t2 - t11) + (t3 - t22);
            }
        }
    }

    static void lu0(final DoubleArray a, final int aOff, final int n, final int stride)
    {
        for (int k = 0; k < n; k++)
        {
            for (int j = k + 1; j < n; j++)
            {
                final int kj = aOff + k + j * stride;
                a.set(kj, a.get(kj) / a.get(aOff + k + k * stride));
                final double alpha = -a.get(kj);
                daxpy(a, kj + 1, a, aOff + k + 1 + k * stride, n - k - 1, alpha);
            }
        }
    }

    static void bdiv(
        final DoubleArray a,
        final int aOff,
        final DoubleArray diag,
        final int diagOff,
        final int strideA,
        final int strideDiag,
        final int dimi,
        final int dimk)
    {
        for (int k = 0; k < dimk; k++)
        {
            for (int j = k + 1; j < dimk; j++)
            {
                final double alpha = -diag.get(diagOff + k + j * strideDiag);
                daxpy(a, aOff + j * strideA, a, aOff + k * strideA, dimi, alpha);
            }
        }
    }

    static void bmodd(
        final DoubleArray a,
        final int aOff,
        final DoubleArray c,
        final int cOff,
        final int dimi,
        final int dimj,
        final int strideA,
        final int strideC)
    {
        for (int k = 0; k < dimi; k++)
        {
            for (int j = 0; j < dimj; j++)
            {
                final int kj = cOff + k + j * strideC;
                c.set(kj, c.get(kj) / a.get(aOff + k + k * strideA));
                final double alpha = -c.get(kj);
                daxpy(c, kj + 1, a, aOff + k + 1 + k * strideA, dimi - k - 1, alpha);
            }
        }
    }

    static void bmod(
        final DoubleArray a,
        final int aOff,
        final DoubleArray b,
        final int bOff,
        final DoubleArray c,
        final int cOff,
        final int dimi,
        final int dimj,
        final int dimk,
        final int strideA,
        final int strideB,
        final int strideC)
    {
        for (int k = 0; k < dimk; k++)
        {
            for (int j = 0; j < dimj; j++)
            {
                final double alpha = -b.get(bOff + k + j * strideB);
                daxpy(c, cOff + j * strideC, a, aOff + k * strideA, dimi, alpha);
            }
        }
    }

    static void daxpy(
        final DoubleArray a, final int aOff, final DoubleArray b, final int bOff, final int n, final double alpha)
    {
        for (int i = 0; i < n; i++)
        {
            a.set(aOff + i, a.get(aOff + i) + alpha * b.get(bOff + i));
        }
    }
}
