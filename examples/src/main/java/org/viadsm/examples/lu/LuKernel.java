package org.viadsm.examples.lu;

import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the blocked LU factorization ({@code lu} and {@code TouchA} in the C program), with the
 * block kernels {@code lu0}, {@code bdiv}, {@code bmodd}, {@code bmod} and {@code daxpy}. A block is an array and
 * the offset of its first element; blocks are column-major with a stride equal to their number of rows.
 * <p>
 * The block kernels work on views of whole blocks, made after each barrier: an update view of the block written
 * and read views of the blocks only read (the diagonal block's factors, the pivot column and row blocks). Reads
 * always go through read views and writes through update views, so each access site in {@code daxpy} sees one
 * kind of view. The views are re-wrapped, so the factorization allocates nothing per block.
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
    /** The block being written. */
    private DoubleView target;
    /** The block being written, for the reads of {@code daxpy} in {@code lu0} and {@code bdiv}. */
    private DoubleReadView targetRead;
    /** The diagonal block (step 2) or the pivot column block of the current row (step 3). */
    private DoubleReadView left;
    /** The pivot row block of the current column (step 3). */
    private DoubleReadView upper;

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
        // empty views to re-wrap, so that no step passes null: the first step of a warm run would otherwise meet the
        // null case in code C2 compiled without it, trap (null_check) and recompile the step
        final DoubleArray any = procArrays[0];
        this.target = any.update(0, 0);
        this.targetRead = any.read(0, 0);
        this.left = any.read(0, 0);
        this.upper = any.read(0, 0);
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
                    left = read(bigI + bigJ * nblocks, ibs * jbs, left);
                    final DoubleReadView a = left;
                    final int off = blockOffset[bigI + bigJ * nblocks];
                    for (int j = 0; j < jbs; j++)
                    {
                        tot = touchColumn(a, off + j * ibs, ibs, tot);
                    }
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
            targetRead = read(diag, strK * strK, targetRead);
            lu0(target, targetRead, blockOffset[diag], strK, strK);
        }
    }

    /**
     * Step {@code bigK}'s second phase: divides this processor's blocks of the pivot column and of the pivot row by
     * the diagonal block's factors.
     */
    private void dividePerimeter(final int kl, final int bigK, final int strK)
    {
        final int n = layout.n;
        final int bs = layout.blockSize;
        final int nblocks = layout.nblocks;
        final int diag = bigK + bigK * nblocks;
        final int dOff = blockOffset[diag];
        boolean diagRead = false;
        for (int i = kl, bigI = bigK + 1; i < n; i += bs, bigI++)
        {
            if (layout.blockOwnerColumn(bigI) == myNum)
            {
                final int strI = Math.min(i + bs, n) - i;
                final int blk = bigI + bigK * nblocks;
                if (!diagRead)
                {
                    left = read(diag, strK * strK, left);
                    diagRead = true;
                }
                target = update(blk, strI * strK, target);
                targetRead = read(blk, strI * strK, targetRead);
                bdiv(target, targetRead, blockOffset[blk], left, dOff, strI, strK, strI, strK);
            }
        }
        for (int j = kl, bigJ = bigK + 1; j < n; j += bs, bigJ++)
        {
            if (layout.blockOwnerRow(bigJ) == myNum)
            {
                final int strJ = Math.min(j + bs, n) - j;
                final int blk = bigK + bigJ * nblocks;
                if (!diagRead)
                {
                    left = read(diag, strK * strK, left);
                    diagRead = true;
                }
                target = update(blk, strK * strJ, target);
                bmodd(left, dOff, target, blockOffset[blk], strK, strJ, strK, strK);
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
        final int aOff = blockOffset[blkA];
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
                    left = read(blkA, strI * strK, left);
                    columnRead = true;
                }
                upper = read(blkB, strK * strJ, upper);
                target = update(blkC, strI * strJ, target);
                bmod(left, aOff, upper, blockOffset[blkB], target, blockOffset[blkC],
                    strI, strJ, strK, strI, strK, strI);
            }
        }
    }

    /**
     * Adds a column of a block to {@code sum}, element by element. A method of its own, called once a column: it is
     * compiled whole early in the first run, where the loop over all of the processor's blocks, run once per run, was
     * compiled on stack replacement in a warm run and compiled again, whole, in a later one.
     *
     * @param a   a read view of the block.
     * @param off the column's first element.
     * @param n   the column's length.
     * @param sum the sum so far.
     * @return {@code sum} plus the column's elements.
     */
    private static double touchColumn(final DoubleReadView a, final int off, final int n, final double sum)
    {
        double tot = sum;
        for (int i = 0; i < n; i++)
        {
            tot += a.get(off + i);
        }
        return tot;
    }

    private DoubleReadView read(final int block, final int length, final DoubleReadView reuse)
    {
        final int off = blockOffset[block];
        return blockArray[block].read(off, off + length, reuse);
    }

    private DoubleView update(final int block, final int length, final DoubleView reuse)
    {
        final int off = blockOffset[block];
        return blockArray[block].update(off, off + length, reuse);
    }

    /**
     * Factors the diagonal block in place: {@code a} and {@code r} are views of the same block, {@code r} for the
     * reads of {@code daxpy}.
     */
    static void lu0(final DoubleView a, final DoubleReadView r, final int aOff, final int n, final int stride)
    {
        for (int k = 0; k < n; k++)
        {
            for (int j = k + 1; j < n; j++)
            {
                final int kj = aOff + k + j * stride;
                a.set(kj, a.get(kj) / a.get(aOff + k + k * stride));
                final double alpha = -a.get(kj);
                daxpy(a, kj + 1, r, aOff + k + 1 + k * stride, n - k - 1, alpha);
            }
        }
    }

    /**
     * Divides a pivot column block by the diagonal block's factors: {@code a} and {@code ar} are views of the same
     * block, {@code ar} for the reads of {@code daxpy}.
     */
    static void bdiv(
        final DoubleView a,
        final DoubleReadView ar,
        final int aOff,
        final DoubleReadView diag,
        final int diagOff,
        final int strideA,
        final int strideDiag,
        final int dimi,
        final int dimk)
    {
        for (int k = 0; k < dimk; k++)
        {
            bdivStep(a, ar, aOff, diag, diagOff, strideA, strideDiag, dimi, dimk, k);
        }
    }

    /**
     * Step {@code k} of {@link #bdiv}: subtracts column {@code k}'s multiples from the columns after it. A method of
     * its own, called a block's width of times per call of {@code bdiv}: it is compiled whole in the first run,
     * where {@code bdiv}'s nested loops, called a few hundred times per run on each of 2 nodes, were compiled on
     * stack replacement and compiled again, whole, in the second or third run.
     */
    private static void bdivStep(
        final DoubleView a,
        final DoubleReadView ar,
        final int aOff,
        final DoubleReadView diag,
        final int diagOff,
        final int strideA,
        final int strideDiag,
        final int dimi,
        final int dimk,
        final int k)
    {
        for (int j = k + 1; j < dimk; j++)
        {
            final double alpha = -diag.get(diagOff + k + j * strideDiag);
            daxpy(a, aOff + j * strideA, ar, aOff + k * strideA, dimi, alpha);
        }
    }

    /**
     * Divides a pivot row block by the diagonal block's factors.
     */
    static void bmodd(
        final DoubleReadView a,
        final int aOff,
        final DoubleView c,
        final int cOff,
        final int dimi,
        final int dimj,
        final int strideA,
        final int strideC)
    {
        for (int k = 0; k < dimi; k++)
        {
            bmoddStep(a, aOff, c, cOff, dimi, dimj, strideA, strideC, k);
        }
    }

    /**
     * Step {@code k} of {@link #bmodd}: divides row {@code k} of every column by the diagonal and subtracts its
     * multiple from the rows below; a method of its own for the reason {@link #bdivStep} is.
     */
    private static void bmoddStep(
        final DoubleReadView a,
        final int aOff,
        final DoubleView c,
        final int cOff,
        final int dimi,
        final int dimj,
        final int strideA,
        final int strideC,
        final int k)
    {
        for (int j = 0; j < dimj; j++)
        {
            final int kj = cOff + k + j * strideC;
            c.set(kj, c.get(kj) / a.get(aOff + k + k * strideA));
            final double alpha = -c.get(kj);
            daxpy(c, kj + 1, a, aOff + k + 1 + k * strideA, dimi - k - 1, alpha);
        }
    }

    static void bmod(
        final DoubleReadView a,
        final int aOff,
        final DoubleReadView b,
        final int bOff,
        final DoubleView c,
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

    /**
     * {@code a[aOff + i] += alpha * b[bOff + i]} for {@code i} in {@code [0, n)}.
     */
    static void daxpy(
        final DoubleView a, final int aOff, final DoubleReadView b, final int bOff, final int n, final double alpha)
    {
        for (int i = 0; i < n; i++)
        {
            a.set(aOff + i, a.get(aOff + i) + alpha * b.get(bOff + i));
        }
    }
}
