package org.viadsm.examples.lu;

/**
 * Where the blocks of the LU matrix live, computed as the C program's {@code main} computes it. The n x n matrix is
 * cut into {@code nblocks} x {@code nblocks} blocks of {@code block_size} x {@code block_size} elements (the last
 * row and column of blocks are {@code edge} wide when the block size does not divide n). Block (I, J) belongs to
 * processor {@code (I + J * nblocks) % P}, and each processor's blocks lie contiguously in that processor's own
 * array, in the order I then J, each block column-major with as many rows as the block has.
 * <p>
 * Every member computes the same layout: in C the pointer table {@code a} is written once by the master and only
 * read afterwards.
 */
final class LuLayout
{
    private static final int MAX_N = 46340;

    final int n;
    final int blockSize;
    final int processors;
    final int nblocks;
    final int edge;
    /** Doubles in each processor's array. */
    final int[] procLength;
    /** Owner of block {@code I + J * nblocks}: the array that holds it. */
    final int[] blockProc;
    /** First element of block {@code I + J * nblocks} in its owner's array. */
    final int[] blockOffset;

    LuLayout(final int n, final int blockSize, final int processors)
    {
        if (n < 1 || n > MAX_N)
        {
            throw new IllegalArgumentException("-n " + n + ": matrix size must be in [1, " + MAX_N + "]");
        }
        if (blockSize < 1 || blockSize > n)
        {
            throw new IllegalArgumentException("-b " + blockSize + ": block size must be in [1, n] for -n " + n);
        }
        if (processors < 1)
        {
            throw new IllegalArgumentException("P must be >= 1: team size " + processors);
        }
        this.n = n;
        this.blockSize = blockSize;
        this.processors = processors;
        int blocks = n / blockSize;
        if (blockSize * blocks != n)
        {
            blocks++;
        }
        this.nblocks = blocks;
        final int lastEdge = n % blockSize;
        this.edge = 0 == lastEdge ? blockSize : lastEdge;
        this.procLength = new int[processors];
        this.blockProc = new int[nblocks * nblocks];
        this.blockOffset = new int[nblocks * nblocks];
        for (int i = 0; i < nblocks; i++)
        {
            for (int j = 0; j < nblocks; j++)
            {
                final int owner = blockOwner(i, j);
                blockProc[i + j * nblocks] = owner;
                blockOffset[i + j * nblocks] = procLength[owner];
                procLength[owner] += blockLength(i, j);
            }
        }
    }

    /**
     * {@code BlockOwner}: the processor that holds block (I, J), initializes it, and updates it in every step: the
     * diagonal factorization, the pivot column's and row's division (the C program's {@code BlockOwnerColumn} and
     * {@code BlockOwnerRow} parcel those out otherwise) and the interior modification.
     */
    int blockOwner(final int bigI, final int bigJ)
    {
        return (bigI + bigJ * nblocks) % processors;
    }

    /**
     * The offset of element (i, j) within its block, computed as the C program's {@code InitA}, {@code PrintA} and
     * {@code CheckResult} compute it.
     */
    int elementOffset(final int i, final int j)
    {
        final int lastEdge = n % blockSize;
        final int ibs;
        final int skip;
        if ((n - i) <= lastEdge)
        {
            ibs = n - lastEdge;
            skip = lastEdge;
        }
        else
        {
            ibs = blockSize;
            skip = blockSize;
        }
        final int jbs = (n - j) <= lastEdge ? n - lastEdge : blockSize;
        return (i % ibs) + (j % jbs) * skip;
    }

    /**
     * The block that holds element (i, j).
     */
    int elementBlock(final int i, final int j)
    {
        return (i / blockSize) + (j / blockSize) * nblocks;
    }

    private int blockLength(final int bigI, final int bigJ)
    {
        if (bigI == nblocks - 1 && bigJ == nblocks - 1)
        {
            return edge * edge;
        }
        if (bigI == nblocks - 1 || bigJ == nblocks - 1)
        {
            return edge * blockSize;
        }
        return blockSize * blockSize;
    }
}
