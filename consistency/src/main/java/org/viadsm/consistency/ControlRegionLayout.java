package org.viadsm.consistency;

import org.agrona.BitUtil;
import org.viadsm.consistency.notice.WriteNoticeLogLayout;

/**
 * Layout of a node's control region (region 0): the protocol's shared state that peers read and write one-sided.
 * Every area starts on a cache line.
 * <pre>
 *  +---------------------------------------------+
 *  | header                                       |  64 B
 *  | outbox: clocks this node sends               |  OUTBOX_SLOTS x clock stride
 *  | lock tails this node manages                 |  ceil(lockIds / N) x 64 B
 *  | lock queue elements, one per lock id         |  lockIds x align64(2 x (word 8 B + clock))
 *  | grant outbox and grant inbox                 |  2 x align64(clock + FORWARDED_NOTICES_LENGTH)
 *  | barrier mailboxes                            |  2 epochs x MAX_ROUNDS x clock stride
 *  | barrier arrival counter                      |  64 B
 *  | copyset registrations at this home           |  64 B
 *  | semaphore counts this node manages           |  ceil(maxSemaphores / N) x 64 B
 *  | condition queues this node manages           |  ceil(conditionIds / N) x 64 B (head, tail)
 *  | condition wait records, one per condition id |  conditionIds x 16 B (state, next)
 *  | allocation records and a scratch record      |  3 x ALLOCATION_RECORD_LENGTH
 *  | write-notice log (published)                 |  see WriteNoticeLogLayout
 *  | write-notice scratch (peers' logs read here) |  same length
 *  +---------------------------------------------+
 * </pre>
 * A clock is stored as {@code N} little-endian longs. Lock {@code L} is managed by node {@code L mod N} at entry
 * {@code L / N}; semaphores and conditions likewise. Lock ids run to {@link #lockIds(ProtocolConfig)}: the user's
 * {@code maxLocks}, then one per semaphore; condition ids likewise to {@link #conditionIds(ProtocolConfig)}.
 */
public final class ControlRegionLayout
{
    /** Rounds of the dissemination barrier supported: enough for 2^8 nodes. */
    public static final int MAX_ROUNDS = 8;
    /** Bytes of one allocation record. */
    public static final int ALLOCATION_RECORD_LENGTH = 512;
    /** First outbox slot for barrier rounds; round {@code r} uses {@code OUTBOX_BARRIER + r}. */
    public static final int OUTBOX_BARRIER = 0;
    /** Outbox slot for scalars written to or read from other nodes (words, queue pointers). */
    public static final int OUTBOX_SCALAR = OUTBOX_BARRIER + MAX_ROUNDS;
    /** Slot clocks read from other nodes land in. */
    public static final int OUTBOX_INBOX = OUTBOX_SCALAR + 1;
    /** Number of outbox slots. */
    public static final int OUTBOX_SLOTS = OUTBOX_INBOX + 1;
    /** Bytes of the write notices a lock grant forwards at most (see {@link #grantInbox()}). */
    public static final int FORWARDED_NOTICES_LENGTH = 4096;
    /** Bytes of a condition wait record: its state word, then its next word. */
    public static final int CONDITION_RECORD_LENGTH = 2 * Long.BYTES;

    private final int nodeCount;
    private final int clockLength;
    private final int clockStride;
    private final int outboxOffset;
    private final int lockTailsOffset;
    private final int lockElementsOffset;
    private final int lockElementLength;
    private final int grantOutboxOffset;
    private final int grantInboxOffset;
    private final int mailboxOffset;
    private final int arrivalsOffset;
    private final int registrationsOffset;
    private final int semaphoresOffset;
    private final int conditionQueuesOffset;
    private final int conditionRecordsOffset;
    private final int allocationOffset;
    private final WriteNoticeLogLayout logLayout;
    private final int logOffset;
    private final int logScratchOffset;
    private final int length;

    /**
     * Bytes the control region needs for a configuration, computed without overflow, so that configurations too
     * large for a region can be refused.
     *
     * @param config a configuration.
     * @return the region length.
     */
    public static long lengthOf(final ProtocolConfig config)
    {
        final long n = config.nodeCount();
        final long line = BitUtil.CACHE_LINE_LENGTH;
        final long clock = BitUtil.align(n * Long.BYTES, BitUtil.CACHE_LINE_LENGTH);
        final long locks = lockIds(config);
        final long conditions = conditionIds(config);
        return line + OUTBOX_SLOTS * clock +
            (locks + n - 1) / n * line +
            locks * BitUtil.align(2 * (Long.BYTES + n * Long.BYTES), BitUtil.CACHE_LINE_LENGTH) +
            2 * BitUtil.align(n * Long.BYTES + FORWARDED_NOTICES_LENGTH, BitUtil.CACHE_LINE_LENGTH) +
            2L * MAX_ROUNDS * clock + line + line +
            (config.maxSemaphores() + n - 1) / n * line +
            (conditions + n - 1) / n * line + conditions * CONDITION_RECORD_LENGTH + line +
            3L * ALLOCATION_RECORD_LENGTH +
            2L * ((long)WriteNoticeLogLayout.HEADER_LENGTH +
            (long)config.logIntervals() * WriteNoticeLogLayout.INDEX_ENTRY_LENGTH +
            (long)config.logNotices() * WriteNoticeLogLayout.NOTICE_LENGTH) + 4096;
    }

    /**
     * Number of lock ids: the user's locks, then one internal lock per semaphore.
     *
     * @param config a configuration.
     * @return {@code maxLocks + maxSemaphores}.
     */
    public static int lockIds(final ProtocolConfig config)
    {
        return config.maxLocks() + config.maxSemaphores();
    }

    /**
     * Number of condition ids: as many user conditions as user locks, then one internal condition per semaphore.
     *
     * @param config a configuration.
     * @return {@code maxLocks + maxSemaphores}.
     */
    public static int conditionIds(final ProtocolConfig config)
    {
        return config.maxLocks() + config.maxSemaphores();
    }

    /**
     * Computes the layout for a configuration.
     *
     * @param config a concluded configuration.
     */
    public ControlRegionLayout(final ProtocolConfig config)
    {
        this.nodeCount = config.nodeCount();
        this.clockLength = nodeCount * Long.BYTES;
        this.clockStride = align(clockLength);
        final int locks = lockIds(config);
        final int conditions = conditionIds(config);
        int offset = BitUtil.CACHE_LINE_LENGTH;
        this.outboxOffset = offset;
        offset += OUTBOX_SLOTS * clockStride;
        this.lockTailsOffset = offset;
        offset += ceilDiv(locks, nodeCount) * BitUtil.CACHE_LINE_LENGTH;
        this.lockElementsOffset = offset;
        this.lockElementLength = align(2 * (Long.BYTES + clockLength));
        offset += locks * lockElementLength;
        this.grantOutboxOffset = offset;
        offset += align(clockLength + FORWARDED_NOTICES_LENGTH);
        this.grantInboxOffset = offset;
        offset += align(clockLength + FORWARDED_NOTICES_LENGTH);
        this.mailboxOffset = offset;
        offset += 2 * MAX_ROUNDS * clockStride;
        this.arrivalsOffset = offset;
        offset += BitUtil.CACHE_LINE_LENGTH;
        this.registrationsOffset = offset;
        offset += BitUtil.CACHE_LINE_LENGTH;
        this.semaphoresOffset = offset;
        offset += ceilDiv(config.maxSemaphores(), nodeCount) * BitUtil.CACHE_LINE_LENGTH;
        this.conditionQueuesOffset = offset;
        offset += ceilDiv(conditions, nodeCount) * BitUtil.CACHE_LINE_LENGTH;
        this.conditionRecordsOffset = offset;
        offset += align(conditions * CONDITION_RECORD_LENGTH);
        this.allocationOffset = offset;
        offset += 3 * ALLOCATION_RECORD_LENGTH;
        this.logLayout = new WriteNoticeLogLayout(config.logIntervals(), config.logNotices());
        this.logOffset = offset;
        offset += logLayout.length();
        this.logScratchOffset = offset;
        offset += logLayout.length();
        this.length = BitUtil.align(offset, 4096);
    }

    /**
     * Total bytes of the region.
     *
     * @return the region length, a multiple of 4096.
     */
    public int length()
    {
        return length;
    }

    /**
     * Bytes of one stored clock.
     *
     * @return {@code 8 * nodeCount}.
     */
    public int clockLength()
    {
        return clockLength;
    }

    /**
     * Offset of an outbox slot.
     *
     * @param slot one of the {@code OUTBOX_*} constants.
     * @return its offset.
     */
    public int outbox(final int slot)
    {
        return outboxOffset + slot * clockStride;
    }

    /**
     * Offset of the tail word of lock {@code lockId}, at its manager: the last node to join the lock's queue, plus
     * one; 0 if no node ever has.
     *
     * @param lockId the lock.
     * @return its offset in the manager's region.
     */
    public int lockTail(final int lockId)
    {
        return lockTailsOffset + (lockId / nodeCount) * BitUtil.CACHE_LINE_LENGTH;
    }

    /**
     * Offset of this node's queue element word for lock {@code lockId} (see {@code LockWord}).
     *
     * @param lockId the lock.
     * @return its offset, in every node's region.
     */
    public int lockElement(final int lockId)
    {
        return lockElementsOffset + lockId * lockElementLength;
    }

    /**
     * Offset of the clock beside this node's queue element for lock {@code lockId}: the clock of the release that
     * handed the lock to this element or left it here.
     *
     * @param lockId the lock.
     * @return its offset, in every node's region.
     */
    public int lockClock(final int lockId)
    {
        return lockElement(lockId) + Long.BYTES;
    }

    /**
     * Offset of the successor's clock beside this node's queue element for lock {@code lockId}: a word holding the
     * node that wrote it plus one, then that node's clock when it queued behind this element. The releaser forwards
     * the notices that clock lacks with its grant.
     *
     * @param lockId the lock.
     * @return its offset (the word's), in every node's region.
     */
    public int lockSuccessorClock(final int lockId)
    {
        return lockClock(lockId) + clockLength;
    }

    /**
     * Offset of the area a grant is built in: the releaser's clock, then the notices it forwards.
     *
     * @return its offset.
     */
    public int grantOutbox()
    {
        return grantOutboxOffset;
    }

    /**
     * Offset of the area a grant lands in: the releaser's clock, then the notices it forwarded, at most
     * {@link #FORWARDED_NOTICES_LENGTH} bytes. A node waits for one grant at a time.
     *
     * @return its offset.
     */
    public int grantInbox()
    {
        return grantInboxOffset;
    }

    /**
     * Offset of a barrier mailbox.
     *
     * @param parity epoch parity, 0 or 1.
     * @param round  the round.
     * @return its offset.
     */
    public int mailbox(final int parity, final int round)
    {
        return mailboxOffset + (parity * MAX_ROUNDS + round) * clockStride;
    }

    /**
     * Offset of the arrival word of a two-node barrier: the partner adds its arrival at the barriers of this parity
     * into it. It is the first word of the mailbox of round 0, which a barrier of two nodes uses for nothing else.
     *
     * @param parity epoch parity, 0 or 1.
     * @return its offset.
     */
    public int pairArrival(final int parity)
    {
        return mailbox(parity, 0);
    }

    /**
     * Offset of the wake request of a two-node barrier: the partner, about to sleep in a barrier, puts the barrier's
     * number there, so that this node notifies it when it arrives. It is the first word of the mailbox of round 1,
     * which two nodes (one round) never use.
     *
     * @return its offset.
     */
    public int pairWakeRequest()
    {
        return mailbox(0, 1);
    }

    /**
     * Offset of the barrier arrival counter: the arrivals at the barriers this node counts.
     *
     * @return its offset.
     */
    public int arrivals()
    {
        return arrivalsOffset;
    }

    /**
     * Offset of the count of copyset registrations at this node, for the pages of every array it is home of: a
     * node that joins copysets here bumps it after the array's own registration count, so that a release looks at
     * one word, not at every array's count, to learn whether anybody may have started caching its pages.
     *
     * @return its offset.
     */
    public int registrations()
    {
        return registrationsOffset;
    }

    /**
     * Offset of the permit count of semaphore {@code id}, at its manager.
     *
     * @param id the semaphore.
     * @return its offset in the manager's region.
     */
    public int semaphorePermits(final int id)
    {
        return semaphoresOffset + (id / nodeCount) * BitUtil.CACHE_LINE_LENGTH;
    }

    /**
     * Offset of the queue of condition {@code conditionId}, at its manager: the head word (first waiter plus one,
     * 0 if none), then the tail word.
     *
     * @param conditionId the condition.
     * @return its offset in the manager's region.
     */
    public int conditionQueue(final int conditionId)
    {
        return conditionQueuesOffset + (conditionId / nodeCount) * BitUtil.CACHE_LINE_LENGTH;
    }

    /**
     * Offset of this node's wait record for condition {@code conditionId}: its state word, then the next waiter
     * plus one.
     *
     * @param conditionId the condition.
     * @return its offset, in every node's region.
     */
    public int conditionRecord(final int conditionId)
    {
        return conditionRecordsOffset + conditionId * CONDITION_RECORD_LENGTH;
    }

    /**
     * Offset of an allocation record.
     *
     * @param parity allocation sequence parity, 0 or 1.
     * @return its offset.
     */
    public int allocationRecord(final int parity)
    {
        return allocationOffset + parity * ALLOCATION_RECORD_LENGTH;
    }

    /**
     * Offset of the scratch record peers' allocation records are read into.
     *
     * @return its offset.
     */
    public int allocationScratch()
    {
        return allocationOffset + 2 * ALLOCATION_RECORD_LENGTH;
    }

    /**
     * Offset of this node's published write-notice log.
     *
     * @return its offset.
     */
    public int log()
    {
        return logOffset;
    }

    /**
     * Offset of the scratch area peers' logs are read into.
     *
     * @return its offset.
     */
    public int logScratch()
    {
        return logScratchOffset;
    }

    /**
     * Layout of the write-notice logs.
     *
     * @return the log layout.
     */
    public WriteNoticeLogLayout logLayout()
    {
        return logLayout;
    }

    private static int align(final int value)
    {
        return BitUtil.align(value, BitUtil.CACHE_LINE_LENGTH);
    }

    private static int ceilDiv(final int a, final int b)
    {
        return (a + b - 1) / b;
    }
}
