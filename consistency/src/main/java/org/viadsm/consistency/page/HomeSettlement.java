package org.viadsm.consistency.page;

import org.agrona.collections.IntArrayList;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.home.HomePolicy;

/**
 * What a home does with its own pages at a release, against their copysets (read in its own memory, after a fence
 * of its writes): a page it wrote in the interval that nobody caches becomes exclusive, with no notice; one that
 * somebody caches becomes read-only and gets a notice; an exclusive page that somebody has started to cache stops
 * being exclusive, and gets a notice if it was written since it became exclusive.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class HomeSettlement
{
    private final SharedSpace space;
    private final Copysets copysets;
    private final Counters counters;
    private final int nodeId;

    HomeSettlement(final SharedSpace space, final Copysets copysets, final Counters counters, final int nodeId)
    {
        this.nodeId = nodeId;
        this.space = space;
        this.copysets = copysets;
        this.counters = counters;
    }

    /**
     * Whether another node may have started caching a page of this node's since the last release that settled:
     * one word of the control region, which every fetcher bumps, rather than every array's count (a look at every
     * release, locks cached here included). Fences this node's writes before looking at it, unless no page of this
     * node's is exclusive: a new sharer of a tracked page needs nothing at a release. A registration at an array
     * with no exclusive page here, which needs nothing, still makes a later release settle once.
     */
    boolean hasNewSharers()
    {
        if (0 == exclusivePages())
        {
            return false;
        }
        Copysets.fence();
        return copysets.isRegisteredSince();
    }

    /**
     * Looks at every array's count, with no early return: whether a page is exclusive here changes between a run's
     * phases, and the JIT speculated on a test of it inside the loop (and on the loop's exit that the early return
     * skipped), trapping and compiling again at each change; the only test left is the caller's.
     *
     * @return zero if no page of this node's is exclusive, else some bits of the counts (never negative).
     */
    private int exclusivePages()
    {
        int counts = 0;
        final int tableCount = space.tableCount();
        for (int t = 0; t < tableCount; t++)
        {
            counts |= space.table(t).exclusiveCount();
        }
        return counts;
    }

    /**
     * Settles the pages this node is home of, once the interval's diffs are home: fences this node's writes, then
     * adds to {@code notices} the written pages somebody caches and the exclusive pages written since they became
     * exclusive that somebody has started to cache.
     *
     * @param homeDirty the global pages this node is home of that it wrote in the interval.
     * @param notices   the interval's write notices, appended to.
     */
    void settle(final IntArrayList homeDirty, final IntArrayList notices)
    {
        Copysets.fence();
        copysets.takeRegistrations();
        final int count = homeDirty.size();
        for (int i = 0; i < count; i++)
        {
            settlePage(homeDirty.getInt(i), notices);
        }
        for (int t = 0; t < space.tableCount(); t++)
        {
            final PageTable table = space.table(t);
            if (table.exclusiveCount() > 0 && copysets.registeredSince(table))
            {
                shareExclusive(table, notices);
            }
        }
    }

    /**
     * Settles one written page of this node's: read-only with a notice if another node caches it, else exclusive.
     * A method of its own, as {@code PageCoherence.releasePage} is, so that the JIT compiles the page's work: the
     * loop over a release's pages runs too rarely to be compiled.
     */
    private void settlePage(final int globalPage, final IntArrayList notices)
    {
        final PageTable table = space.tableOf(globalPage);
        final int page = globalPage - table.firstGlobalPage();
        if (0 != (copysets.shared(table, page >>> 6) & (1L << page)))
        {
            table.state(page, PageState.READ_ONLY);
            notices.addInt(globalPage);
        }
        else
        {
            table.makeExclusive(page, PageState.READ_WRITE);
            counters.increment(Counter.EXCLUSIVE_GAINS);
        }
    }

    /**
     * A write fault on a valid home page: makes writable every home page of its copyset word that is read-only here
     * and that no other node caches now, in one fault rather than one each. Exclusive pages are marked written; the
     * others become exclusive (nobody caches them, so their writes need no tracking; their writes before were noticed
     * at the release that made them read-only). A page becomes exclusive here as at a release: a node that registers
     * after this look reads a copy with every write of the intervals before (the page was read-only here since the
     * last release), and the next release sees its registration and sends a notice, as the page is marked written.
     * A page marked written that was not written only costs a node that starts to cache it a notice and a fetch.
     *
     * @param table the array.
     * @param word  the copyset word of the page that faulted.
     */
    void openWord(final PageTable table, final int word)
    {
        final byte[] states = table.states();
        final HomePolicy homes = table.homes();
        final long shared = copysets.shared(table, word);
        final long exclusive = table.exclusive(word);
        final int first = word << 6;
        final int end = Math.min(table.pages(), first + Long.SIZE);
        for (int page = first; page < end; page++)
        {
            final long bit = 1L << page;
            if (PageState.READ_ONLY == states[page] && homes.home(page) == nodeId)
            {
                if (0 != (exclusive & bit))
                {
                    table.state(page, PageState.READ_WRITE);
                }
                else if (0 == (shared & bit))
                {
                    table.makeExclusive(page, PageState.READ_WRITE);
                    counters.increment(Counter.EXCLUSIVE_GAINS);
                }
            }
        }
    }

    /**
     * Ends the exclusivity of the exclusive pages another node now caches: each gets a notice and becomes
     * read-only, so that its next write here is tracked.
     */
    private void shareExclusive(final PageTable table, final IntArrayList notices)
    {
        final int words = table.layout().words();
        for (int word = 0; word < words; word++)
        {
            final long exclusive = table.exclusive(word);
            if (0 != exclusive)
            {
                shareWord(table, word, exclusive, notices);
            }
        }
    }

    /**
     * The exclusive pages of one copyset word that another node now caches (a method of its own, as
     * {@link #settlePage} is).
     */
    private void shareWord(final PageTable table, final int word, final long exclusive, final IntArrayList notices)
    {
        final long shared = exclusive & copysets.shared(table, word);
        if (0 != shared)
        {
            final byte[] states = table.states();
            table.endExclusive(word, shared);
            for (long bits = shared; 0 != bits; bits &= bits - 1)
            {
                final int page = (word << 6) + Long.numberOfTrailingZeros(bits);
                if (PageState.READ_WRITE == states[page])
                {
                    // Written at some time since it became exclusive: the new copy may lack some writes.
                    table.state(page, PageState.READ_ONLY);
                    notices.addInt(table.firstGlobalPage() + page);
                }
            }
            counters.add(Counter.EXCLUSIVE_LOSSES, Long.bitCount(shared));
        }
    }

}
