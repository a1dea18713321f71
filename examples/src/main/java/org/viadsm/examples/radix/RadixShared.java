package org.viadsm.examples.radix;

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
        this.global = team.longs("radix.global", GLOBAL_HEADER + 2 * p * nodeStride);
        this.key = new LongArray[] {team.longs("radix.key.0", numKeys), team.longs("radix.key.1", numKeys)};
        this.keyPartition = team.longs("radix.key_partition", p + 1);
        this.rankPartition = team.longs("radix.rank_partition", p + 1);
        this.ranktime = team.doubles("radix.ranktime", p);
        this.sorttime = team.doubles("radix.sorttime", p);
        this.totaltime = team.doubles("radix.totaltime", p);
        this.rankMe = team.longs("radix.rank_me", p + p * radix);
        this.rankFf = new LongArray[p];
        for (int i = 0; i < p; i++)
        {
            // C: G_MALLOC(radix * sizeof(long) + PAGE_SIZE).
            rankFf[i] = team.longs("radix.rank_ff." + i, radix + PAGE_LONGS);
        }
        // C: each process G_MALLOCs its own key_density; allocation is collective here, so all are made up front.
        this.keyDensity = new LongArray[p];
        for (int i = 0; i < p; i++)
        {
            keyDensity[i] = team.longs("radix.key_density." + i, radix);
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
        final long p = processors;
        final long quotient = total / p;
        final long remainder = total % p;
        long sumI = 0;
        long sumF = 0;
        int i = 0;
        while (sumI < total)
        {
            partition.set(i, sumI);
            i++;
            sumI = sumI + quotient;
            sumF = sumF + remainder;
            sumI = sumI + sumF / p;
            sumF = sumF % p;
        }
        partition.set(i, total);
    }
}
