package org.viadsm.consistency.sync;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.Intervals;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.port.Notifications;
import org.viadsm.consistency.port.ProtocolPort;

/**
 * Barriers: a dissemination barrier whose messages carry vector clocks, so write notices are merged and
 * redistributed in {@code ceil(log2 N)} rounds.
 * <p>
 * In round {@code r} node {@code i} writes its merged clock into the mailbox of node {@code i + 2^r (mod N)}
 * and waits for the message of node {@code i - 2^r}; after the last round every node holds the maximum of all
 * clocks. A barrier is a release followed by an acquire: each node closes its interval first and, after the
 * rounds, applies the notices of every interval the merged clock covers. Mailboxes are double-buffered by the
 * barrier's parity, because a fast node can be one barrier ahead but never two.
 * <p>
 * Garbage collection: once a node passes barrier {@code k}, every node has finished barrier {@code k - 1},
 * and no node will again ask for this node's intervals up to its clock entry at barrier {@code k - 1}, so they
 * are dropped from its notice log. Memory then stays bounded however long the run.
 * <p>
 * Memory consistency effects: actions of every node before it enters a barrier happen-before the actions of
 * every node after it leaves the barrier.
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class BarrierProtocol
{
    private static final int CONTROL = 0;

    private final ProtocolPort port;
    private final ControlRegionLayout layout;
    private final Intervals intervals;
    private final SyncState sync;
    private final Counters counters;
    private final AtomicBuffer control;
    private final int nodeId;
    private final int nodeCount;
    private final int rounds;
    private final VectorClock merged;
    private long epoch;
    private long ownSequenceAtPreviousBarrier;

    /**
     * Creates the barrier protocol.
     *
     * @param port      the network.
     * @param layout    the control region layout.
     * @param intervals the node's intervals.
     * @param sync      the node's notification state.
     * @param counters  the node's counters.
     */
    public BarrierProtocol(
        final ProtocolPort port,
        final ControlRegionLayout layout,
        final Intervals intervals,
        final SyncState sync,
        final Counters counters)
    {
        this.port = port;
        this.layout = layout;
        this.intervals = intervals;
        this.sync = sync;
        this.counters = counters;
        this.control = port.region(CONTROL);
        this.nodeId = port.nodeId();
        this.nodeCount = port.nodeCount();
        this.rounds = 32 - Integer.numberOfLeadingZeros(nodeCount - 1);
        this.merged = new VectorClock(nodeCount);
    }

    /**
     * A barrier with its consistency actions: release, exchange clocks, acquire.
     */
    public void barrier()
    {
        sync.ensureUsable();
        final long startNs = System.nanoTime();
        intervals.release();
        exchange(SyncState.FULL_BARRIER);
        intervals.acquire(merged);
        final long ownSequence = intervals.clock().get(nodeId);
        intervals.log().trimBefore(ownSequenceAtPreviousBarrier + 1);
        ownSequenceAtPreviousBarrier = ownSequence;
        counters.increment(Counter.BARRIERS);
        counters.add(Counter.BARRIER_WAIT_NS, System.nanoTime() - startNs);
    }

    /**
     * A barrier without consistency actions, for the runtime's own collectives (allocation): it only makes every
     * node wait for all the others.
     */
    public void syncBarrier()
    {
        sync.ensureUsable();
        exchange(SyncState.SYNC_BARRIER);
    }

    /**
     * Barriers passed, of both kinds.
     *
     * @return the barrier count.
     */
    public long epoch()
    {
        return epoch;
    }

    private void exchange(final int kind)
    {
        epoch++;
        final int parity = (int)(epoch & 1);
        merged.copyFrom(intervals.clock());
        for (int round = 0; round < rounds; round++)
        {
            final int distance = 1 << round;
            final int to = (nodeId + distance) % nodeCount;
            final int from = (nodeId - distance % nodeCount + nodeCount) % nodeCount;
            final int outbox = layout.outbox(ControlRegionLayout.OUTBOX_BARRIER + round);
            merged.write(control, outbox);
            port.writeAndNotify(to, CONTROL, layout.mailbox(parity, round), CONTROL, outbox, layout.clockLength(),
                Notifications.of(Notifications.BARRIER, SyncState.barrierArgument(kind, parity, round)));
            counters.increment(Counter.MESSAGES_SENT);
            sync.awaitBarrier(kind, parity, round, from, epoch);
            merged.merge(control, layout.mailbox(parity, round));
        }
        port.flushWrites();
    }
}
