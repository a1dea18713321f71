package org.viadsm.examples.radix;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.Team;

/**
 * RADIX's shared data, allocated collectively in the C program's order.
 * <p>
 * {@code global} is the C program's {@code struct global_memory}: a header ({@code Index}, {@code final}, start
 * and finish times) followed by the prefix tree, {@code 2 P} nodes of {@code densities[radix]},
 * {@code ranks[radix]} and one page of padding (the C node reserves {@code MAX_RADIX} entries of each; the port
 * sizes them by the radix, which keeps the pages a node touches and the padding that keeps nodes apart, without
 * reserving 140 MB). {@code rankMe} is the C program's {@code rank_me}: P row pointers, here row offsets, followed
 * by P rows of {@code radix} counts.
 */
final class RadixShared
{
    static final int PAGE_LONGS = 4096 / Long.BYTES;
    static final int GLOBAL_INDEX = 0;
    static final int GLOBAL_FINAL = 1;
    static final int GLOBAL_STARTTIME = 2;
    static final int GLOBAL_RS = 3;
    static final int GLOBAL_RF = 4;
    static final int GLOBAL_HEADER = 8;

    final int processors;
    final int radix;
    final int nodeStride;
    final LongArray global;
    final LongArray[] key;
    final LongArray keyPartition;
    final LongArray rankPartition;
    final DoubleArray ranktime;
    final DoubleArray sorttime;
    final DoubleArray totaltime;
    final LongArray rankMe;
    final LongArray[] rankFf;
    final LongArray[] keyDensity;

    RadixShared(final Team team, final int numKeys, final int radix)
    {
        final int p = team.size();
        this.processors = p;
        this.radix = radix;
        this.nodeStride = 2 * radix + PAGE_LONGS;
        // Each prefix-tree node lives with the processor that computes it, each key partition with its sorter,
        // each processor's rows and tables with it, and what the master writes and prints with the master.
        final Placement master = Placement.onNode(0);
        final int[] treeOwners = treeOwners(p);
        this.global = team.longs("radix.global", GLOBAL_HEADER + 2 * p * nodeStride, Placement.byElement(
            element -> element < GLOBAL_HEADER ? 0 : treeOwners[(element - GLOBAL_HEADER) / nodeStride]));
        final long[] keyBounds = bounds(p, numKeys);
        final Placement sorters = Placement.byElement(element -> owner(keyBounds, element));
        this.key = new LongArray[] {
            team.longs("radix.key.0", numKeys, sorters), team.longs("radix.key.1", numKeys, sorters)};
        this.keyPartition = team.longs("radix.key_partition", p + 1, master);
        this.rankPartition = team.longs("radix.rank_partition", p + 1, master);
        this.ranktime = team.doubles("radix.ranktime", p, master);
        this.sorttime = team.doubles("radix.sorttime", p, master);
        this.totaltime = team.doubles("radix.totaltime", p, master);
        this.rankMe = team.longs("radix.rank_me", p + p * radix,
            Placement.byElement(element -> element < p ? 0 : (element - p) / radix));
        this.rankFf = new LongArray[p];
        for (int i = 0; i < p; i++)
        {
            // C: G_MALLOC(radix * sizeof(long) + PAGE_SIZE).
            rankFf[i] = team.longs("radix.rank_ff." + i, radix + PAGE_LONGS, Placement.onNode(i));
        }
        // C: each process G_MALLOCs its own key_density; allocation is collective here, so all are made up front.
        this.keyDensity = new LongArray[p];
        for (int i = 0; i < p; i++)
        {
            keyDensity[i] = team.longs("radix.key_density." + i, radix, Placement.onNode(i));
        }
    }

    /**
     * Offset in {@link #global} of prefix-tree node {@code node}'s densities.
     */
    int densities(final int node)
    {
        return GLOBAL_HEADER + node * nodeStride;
    }

    /**
     * Offset in {@link #global} of prefix-tree node {@code node}'s ranks.
     */
    int ranks(final int node)
    {
        return GLOBAL_HEADER + node * nodeStride + radix;
    }

    /**
     * The master's initialization: the row pointers of {@code rank_me} and the key and rank partitions.
     */
    void initialize(final int numKeys)
    {
        final int p = processors;
        for (int i = 0; i < p; i++)
        {
            rankMe.set(i, p + (long)i * radix);
        }
        global.set(GLOBAL_INDEX, 0);
        partition(keyPartition, numKeys);
        partition(rankPartition, radix);
    }

    private void partition(final LongArray partition, final long total)
    {
        final long[] bounds = bounds(processors, total);
        for (int i = 0; i < bounds.length; i++)
        {
            partition.set(i, bounds[i]);
        }
    }

    /**
     * The C master's split of {@code total} items into {@code p} partitions: partition {@code i} is
     * {@code [bounds[i], bounds[i + 1])} (entries past the last partition the loop makes stay 0, as in C).
     */
    static long[] bounds(final int p, final long total)
    {
        final long[] bounds = new long[p + 1];
        final long quotient = total / p;
        final long remainder = total % p;
        long sumI = 0;
        long sumF = 0;
        int i = 0;
        while (sumI < total)
        {
            bounds[i] = sumI;
            i++;
            sumI = sumI + quotient;
            sumF = sumF + remainder;
            sumI = sumI + sumF / p;
            sumF = sumF % p;
        }
        bounds[i] = total;
        return bounds;
    }

    /**
     * The partition of {@code bounds} that holds item {@code item}.
     */
    static int owner(final long[] bounds, final int item)
    {
        for (int i = 0; i + 1 < bounds.length; i++)
        {
            if (item >= bounds[i] && item < bounds[i + 1])
            {
                return i;
            }
        }
        return 0;
    }

    /**
     * The processor that computes each prefix-tree node in the sweep up: the leaves {@code [0, p)} are the
     * processors' own, and an inner node is its right child's processor's (see {@code RadixKernel.prefixUp}).
     */
    static int[] treeOwners(final int p)
    {
        final int[] owners = new int[2 * p];
        for (int myNum = 0; myNum < p; myNum++)
        {
            owners[myNum] = myNum;
            int offset = myNum;
            int level = p >> 1;
            int base = p;
            while (0 != (offset & 0x1))
            {
                offset >>= 1;
                owners[base + offset] = myNum;
                base += level;
                level >>= 1;
            }
        }
        return owners;
    }
}
