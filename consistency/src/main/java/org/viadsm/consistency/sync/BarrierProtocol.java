package org.viadsm.consistency.sync;

import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.ProtocolException;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.port.Notifications;

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
 * Arrival order: barrier {@code f} is counted at node {@code f mod N}, whose arrival counter every node adds 1 to
 * with fetch-and-add once its first round's message is out (so the round trip overlaps the wait). Every count of
 * barrier {@code f} is in before any node can leave barrier {@code f + 1}, so the counter's value modulo {@code N}
 * is the number of nodes that arrived first.
 * <p>
 * Two nodes exchange no clocks and no notifications ({@link PairBarrier}): each adds one word into the other's
 * memory with a remote atomic (the barrier's number and kind, its own clock entry, the only one that can be news to
 * the other) and polls its own memory for the other's; a node about to sleep asks for a notification first. They
 * need no counter either: each one's word says whether it had the other's word when it sent its own, and at most one
 * of them can have (each looked before it sent). That one arrived last; if neither had, they arrived together and
 * node {@code f mod 2} counts as the last. Both read the same two flags, so they agree.
 * <p>
 * A wait that ends by its timeout or an interrupt breaks the barrier for every node ({@link SyncState#BROKEN});
 * a broken barrier stays broken, and so do the runtime's collectives that use it.
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
    private final SyncNode node;
    private final int rounds;
    private final VectorClock merged;
    private final SyncWait wait = new SyncWait();
    private final PairBarrier pair;
    private long epoch;
    private long fullBarriers;
    private long ownSequenceAtPreviousBarrier;

    /**
     * Creates the barrier protocol.
     *
     * @param node the node's synchronization plumbing.
     */
    public BarrierProtocol(final SyncNode node)
    {
        this.node = node;
        this.rounds = 32 - Integer.numberOfLeadingZeros(node.nodeCount - 1);
        this.merged = new VectorClock(node.nodeCount);
        this.pair = 2 == node.nodeCount ? new PairBarrier(node) : null;
    }

    /**
     * A barrier with its consistency actions (release, exchange clocks, acquire) that waits to the end.
     *
     * @throws ProtocolException if the barrier is broken, or a node fails or leaves meanwhile.
     */
    public void barrier()
    {
        final int outcome = barrier(SyncWait.NO_TIMEOUT, false);
        if (SyncState.BROKEN == outcome)
        {
            throw new ProtocolException(node.nodeId, "the barrier is broken: " + node.sync.barrierBroken());
        }
    }

    /**
     * A barrier with its consistency actions, bounded as a java.util.concurrent wait.
     *
     * @param timeoutNs     longest wait; {@link SyncWait#NO_TIMEOUT} for none.
     * @param interruptible whether an interrupt of the thread ends the wait.
     * @return the arrival index (0 for the last node to arrive, {@code N - 1} for the first), or
     *         {@link SyncWait#TIMED_OUT} or {@link SyncWait#INTERRUPTED} (this node broke the barrier; an
     *         interruptible wait whose thread is interrupted on entry breaks it at once), or
     *         {@link SyncState#BROKEN} (it was broken before or meanwhile).
     * @throws ProtocolException if a node fails or leaves meanwhile.
     */
    public int barrier(final long timeoutNs, final boolean interruptible)
    {
        node.sync.ensureUsable();
        node.port.pollNotifications(node.sync);
        if (node.sync.isBarrierBroken(epoch + 1))
        {
            return SyncState.BROKEN;
        }
        if (interruptible && Thread.interrupted())
        {
            breakBarrier(SyncState.BROKEN_BY_INTERRUPT, epoch + 1);
            return SyncWait.INTERRUPTED;
        }
        node.intervals.release();
        final long startNs = System.nanoTime();
        final int index = null != pair ? exchangePair(SyncState.FULL_BARRIER, timeoutNs, interruptible, startNs) :
            exchange(SyncState.FULL_BARRIER, timeoutNs, interruptible, startNs);
        if (index >= 0)
        {
            node.intervals.acquire(merged);
            final long ownSequence = node.intervals.clock().get(node.nodeId);
            node.intervals.log().trimBefore(ownSequenceAtPreviousBarrier + 1);
            ownSequenceAtPreviousBarrier = ownSequence;
            node.counters.increment(Counter.BARRIERS);
        }
        final long elapsedNs = System.nanoTime() - startNs;
        node.counters.add(Counter.BARRIER_WAIT_NS, elapsedNs);
        if (0 == index)
        {
            node.counters.increment(Counter.BARRIERS_LAST);
            node.counters.add(Counter.BARRIER_LAST_NS, elapsedNs);
        }
        return index;
    }

    /**
     * A barrier without consistency actions, for the runtime's own collectives (allocation): it only makes every
     * node wait for all the others.
     *
     * @throws ProtocolException if the barrier is broken, or a node fails or leaves meanwhile.
     */
    public void syncBarrier()
    {
        node.sync.ensureUsable();
        final long startNs = System.nanoTime();
        if (node.sync.isBarrierBroken(epoch + 1) || (null != pair ?
            exchangePair(SyncState.SYNC_BARRIER, SyncWait.NO_TIMEOUT, false, startNs) :
            exchange(SyncState.SYNC_BARRIER, SyncWait.NO_TIMEOUT, false, startNs)) < 0)
        {
            throw new ProtocolException(node.nodeId, "the barrier is broken: " + node.sync.barrierBroken());
        }
        node.counters.add(Counter.BARRIER_WAIT_NS, System.nanoTime() - startNs);
    }

    /**
     * Whether the barrier is broken, as far as this node has heard (notifications that arrived are delivered
     * first).
     *
     * @return true once a node has broken it.
     */
    public boolean isBroken()
    {
        node.port.pollNotifications(node.sync);
        return null != node.sync.barrierBroken();
    }

    /**
     * Why the barrier is broken.
     *
     * @return e.g. {@code node 2 timed out in it}; null while it is not.
     */
    public String brokenReason()
    {
        return node.sync.barrierBroken();
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

    /**
     * Breaks the barrier for every node from barrier {@code epoch} on: this node timed out or was interrupted in
     * it. Nodes still in an earlier barrier finish it (this node sent its messages for that one). Unreachable peers
     * are skipped; they find out by their own failure detectors.
     */
    private void breakBarrier(final int reason, final long epoch)
    {
        if (!node.sync.breakBarrier(reason, epoch))
        {
            return;
        }
        final int notification = Notifications.of(Notifications.BROKEN, BarrierMailbox.brokenArgument(reason, epoch));
        for (int other = 0; other < node.nodeCount; other++)
        {
            if (other != node.nodeId && !node.sync.isGone(other))
            {
                try
                {
                    node.port.writeAndNotify(other, SyncNode.CONTROL, 0, SyncNode.CONTROL, 0, 0, notification);
                }
                catch (final ProtocolException ignore)
                {
                    // a peer that cannot be told fails by its own detectors
                }
            }
        }
        try
        {
            node.port.flushWrites();
        }
        catch (final ProtocolException ignore)
        {
            // as above
        }
    }

    /**
     * The arrival index of a node of two: 0 (last) if it had the other's message when it sent its own, 1 if the
     * other had its message, and by the barrier's number if neither had (they arrived together).
     */
    private int pairIndex(final boolean sawPartner, final boolean partnerSawOurs, final long barrierNumber)
    {
        if (sawPartner == partnerSawOurs)
        {
            return barrierNumber % 2 == node.nodeId ? 0 : 1;
        }
        return sawPartner ? 0 : 1;
    }

    /**
     * The barrier of two nodes ({@link PairBarrier}): this node's arrival word into the partner's memory, then a
     * wait for the partner's in this node's; {@code startNs} is the clock the caller read on entry.
     */
    private int exchangePair(final int kind, final long timeoutNs, final boolean interruptible, final long startNs)
    {
        epoch++;
        final boolean counted = SyncState.FULL_BARRIER == kind;
        final long barrierNumber = counted ? fullBarriers++ : -1;
        final int arrival = node.layout.pairArrival((int)(epoch & 1));
        final boolean sawPartner = PairBarrier.isFor(node.control.getLongVolatile(arrival), epoch);
        final long ownSequence = node.intervals.clock().get(node.nodeId);
        if (ownSequence > PairBarrier.MAX_SEQUENCE)
        {
            node.sync.failWith("interval " + ownSequence + " is beyond what a barrier of two nodes carries");
        }
        wait.start(timeoutNs, interruptible, startNs);
        try
        {
            pair.arrive(PairBarrier.word(ownSequence, kind, sawPartner, epoch), epoch);
            final int outcome = node.sync.awaitPair(pair, node.control, arrival, epoch, wait);
            if (SyncWait.PENDING != outcome)
            {
                if (SyncState.BROKEN != outcome)
                {
                    breakBarrier(SyncWait.TIMED_OUT == outcome ? SyncState.BROKEN_BY_TIMEOUT :
                        SyncState.BROKEN_BY_INTERRUPT, epoch);
                }
                return outcome;
            }
        }
        finally
        {
            wait.finish();
        }
        final long word = node.control.getLongVolatile(arrival);
        if (PairBarrier.kind(word) != kind)
        {
            node.sync.failKindMismatch(pair.partner(), PairBarrier.kind(word), kind, epoch);
        }
        merged.copyFrom(node.intervals.clock());
        if (PairBarrier.sequence(word) > merged.get(pair.partner()))
        {
            merged.set(pair.partner(), PairBarrier.sequence(word));
        }
        return counted ? pairIndex(sawPartner, PairBarrier.sawPartner(word), barrierNumber) : 0;
    }

    /**
     * The rounds of a barrier; {@code startNs} is the clock the caller read on entry, which starts the wait too.
     */
    private int exchange(final int kind, final long timeoutNs, final boolean interruptible, final long startNs)
    {
        final int nodeId = node.nodeId;
        final int nodeCount = node.nodeCount;
        epoch++;
        final int parity = (int)(epoch & 1);
        final boolean counted = SyncState.FULL_BARRIER == kind;
        final long barrierNumber = counted ? fullBarriers++ : -1;
        int index = 0;
        merged.copyFrom(node.intervals.clock());
        wait.start(timeoutNs, interruptible, startNs);
        try
        {
            for (int round = 0; round < rounds; round++)
            {
                final int distance = 1 << round;
                final int to = (nodeId + distance) % nodeCount;
                final int from = (nodeId - distance % nodeCount + nodeCount) % nodeCount;
                final int outbox = node.outbox(ControlRegionLayout.OUTBOX_BARRIER + round);
                merged.write(node.control, outbox);
                node.port.writeAndNotify(to, SyncNode.CONTROL, node.layout.mailbox(parity, round), SyncNode.CONTROL,
                    outbox, node.layout.clockLength(), Notifications.of(Notifications.BARRIER,
                        BarrierMailbox.barrierArgument(kind, parity, round)));
                node.counters.increment(Counter.MESSAGES_SENT);
                if (counted && 0 == round)
                {
                    final long before = node.port.fetchAndAdd((int)(barrierNumber % nodeCount), SyncNode.CONTROL,
                        node.layout.arrivals(), 1L);
                    index = nodeCount - 1 - (int)(before % nodeCount);
                }
                final int outcome = node.sync.awaitBarrier(kind, parity, round, from, epoch, wait);
                if (SyncWait.PENDING != outcome)
                {
                    if (SyncState.BROKEN != outcome)
                    {
                        breakBarrier(SyncWait.TIMED_OUT == outcome ? SyncState.BROKEN_BY_TIMEOUT :
                            SyncState.BROKEN_BY_INTERRUPT, epoch);
                    }
                    return outcome;
                }
                merged.merge(node.control, node.layout.mailbox(parity, round));
            }
        }
        finally
        {
            wait.finish();
        }
        node.port.flushWrites();
        return index;
    }
}
