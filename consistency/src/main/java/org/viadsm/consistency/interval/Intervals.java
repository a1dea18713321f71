package org.viadsm.consistency.interval;

import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.consistency.Counter;
import org.viadsm.consistency.Counters;
import org.viadsm.consistency.SyncEpoch;
import org.viadsm.consistency.VectorClock;
import org.viadsm.consistency.notice.NoticeHistory;
import org.viadsm.consistency.notice.WriteNoticeLog;
import org.viadsm.consistency.notice.WriteNoticeReader;
import org.viadsm.consistency.page.PageCoherence;

/**
 * A node's intervals and vector clock: the release and acquire halves of every synchronization.
 * <p>
 * A release sends the interval's diffs home, then publishes its write notices in the node's log and advances
 * the node's own clock entry: the clock a releaser hands on covers only intervals whose diffs are already home and
 * whose notices are readable. An acquire takes the clock of the matching release and, for every node whose
 * entry is ahead of this node's, reads exactly the notices of the intervals in between and invalidates those
 * pages.
 * <p>
 * The notices of the intervals applied here and closed here stay in a {@link NoticeHistory}, so that a lock's
 * releaser can forward to the next holder the notices it lacks with the grant ({@link #forward}); the holder then
 * reads only the logs of the nodes whose intervals were not forwarded ({@link #acquireForwarded}).
 * <p>
 * <b>Note:</b> used by the node's application thread only.
 */
public final class Intervals
{
    private final int nodeId;
    private final VectorClock clock;
    private final WriteNoticeLog log;
    private final WriteNoticeReader reader;
    private final PageCoherence coherence;
    private final Counters counters;
    private final SyncEpoch epoch;
    private final IntArrayList notices = new IntArrayList();
    private final NoticeHistory history;
    private final boolean[] forwarded;
    private final WriteNoticeReader.NoticeHandler recorder = new WriteNoticeReader.NoticeHandler()
    {
        private int writer;

        public void onNotice(final int globalPage)
        {
            history.addPage(writer, globalPage);
            coherence.onNotice(globalPage);
        }

        public void onInterval(final int node, final long sequence)
        {
            writer = node;
            history.beginInterval(node, sequence);
        }
    };
    private int[] noticeArray = new int[64];
    private long clockChanges;

    /**
     * Creates the interval machinery.
     *
     * @param nodeId    this node.
     * @param nodeCount number of nodes.
     * @param log       this node's notice log.
     * @param reader    reads peers' logs.
     * @param coherence page actions.
     * @param counters  the node's counters.
     * @param epoch     advanced at every release and acquire.
     */
    public Intervals(
        final int nodeId,
        final int nodeCount,
        final WriteNoticeLog log,
        final WriteNoticeReader reader,
        final PageCoherence coherence,
        final Counters counters,
        final SyncEpoch epoch)
    {
        this.nodeId = nodeId;
        this.clock = new VectorClock(nodeCount);
        this.history = new NoticeHistory(nodeCount);
        this.forwarded = new boolean[nodeCount];
        this.log = log;
        this.reader = reader;
        this.coherence = coherence;
        this.counters = counters;
        this.epoch = epoch;
    }

    /**
     * The node's vector clock.
     *
     * @return the live clock.
     */
    public VectorClock clock()
    {
        return clock;
    }

    /**
     * How many times the node's clock may have changed: a release that closed an interval and every acquire that
     * merged a clock count once. Equal counts mean an equal clock.
     *
     * @return the count.
     */
    public long clockChanges()
    {
        return clockChanges;
    }

    /**
     * The node's notice log.
     *
     * @return the log.
     */
    public WriteNoticeLog log()
    {
        return log;
    }

    /**
     * Closes the current interval if it wrote anything: diffs home, notices published, own clock entry advanced.
     * Advances the {@link SyncEpoch} first, written pages or not.
     *
     * @return true if an interval was closed.
     */
    public boolean release()
    {
        epoch.advance();
        if (!coherence.hasReleaseWork())
        {
            coherence.releaseClean();
            return false;
        }
        final long startNs = System.nanoTime();
        // the notices land in noticeArray itself unless they outgrow it; no loop of this method copies them: a
        // release runs too rarely for the JIT to compile a loop here, so the copies below are bulk copies
        notices.wrap(noticeArray, 0);
        final int count = coherence.releaseDirty(notices);
        if (0 == count)
        {
            counters.add(Counter.RELEASE_NS, System.nanoTime() - startNs);
            return false;
        }
        if (count > noticeArray.length)
        {
            noticeArray = notices.toIntArray();
        }
        final long sequence = log.publish(noticeArray, count);
        history.beginInterval(nodeId, sequence);
        history.addPages(nodeId, noticeArray, count);
        clock.set(nodeId, sequence);
        clockChanges++;
        counters.increment(Counter.INTERVALS);
        counters.add(Counter.RELEASE_NS, System.nanoTime() - startNs);
        return true;
    }

    /**
     * An acquire with nothing to apply: the lock was released last by this node (cached here), so no other node
     * wrote under it since. Advances the {@link SyncEpoch} as every synchronization does.
     */
    public void acquireLocal()
    {
        epoch.advance();
    }

    /**
     * Brings this node up to {@code incoming}: applies the write notices of every interval it covers that this
     * node's clock does not, then merges the clocks. Advances the {@link SyncEpoch} first.
     *
     * @param incoming the clock of the matching release.
     */
    public void acquire(final VectorClock incoming)
    {
        acquire(incoming, true);
    }

    /**
     * As {@link #acquire}, for a lock: the lock's release follows, and with it a wait for every write and atomic
     * this node issued, before this node's next barrier or departure, so the acquire waits for none of those it
     * issues (the diffs of the dirty pages it invalidates, the leaves of the copysets it drops; see
     * {@link PageCoherence#finishLockAcquire()}).
     *
     * @param incoming the clock of the matching release.
     */
    public void acquireLock(final VectorClock incoming)
    {
        acquire(incoming, false);
    }

    private void acquire(final VectorClock incoming, final boolean barrier)
    {
        epoch.advance();
        for (int node = 0; node < clock.size(); node++)
        {
            if (node != nodeId)
            {
                reader.addRange(node, clock.get(node), incoming.get(node));
            }
        }
        finishAcquire(incoming, barrier);
    }

    /**
     * As {@link #acquireLock}, with the notices the releaser forwarded (see {@link #forward}): applies those of the
     * nodes whose intervals they all bring, and reads the others' from their logs.
     *
     * @param incoming the clock of the matching release.
     * @param buffer   the buffer holding the forwarded notices.
     * @param offset   their offset.
     */
    public void acquireForwarded(final VectorClock incoming, final AtomicBuffer buffer, final int offset)
    {
        epoch.advance();
        for (int node = 0; node < clock.size(); node++)
        {
            final long after = clock.get(node);
            final long upTo = incoming.get(node);
            forwarded[node] = node != nodeId && upTo > after &&
                ForwardedNotices.covers(buffer, offset, node, after, upTo);
            if (node != nodeId && !forwarded[node])
            {
                reader.addRange(node, after, upTo);
            }
        }
        counters.add(Counter.INTERVALS_FORWARDED, ForwardedNotices.apply(buffer, offset, forwarded, clock, recorder));
        finishAcquire(incoming, false);
    }

    /**
     * Writes the notices a node whose clock is {@code after} lacks of this node's clock, as far as this node
     * knows them and they fit (see {@link ForwardedNotices}).
     *
     * @param after    the next holder's clock, or an older one of it.
     * @param holder   the next holder.
     * @param buffer   where to write.
     * @param offset   the offset.
     * @param capacity bytes available from the offset, at least 4.
     * @return the bytes written, at most {@code capacity}.
     */
    public int forward(final VectorClock after, final int holder, final AtomicBuffer buffer, final int offset,
        final int capacity)
    {
        return ForwardedNotices.write(history, clock, after, holder, buffer, offset, capacity);
    }

    private void finishAcquire(final VectorClock incoming, final boolean barrier)
    {
        if (WriteNoticeReader.LOST == reader.readRanges(recorder))
        {
            counters.increment(Counter.NOTICE_LOG_OVERRUNS);
            coherence.invalidateAllCached();
            for (int node = 0; node < clock.size(); node++)
            {
                if (node != nodeId && incoming.get(node) > clock.get(node))
                {
                    history.forget(node, incoming.get(node));
                }
            }
        }
        if (barrier)
        {
            coherence.finishAcquire();
        }
        else
        {
            coherence.finishLockAcquire();
        }
        clock.merge(incoming);
        clockChanges++;
    }
}
