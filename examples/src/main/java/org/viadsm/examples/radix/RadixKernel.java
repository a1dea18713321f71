package org.viadsm.examples.radix;

import org.viadsm.dsm.SharedArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.array.LongReadView;
import org.viadsm.dsm.array.LongView;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the radix sort ({@code slave_sort} in the C program): per digit, a histogram of its keys,
 * a parallel prefix over the processors' histograms up and down a binary tree whose nodes are handed over with
 * pauses, then the permutation of its keys into the other key array.
 * <p>
 * The loops work on views made after the synchronization before them: a read view of this processor's keys, an
 * update view of its histogram row, a write view of its densities, read and write views of the prefix-tree nodes,
 * and for the permutation an update view of its ranks and an overwrite view of each range of the other key array
 * its keys go to (from a private array where they are ordered by digit first). The views are re-wrapped, so the
 * sort allocates nothing per digit.
 * <p>
 * <b>Note:</b> used by the one thread that runs its member.
 */
final class RadixKernel
{
    /** {@code global->lock_Index}. */
    static final int LOCK_INDEX = 0;

    private final Team team;
    private final RadixShared shared;
    private final int myNum;
    private final int processors;
    private final int radix;
    private final int log2Radix;
    private final int maxNumDigits;
    private final boolean stats;
    private final long[] rowBuffer;
    /** This processor's keys. */
    private LongReadView keys;
    /** This processor's row of {@code rank_me}: its histogram. */
    private LongView counts;
    /** This processor's {@code rank_ff}: the ranks its keys of each digit value go to. */
    private LongView ranks;
    /** What a step writes: the densities, a prefix-tree node, or the permutation's destinations. */
    private LongView target;
    /**
     * Whether {@link #permute} orders the keys first and writes runs through overwrite views: on the DSM with more
     * than one node, where a page of another processor's partition would be fetched and twinned; not on plain arrays
     * (the sequential and threads baselines) nor on one node, whose pages are all its own.
     */
    private final boolean overwriteRuns;
    /** Where each digit value's next key goes in {@link #runs}. */
    private final int[] runStarts;
    /**
     * This processor's keys ordered by the current digit, each digit value's keys a run, as they go to the other
     * key array.
     */
    private long[] runs = new long[0];
    /** Prefix-tree nodes read. */
    private LongReadView left;
    private LongReadView right;

    RadixKernel(final Team team, final RadixShared shared, final int log2Radix, final int maxNumDigits,
        final boolean stats)
    {
        this.team = team;
        this.shared = shared;
        this.myNum = team.id();
        this.processors = shared.processors;
        this.radix = shared.radix;
        this.log2Radix = log2Radix;
        this.maxNumDigits = maxNumDigits;
        this.stats = stats;
        this.rowBuffer = new long[radix];
        // empty views to re-wrap, so that no step passes null: the first step of a warm run would otherwise meet the
        // null case in code C2 compiled without it, trap (null_check) and recompile the step
        final LongArray any = shared.global;
        this.keys = any.read(0, 0);
        this.counts = any.update(0, 0);
        this.ranks = any.update(0, 0);
        this.target = any.update(0, 0);
        this.left = any.read(0, 0);
        this.right = any.read(0, 0);
        this.runStarts = new int[radix];
        this.overwriteRuns = any instanceof SharedArray && team.size() > 1;
    }

    /**
     * {@code slave_sort}: generates this processor's keys, sorts all keys with the others; 2 + 4 * digits + 1
     * barriers.
     */
    void slaveSort(final long maxKey)
    {
        final LongArray global = shared.global;
        // The C program numbers its processes from this counter; the port keeps the lock but uses the team id.
        team.lock(LOCK_INDEX);
        global.set(RadixShared.GLOBAL_INDEX, global.get(RadixShared.GLOBAL_INDEX) + 1);
        team.unlock(LOCK_INDEX);

        final LongArray keyDensity = shared.keyDensity[myNum];
        final int keyStart = (int)shared.keyPartition.get(myNum);
        final int keyStop = (int)shared.keyPartition.get(myNum + 1);
        int from = 0;
        int to = 1;

        RadixKeys.init(shared.key[from], keyStart, keyStop, maxKey);
        if (overwriteRuns)
        {
            runs = new long[keyStop - keyStart];
        }

        team.barrier();
        team.barrier();

        final boolean timed = 0 == myNum || stats;
        team.beginTimedPhase();
        long time1 = 0;
        long time2 = 0;
        long time3 = 0;
        long time4 = 0;
        long time5 = 0;
        double ranktime = 0;
        double sorttime = 0;
        if (timed)
        {
            time1 = SplashClock.micros();
        }

        final LongArray rankMe = shared.rankMe;
        final int rankMeMyNum = (int)rankMe.get(myNum);
        final LongArray rankFfMyNum = shared.rankFf[myNum];
        for (int loopnum = 0; loopnum < maxNumDigits; loopnum++)
        {
            final int shiftnum = loopnum * log2Radix;
            final long bb = (long)(radix - 1) << shiftnum;
            if (timed)
            {
                time2 = SplashClock.micros();
            }

            rankMe.fill(rankMeMyNum, rankMeMyNum + radix, 0);
            final LongArray keyFrom = shared.key[from];
            final LongArray keyTo = shared.key[to];
            histogram(keyFrom, keyStart, keyStop, rankMeMyNum, bb, shiftnum);
            density(keyDensity, rankMeMyNum);

            team.barrier();

            prefixUp(keyDensity, rankMeMyNum);

            team.barrier();

            final int myNode = prefixDown();
            ranksBefore(rankFfMyNum, myNode);

            if (timed)
            {
                time3 = SplashClock.micros();
            }
            team.barrier();
            if (timed)
            {
                time4 = SplashClock.micros();
            }

            permute(keyFrom, keyStart, keyStop, keyTo, rankFfMyNum, rankMeMyNum, bb, shiftnum);

            if (timed)
            {
                time5 = SplashClock.micros();
            }
            if (loopnum != maxNumDigits - 1)
            {
                from = from ^ 0x1;
                to = to ^ 0x1;
            }
            team.barrier();
            if (timed)
            {
                ranktime += time3 - time2;
                sorttime += time5 - time4;
            }
        }

        team.barrier();
        final long time6 = SplashClock.micros();
        team.endTimedPhase();
        if (timed)
        {
            shared.ranktime.set(myNum, ranktime);
            shared.sorttime.set(myNum, sorttime);
            shared.totaltime.set(myNum, time6 - time1);
            if (0 == myNum)
            {
                global.set(RadixShared.GLOBAL_RS, time1);
                global.set(RadixShared.GLOBAL_RF, time6);
                global.set(RadixShared.GLOBAL_FINAL, to);
            }
        }
    }

    /**
     * Counts this processor's keys by the current digit into its row of {@code rank_me}.
     */
    private void histogram(
        final LongArray keyFrom, final int keyStart, final int keyStop, final int row, final long bb,
        final int shiftnum)
    {
        keys = keyFrom.read(keyStart, keyStop, keys);
        counts = shared.rankMe.update(row, row + radix, counts);
        final LongReadView k = keys;
        final LongView c = counts;
        for (int i = keyStart; i < keyStop; i++)
        {
            final int myKey = (int)((k.get(i) & bb) >> shiftnum);
            c.set(row + myKey, c.get(row + myKey) + 1);
        }
    }

    /**
     * The running sums of this processor's histogram row into its {@code key_density}.
     */
    private void density(final LongArray keyDensity, final int row)
    {
        target = keyDensity.write(0, radix, target);
        final LongView d = target;
        final LongView c = counts;
        d.set(0, c.get(row));
        for (int i = 1; i < radix; i++)
        {
            d.set(i, d.get(i - 1) + c.get(row + i));
        }
    }

    /**
     * Moves this processor's keys to their ranks in {@code keyTo}. Its keys of digit value {@code v} go, in their
     * order, to {@code [rank of v, rank of v + its count of v)}, a range it writes whole and no other processor
     * writes; the processors' ranges of a value are adjacent, so most pages of the array hold ranges of two
     * processors. On plain arrays and on one node each key goes straight to its rank, as in the C program. On the DSM
     * with more nodes the keys are first ordered by digit value here, each value's keys a run, and each run is then
     * copied to its range through an overwrite view: a page of another processor's partition is neither fetched nor
     * twinned, and only this processor's elements of it go home. A view of this processor's whole span of {@code
     * keyTo}, which the other processors' ranges interleave, would fetch and twin every page of it; an overwrite view
     * per value, written key by key, would check a different view at every key. (The extra pass would cost a quarter
     * of the sort's time where no page is another node's, so there the C program's scatter stays.)
     */
    private void permute(
        final LongArray keyFrom,
        final int keyStart,
        final int keyStop,
        final LongArray keyTo,
        final LongArray rankFfMyNum,
        final int row,
        final long bb,
        final int shiftnum)
    {
        keys = keyFrom.read(keyStart, keyStop, keys);
        ranks = rankFfMyNum.update(0, radix, ranks);
        final LongReadView k = keys;
        final LongView r = ranks;
        if (!overwriteRuns)
        {
            scatter(k, r, keyStart, keyStop, keyTo, row, bb, shiftnum);
            return;
        }
        left = shared.rankMe.read(row, row + radix, left);
        final LongReadView c = left;
        final int[] at = runStarts;
        final long[] ordered = runs;
        int start = 0;
        for (int v = 0; v < radix; v++)
        {
            at[v] = start;
            start += (int)c.get(row + v);
        }
        for (int i = keyStart; i < keyStop; i++)
        {
            final long key = k.get(i);
            final int thisKey = (int)((key & bb) >> shiftnum);
            ordered[at[thisKey]++] = key;
        }
        start = 0;
        for (int v = 0; v < radix; v++)
        {
            final int count = (int)c.get(row + v);
            final long rank = r.get(v);
            if (count > 0)
            {
                copyRun(keyTo, (int)rank, ordered, start, count);
            }
            start += count;
            r.set(v, rank + count);
        }
    }

    /**
     * The C program's permutation: each key straight to its rank, through an update view of this processor's span
     * of {@code keyTo}, from the rank of its first digit value to the end of its last.
     */
    private void scatter(
        final LongReadView k,
        final LongView r,
        final int keyStart,
        final int keyStop,
        final LongArray keyTo,
        final int row,
        final long bb,
        final int shiftnum)
    {
        final int lo = (int)r.get(0);
        final int hi = (int)(r.get(radix - 1) + shared.rankMe.get(row + radix - 1));
        target = keyTo.update(lo, hi, target);
        final LongView dest = target;
        for (int i = keyStart; i < keyStop; i++)
        {
            final long key = k.get(i);
            final int thisKey = (int)((key & bb) >> shiftnum);
            final long tmp = r.get(thisKey);
            dest.set((int)tmp, key);
            r.set(thisKey, tmp + 1);
        }
    }

    /**
     * Copies {@code count} keys from {@code ordered} at {@code start} to {@code keyTo} at {@code rank}, every
     * element of that range, through an overwrite view.
     */
    private void copyRun(final LongArray keyTo, final int rank, final long[] ordered, final int start, final int count)
    {
        target = keyTo.overwrite(rank, rank + count, target);
        final LongView dest = target;
        for (int j = 0; j < count; j++)
        {
            dest.set(rank + j, ordered[start + j]);
        }
    }

    /**
     * The sweep up the prefix tree: publish this processor's densities and ranks in its leaf, then combine pairs of
     * nodes for as long as this processor is the right child, waiting for the left child's pause.
     */
    private void prefixUp(final LongArray keyDensity, final int rankMeMyNum)
    {
        final LongArray global = shared.global;
        final long[] buffer = rowBuffer;
        int n = myNum;
        keyDensity.get(0, buffer, 0, radix);
        global.set(shared.densities(n), buffer, 0, radix);
        shared.rankMe.get(rankMeMyNum, buffer, 0, radix);
        global.set(shared.ranks(n), buffer, 0, radix);

        int offset = myNum;
        int level = processors >> 1;
        int base = processors;
        if (0 == (myNum & 0x1))
        {
            team.setPause(base + (offset >> 1));
        }
        while (0 != (offset & 0x1))
        {
            offset >>= 1;
            final int r = n;
            final int l = n - 1;
            final int index = base + offset;
            n = index;
            team.waitPause(n);
            team.clearPause(n);
            combine(global, shared.densities(n), shared.densities(r), shared.densities(l), offset != (level - 1));
            base += level;
            level >>= 1;
            if (0 == (offset & 0x1))
            {
                team.setPause(base + (offset >> 1));
            }
        }
    }

    /**
     * Sets node {@code n}'s densities to the sums of node {@code r}'s and node {@code l}'s, and with
     * {@code withRanks} its ranks (which follow the densities) as well.
     */
    private void combine(final LongArray global, final int n, final int r, final int l, final boolean withRanks)
    {
        final int length = withRanks ? 2 * radix : radix;
        target = global.write(n, n + length, target);
        right = global.read(r, r + length, right);
        left = global.read(l, l + length, left);
        final LongView dst = target;
        final LongReadView rs = right;
        final LongReadView ls = left;
        for (int i = 0; i < length; i++)
        {
            dst.set(n + i, rs.get(r + i) + ls.get(l + i));
        }
    }

    /**
     * The sweep down: take the densities of the node this processor's subtree continues from, then release the
     * left siblings waiting on this processor.
     *
     * @return the node whose densities rank this processor's keys.
     */
    private int prefixDown()
    {
        final LongArray global = shared.global;
        final int myNode;
        if (myNum != (processors - 1))
        {
            int offset = myNum;
            int level = processors;
            int base = 0;
            while (0 != (offset & 0x1))
            {
                offset >>= 1;
                base += level;
                level >>= 1;
            }
            myNode = base + offset;
            offset >>= 1;
            base += level;
            level >>= 1;
            while (0 != (offset & 0x1))
            {
                offset >>= 1;
                base += level;
                level >>= 1;
            }
            final int theirNode = base + offset;
            team.waitPause(myNode);
            team.clearPause(myNode);
            global.get(shared.densities(theirNode), rowBuffer, 0, radix);
            global.set(shared.densities(myNode), rowBuffer, 0, radix);
        }
        else
        {
            myNode = (2 * processors) - 2;
        }
        int offset = myNum;
        int level = processors;
        int base = 0;
        while (0 != (offset & 0x1))
        {
            team.setPause(base + offset - 1);
            offset >>= 1;
            base += level;
            level >>= 1;
        }
        return myNode;
    }

    /**
     * The ranks of this processor's first key of every digit value: the ranks of the nodes to its left plus the
     * densities of all smaller digit values.
     */
    private void ranksBefore(final LongArray rankFfMyNum, final int myNode)
    {
        final LongArray global = shared.global;
        ranks = rankFfMyNum.write(0, radix, ranks);
        final LongView r = ranks;
        for (int i = 0; i < radix; i++)
        {
            r.set(i, 0);
        }
        int offset = myNum;
        int level = processors;
        int base = 0;
        while (0 != offset)
        {
            if (0 != (offset & 0x1))
            {
                final int lr = shared.ranks(base + offset - 1);
                left = global.read(lr, lr + radix, left);
                final LongReadView nodeRanks = left;
                for (int i = 0; i < radix; i++)
                {
                    r.set(i, r.get(i) + nodeRanks.get(lr + i));
                }
            }
            base += level;
            level >>= 1;
            offset >>= 1;
        }
        final int md = shared.densities(myNode);
        left = global.read(md, md + radix, left);
        final LongReadView densities = left;
        for (int i = 1; i < radix; i++)
        {
            r.set(i, r.get(i) + densities.get(md + i - 1));
        }
    }
}
