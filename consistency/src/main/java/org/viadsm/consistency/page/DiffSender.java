package org.viadsm.consistency.page;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.diff.DiffEncoder;
import org.viadsm.consistency.diff.DiffRuns;
import org.viadsm.consistency.diff.TwinPool;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Twins and diffs of the pages another node is home of: the first write in an interval copies the page into a
 * twin; a release (or an invalidation of a dirty page) compares the page with its twin at the granularity of the
 * array's element and writes every changed run straight into the home's copy, then frees the twin.
 * <p>
 * A page's last run is held back until the next run is known: a run that ends at the end of its page and one that
 * starts at the start of the next page of the array, with the same home, are one range of the array both here and
 * at the home, so they go as one RDMA Write (a node that writes a range across pages sends one write per range, not
 * per page). The caller posts the held write with {@link #post()} before anything that must follow the diffs (the
 * copyset leaves, the wait for the writes with {@link ProtocolPort#flushWrites()}); until then the page's memory
 * must not change, which holds at a release and an acquire, where the application thread runs the protocol.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class DiffSender
{
    private final ProtocolPort port;
    private final TwinPool twins;
    private final Counters counters;
    private final DiffRuns runs = new DiffRuns();
    private final OverwrittenRanges overwritten = new OverwrittenRanges();
    private int heldHome = -1;
    private int heldRegion;
    private long heldOffset;
    private int heldLength;

    DiffSender(final ProtocolPort port, final TwinPool twins, final Counters counters)
    {
        this.port = port;
        this.twins = twins;
        this.counters = counters;
    }

    /**
     * Copies a page about to be written into a twin of its own.
     */
    void twin(final PageTable table, final int page)
    {
        final int slot = twins.acquire();
        twins.buffer(slot).putBytes(twins.offset(slot), table.memory(), page * table.pageSize(), table.pageSize());
        table.twin(page, slot);
        counters.increment(Counter.TWINS);
    }

    /**
     * Sends the changes of a twinned page home and frees its twin. The page's last run may be held back to join
     * the next page's first run (see {@link #post()}).
     */
    void send(final PageTable table, final int page)
    {
        final int slot = table.twin(page);
        final int pageSize = table.pageSize();
        final int pageOffset = page * pageSize;
        final AtomicBuffer memory = table.memory();
        final int count = DiffEncoder.encode(memory, pageOffset, twins.buffer(slot), twins.offset(slot), pageSize,
            table.elementSize(), runs);
        if (count > 0)
        {
            final int home = table.homes().home(page);
            final int region = table.region();
            for (int i = 0; i < count; i++)
            {
                write(home, region, (long)pageOffset + runs.offset(i), runs.length(i));
            }
            counters.increment(Counter.DIFFS);
            counters.add(Counter.DIFF_RUNS, count);
            counters.add(Counter.DIFF_BYTES, runs.totalBytes());
        }
        twins.release(slot);
        table.twin(page, PageTable.NO_TWIN);
    }

    /**
     * The overwritten ranges of this node's {@link PageState#WRITE_ONLY} pages.
     */
    OverwrittenRanges overwritten()
    {
        return overwritten;
    }

    /**
     * Sends the overwritten ranges of a {@link PageState#WRITE_ONLY} page home whole, one run each: every element
     * of them is this node's (the overwrite view's contract), so none may be left out, not even one whose value
     * equals the home's stale one. A run may join the held one as {@link #send}'s do.
     */
    void sendOverwritten(final PageTable table, final int page)
    {
        final int globalPage = table.firstGlobalPage() + page;
        final int home = table.homes().home(page);
        final long pageOffset = (long)page * table.pageSize();
        int bytes = 0;
        int count = 0;
        for (int range = 0; range < OverwrittenRanges.RANGES; range++)
        {
            final int from = overwritten.from(globalPage, range);
            final int length = overwritten.to(globalPage, range) - from;
            if (length > 0)
            {
                write(home, table.region(), pageOffset + from, length);
                bytes += length;
                count++;
            }
        }
        counters.increment(Counter.DIFFS);
        counters.add(Counter.DIFF_RUNS, count);
        counters.add(Counter.DIFF_BYTES, bytes);
    }

    /**
     * Keeps the overwritten ranges of a {@link PageState#WRITE_ONLY} page about to be fetched in a slot of the twin
     * pool, for {@link #restore}.
     *
     * @return the slot.
     */
    int stash(final PageTable table, final int page)
    {
        final int globalPage = table.firstGlobalPage() + page;
        final int slot = twins.acquire();
        final int pageOffset = page * table.pageSize();
        for (int range = 0; range < OverwrittenRanges.RANGES; range++)
        {
            final int from = overwritten.from(globalPage, range);
            twins.buffer(slot).putBytes(twins.offset(slot) + from, table.memory(), pageOffset + from,
                overwritten.to(globalPage, range) - from);
        }
        return slot;
    }

    /**
     * Puts the ranges {@link #stash} kept back over the page fetched since, and frees the slot.
     */
    void restore(final PageTable table, final int page, final int slot)
    {
        final int globalPage = table.firstGlobalPage() + page;
        final int pageOffset = page * table.pageSize();
        for (int range = 0; range < OverwrittenRanges.RANGES; range++)
        {
            final int from = overwritten.from(globalPage, range);
            table.memory().putBytes(pageOffset + from, twins.buffer(slot), twins.offset(slot) + from,
                overwritten.to(globalPage, range) - from);
        }
        twins.release(slot);
    }

    /**
     * Posts the run held back by {@link #send}, if any: after it every diff sent so far is posted, in the order of
     * the runs.
     */
    void post()
    {
        if (heldHome >= 0)
        {
            port.write(heldHome, heldRegion, heldOffset, heldRegion, heldOffset, heldLength);
            counters.increment(Counter.DIFF_WRITES);
            heldHome = -1;
        }
    }

    /**
     * A run of a diff: joins the held run if it continues it (at the same home), otherwise posts the held run and
     * holds this one.
     */
    private void write(final int home, final int region, final long offset, final int length)
    {
        if (home == heldHome && region == heldRegion && offset == heldOffset + heldLength)
        {
            heldLength += length;
            return;
        }
        post();
        heldHome = home;
        heldRegion = region;
        heldOffset = offset;
        heldLength = length;
    }
}
