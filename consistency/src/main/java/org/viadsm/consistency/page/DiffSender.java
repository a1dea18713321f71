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
 * array's element and writes every changed run straight into the home's copy, one RDMA Write per run, then frees
 * the twin. The caller waits for the writes ({@link ProtocolPort#flushWrites()}).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
final class DiffSender
{
    private final ProtocolPort port;
    private final TwinPool twins;
    private final Counters counters;
    private final DiffRuns runs = new DiffRuns();

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
     * Sends the changes of a twinned page home and frees its twin.
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
            for (int i = 0; i < count; i++)
            {
                final long at = (long)pageOffset + runs.offset(i);
                port.write(home, table.region(), at, table.region(), at, runs.length(i));
            }
            counters.increment(Counter.DIFFS);
            counters.add(Counter.DIFF_RUNS, count);
            counters.add(Counter.DIFF_BYTES, runs.totalBytes());
        }
        twins.release(slot);
        table.twin(page, PageTable.NO_TWIN);
    }
}
