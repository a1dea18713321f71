package org.viadsm.examples.lu;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the blocked LU factorization ({@code lu} and {@code TouchA} in the C program), with the
 * block kernels {@code lu0}, {@code bdiv}, {@code bmodd}, {@code bmod} and {@code daxpy}. A block is an array and
 * the offset of its first element; blocks are column-major with a stride equal to their number of rows.
 * <p>
 * The block kernels work on private copies of whole blocks, copied in bulk after each barrier: the block written
 * (after an update view made its pages writable, in one fault) and the blocks only read (the diagonal block's
 * factors, the pivot column and row blocks); the block written is copied back after its kernel. Loops over plain
 * arrays compile small and fast and run fast before they are compiled, where the same loops over views ran at tier
 * 3, interface calls per element, until their C2 compilations came through, which on a loaded 2-core machine was
 * in the first warm runs. The view is re-wrapped and the copies reused, so the factorization allocates nothing per
 * block.
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
    /** The block being written, made writable. */
    private DoubleView target;
    /** A copy of the block being written. */
    private final double[] targetBlock;
    /** A copy of the diagonal block (step 2), the pivot column block of the current row (step 3) or a block read. */
    private final double[] leftBlock;
    /** A copy of the pivot row block of the current column (step 3). */
    private final double[] upperBlock;

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
        // an empty view to re-wrap, so that no step passes null: the first step of a warm run would otherwise meet
        // the null case in code C2 compiled without it, trap (null_check) and recompile the step
        this.target = procArrays[0].update(0, 0);
        final int blockLength = layout.blockSize * layout.blockSize;
        this.targetBlock = new double[blockLength];
        this.leftBlock = new double[blockLength];
        this.upperBlock = new double[blockLength];
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
                    // the block's columns one after the other: the C program's order
                    tot = sum(copy(bigI + bigJ * nblocks, ibs * jbs, leftBlock), ibs * jbs, tot);
                }
            }
        }
        return tot;
    }

    /**
     * {@code lu}: factors the matrix in place, one block column at a time; two barriers per block column.
     * <p>
     * This method only sequences a step's three phases and two barriers; each phase's loops over blocks are a method
     * of their own, calling one or two kernels. Called once per run, with one iteration per block column, it reaches
     * C2's thresholds last (not compiled in 40 warm runs on 2 nodes). When it held the phases' loops, C2 compiled it
     * whole after 15 to 25 warm runs with every kernel inlined ({@code lu0}, {@code bdiv}, {@code bmodd},
     * {@code bmod} and four {@code daxpy}: 19 000 IR nodes), ran out of its budget for inlining
     * ({@code NodeCountInliningCutoff}, 18 000 nodes) and left the view accessors of the last {@code daxpy} as calls,
     * one per element: that node computed 10 times slower for the rest of the program. Compiled after any number of
     * runs, this method inlines at most {@code factorDiagonal} ({@code lu0}): C2 inlines no hot callee over 325 bytes
     * of bytecode ({@code FreqInlineSize}; {@code dividePerimeter} has 345) and no callee already compiled into more
     * than 2 500 bytes of code ({@code InlineSmallCode}; {@code modifyInterior} only calls
     * {@code modifyInteriorRow}, which runs hundreds of times per run and is compiled long before this method, into
     * more than that). So a compilation holds one phase's kernels at most; keep it so when changing a phase.
     */
    void lu()
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
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
            factorDiagonal(bigK, strK);
            if (timed)
            {
                t11 = SplashClock.micros();
            }
            team.barrier();
            if (timed)
            {
                t2 = SplashClock.micros();
            }
            dividePerimeter(kl, bigK, strK);
            if (timed)
            {
                t22 = SplashClock.micros();
            }
            team.barrier();
            if (timed)
            {
                t3 = SplashClock.micros();
            }
            modifyInterior(kl, bigK, strK);
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

    /**
     * Step {@code bigK}'s first phase: factors the diagonal block if this processor owns it.
     */
    private void factorDiagonal(final int bigK, final int strK)
    {
        final int diag = bigK + bigK * layout.nblocks;
        if (layout.blockOwner(bigK, bigK) == myNum)
        {
            target = update(diag, strK * strK, target);
            lu0(copy(diag, strK * strK, targetBlock), strK, strK);
            copyBack(diag, strK * strK, targetBlock);
        }
    }

    /**
     * Step {@code bigK}'s second phase: divides this processor's blocks of the pivot column and of the pivot row by
     * the diagonal block's factors. Each block is divided by its owner ({@link LuLayout#blockOwner}), where the C
     * program parcels the pivot column out by {@code BlockOwnerColumn(I) = I % P} and the pivot row by
     * {@code BlockOwnerRow(J) = (J % P + P / 2) % P}: on 2 processors with an even number of block columns every
     * block of row K is processor K % 2's, and the other processor divided half of them, in its array. Dividing by
     * owner keeps every write in the writer's own array (no diff); the arithmetic per block is the same, so the
     * factors are the same bit for bit.
     */
    private void dividePerimeter(final int kl, final int bigK, final int strK)
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        final int nblocks = layout.nblocks;
        final int diag = bigK + bigK * nblocks;
        boolean diagRead = false;
        for (int i = kl, bigI = bigK + 1; i < n; i += bs, bigI++)
        {
            if (layout.blockOwner(bigI, bigK) == myNum)
            {
                final int strI = Math.min(i + bs, n) - i;
                final int blk = bigI + bigK * nblocks;
                if (!diagRead)
                {
                    copy(diag, strK * strK, leftBlock);
                    diagRead = true;
                }
                target = update(blk, strI * strK, target);
                bdiv(copy(blk, strI * strK, targetBlock), leftBlock, strI, strK, strI, strK);
                copyBack(blk, strI * strK, targetBlock);
            }
        }
        for (int j = kl, bigJ = bigK + 1; j < n; j += bs, bigJ++)
        {
            if (layout.blockOwner(bigK, bigJ) == myNum)
            {
                final int strJ = Math.min(j + bs, n) - j;
                final int blk = bigK + bigJ * nblocks;
                if (!diagRead)
                {
                    copy(diag, strK * strK, leftBlock);
                    diagRead = true;
                }
                target = update(blk, strK * strJ, target);
                bmodd(leftBlock, copy(blk, strK * strJ, targetBlock), strK, strJ, strK, strK);
                copyBack(blk, strK * strJ, targetBlock);
            }
        }
    }

    /**
     * Step {@code bigK}'s third phase: subtracts from each of this processor's interior blocks the product of its
     * pivot column block and pivot row block, one block row per call of {@link #modifyInteriorRow}.
     */
    private void modifyInterior(final int kl, final int bigK, final int strK)
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        for (int i = kl, bigI = bigK + 1; i < n; i += bs, bigI++)
        {
            modifyInteriorRow(i, bigI, kl, bigK, strK);
        }
    }

    /**
     * Block row {@code bigI} of step {@code bigK}'s third phase. A method of its own, called once per block row: the
     * phase, called once per step, would otherwise be compiled on stack replacement in a warm run and again whole in
     * a later one (a 10 KB and a 7 to 9 KB compile on 2 nodes); this method is compiled whole, once, into more than
     * 2 500 bytes of code, which C2 inlines into no caller compiled later ({@code InlineSmallCode}), so that a
     * compilation of the phase or of {@code lu()} does not hold its kernels.
     */
    private void modifyInteriorRow(final int i, final int bigI, final int kl, final int bigK, final int strK)
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        final int nblocks = layout.nblocks;
        final int strI = Math.min(i + bs, n) - i;
        final int blkA = bigI + bigK * nblocks;
        boolean columnRead = false;
        for (int j = kl, bigJ = bigK + 1; j < n; j += bs, bigJ++)
        {
            final int strJ = Math.min(j + bs, n) - j;
            if (layout.blockOwner(bigI, bigJ) == myNum)
            {
                final int blkB = bigK + bigJ * nblocks;
                final int blkC = bigI + bigJ * nblocks;
                if (!columnRead)
                {
                    copy(blkA, strI * strK, leftBlock);
                    columnRead = true;
                }
                copy(blkB, strK * strJ, upperBlock);
                target = update(blkC, strI * strJ, target);
                bmod(leftBlock, upperBlock, copy(blkC, strI * strJ, targetBlock), strI, strJ, strK, strI, strK, strI);
                copyBack(blkC, strI * strJ, targetBlock);
            }
        }
    }

    /**
     * Adds the first {@code n} elements of a copied block to {@code sum}, one after the other.
     */
    private static double sum(final double[] a, final int n, final double sum)
    {
        double tot = sum;
        for (int i = 0; i < n; i++)
        {
            tot += a[i];
        }
        return tot;
    }

    /**
     * Copies the first {@code length} elements of a block into {@code copy}, making its pages valid.
     *
     * @return {@code copy}.
     */
    private double[] copy(final int block, final int length, final double[] copy)
    {
        blockArray[block].get(blockOffset[block], copy, 0, length);
        return copy;
    }

    /**
     * Copies the first {@code length} elements of {@code copy} back into a block the update view made writable.
     */
    private void copyBack(final int block, final int length, final double[] copy)
    {
        blockArray[block].set(blockOffset[block], copy, 0, length);
    }

    private DoubleView update(final int block, final int length, final DoubleView reuse)
    {
        final int off = blockOffset[block];
        return blockArray[block].update(off, off + length, reuse);
    }

    /**
     * Factors the diagonal block in place.
     */
    static void lu0(final double[] a, final int n, final int stride)
    {
        for (int k = 0; k < n; k++)
        {
            for (int j = k + 1; j < n; j++)
            {
                final int kj = k + j * stride;
                a[kj] = a[kj] / a[k + k * stride];
                final double alpha = -a[kj];
                daxpy(a, kj + 1, a, k + 1 + k * stride, n - k - 1, alpha);
            }
        }
    }

    /**
     * Divides a pivot column block by the diagonal block's factors.
     */
    static void bdiv(
        final double[] a,
        final double[] diag,
        final int strideA,
        final int strideDiag,
        final int dimi,
        final int dimk)
    {
        for (int k = 0; k < dimk; k++)
        {
            bdivStep(a, diag, strideA, strideDiag, dimi, dimk, k);
        }
    }

    /**
     * Step {@code k} of {@link #bdiv}: subtracts column {@code k}'s multiples from the columns after it. A method of
     * its own, called a block's width of times per call of {@code bdiv}: it is compiled whole in the first run,
     * where {@code bdiv}'s nested loops, called a few hundred times per run on each of 2 nodes, were compiled on
     * stack replacement and compiled again, whole, in the second or third run.
     */
    private static void bdivStep(
        final double[] a,
        final double[] diag,
        final int strideA,
        final int strideDiag,
        final int dimi,
        final int dimk,
        final int k)
    {
        for (int j = k + 1; j < dimk; j++)
        {
            final double alpha = -diag[k + j * strideDiag];
            daxpy(a, j * strideA, a, k * strideA, dimi, alpha);
        }
    }

    /**
     * Divides a pivot row block by the diagonal block's factors.
     */
    static void bmodd(
        final double[] a,
        final double[] c,
        final int dimi,
        final int dimj,
        final int strideA,
        final int strideC)
    {
        for (int k = 0; k < dimi; k++)
        {
            bmoddStep(a, c, dimi, dimj, strideA, strideC, k);
        }
    }

    /**
     * Step {@code k} of {@link #bmodd}: divides row {@code k} of every column by the diagonal and subtracts its
     * multiple from the rows below; a method of its own for the reason {@link #bdivStep} is.
     */
    private static void bmoddStep(
        final double[] a,
        final double[] c,
        final int dimi,
        final int dimj,
        final int strideA,
        final int strideC,
        final int k)
    {
        for (int j = 0; j < dimj; j++)
        {
            final int kj = k + j * strideC;
            c[kj] = c[kj] / a[k + k * strideA];
            final double alpha = -c[kj];
            daxpy(c, kj + 1, a, k + 1 + k * strideA, dimi - k - 1, alpha);
        }
    }

    static void bmod(
        final double[] a,
        final double[] b,
        final double[] c,
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
                final double alpha = -b[k + j * strideB];
                daxpy(c, j * strideC, a, k * strideA, dimi, alpha);
            }
        }
    }

    /**
     * {@code a[aOff + i] += alpha * b[bOff + i]} for {@code i} in {@code [0, n)}.
     */
    static void daxpy(
        final double[] a, final int aOff, final double[] b, final int bOff, final int n, final double alpha)
    {
        for (int i = 0; i < n; i++)
        {
            a[aOff + i] = a[aOff + i] + alpha * b[bOff + i];
        }
    }
}
