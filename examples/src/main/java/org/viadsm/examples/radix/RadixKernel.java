package org.viadsm.examples.radix;

import org.viadsm.dsm.array.LongArray;
import org.viadsm.examples.runtime.SplashClock;
import org.viadsm.examples.runtime.Team;

/**
 * One processor's part of the radix sort ({@code slave_sort} in the C program): per digit, a histogram of its keys,
 * a parallel prefix over the processors' histograms up and down a binary tree whose nodes are handed over with
 * pauses, then the permutation of its keys into the other key array.
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

        team.barrier();
        team.barrier();

        final boolean timed = 0 == myNum || stats;
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
            for (int i = keyStart; i < keyStop; i++)
            {
                final int myKey = (int)((keyFrom.get(i) & bb) >> shiftnum);
                rankMe.set(rankMeMyNum + myKey, rankMe.get(rankMeMyNum + myKey) + 1);
            }
            keyDensity.set(0, rankMe.get(rankMeMyNum));
            for (int i = 1; i < radix; i++)
            {
                keyDensity.set(i, keyDensity.get(i - 1) + rankMe.get(rankMeMyNum + i));
            }

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

            for (int i = keyStart; i < keyStop; i++)
            {
                final long key = keyFrom.get(i);
                final int thisKey = (int)((key & bb) >> shiftnum);
                final long tmp = rankFfMyNum.get(thisKey);
                keyTo.set((int)tmp, key);
                rankFfMyNum.set(thisKey, tmp + 1);
            }

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
        if (timed)
        {
            final long time6 = SplashClock.micros();
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
            final int nd = shared.densities(n);
            final int rd = shared.densities(r);
            final int ld = shared.densities(l);
            if (offset != (level - 1))
            {
                final int nr = shared.ranks(n);
                final int rr = shared.ranks(r);
                final int lr = shared.ranks(l);
                for (int i = 0; i < radix; i++)
                {
                    global.set(nd + i, global.get(rd + i) + global.get(ld + i));
                    global.set(nr + i, global.get(rr + i) + global.get(lr + i));
                }
            }
            else
            {
                for (int i = 0; i < radix; i++)
                {
                    global.set(nd + i, global.get(rd + i) + global.get(ld + i));
                }
            }
            base += level;
            level >>= 1;
            if (0 == (offset & 0x1))
            {
                team.setPause(base + (offset >> 1));
            }
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
        rankFfMyNum.fill(0, radix, 0);
        int offset = myNum;
        int level = processors;
        int base = 0;
        while (0 != offset)
        {
            if (0 != (offset & 0x1))
            {
                final int lr = shared.ranks(base + offset - 1);
                for (int i = 0; i < radix; i++)
                {
                    rankFfMyNum.set(i, rankFfMyNum.get(i) + global.get(lr + i));
                }
            }
            base += level;
            level >>= 1;
            offset >>= 1;
        }
        final int md = shared.densities(myNode);
        for (int i = 1; i < radix; i++)
        {
            rankFfMyNum.set(i, rankFfMyNum.get(i) + global.get(md + i - 1));
        }
    }
}
