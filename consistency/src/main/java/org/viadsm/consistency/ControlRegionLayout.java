package org.viadsm.consistency;

import org.agrona.BitUtil;
import org.viadsm.consistency.notice.WriteNoticeLogLayout;

/**
 * Layout of a node's control region (region 0): the protocol's shared state that peers read and write one-sided.
 * Every area starts on a cache line.
 * <pre>
 *  +--------------------------------------------+
 *  | header                                      |  64 B
 *  | outbox: clocks this node sends              |  OUTBOX_SLOTS x clock stride
 *  | lock entries this node manages              |  ceil(maxLocks / N) x (tail 8 B + clock)
 *  | next pointers, one per lock id              |  maxLocks x 8 B
 *  | grant slot                                  |  lock id 8 B + clock
 *  | barrier mailboxes                           |  2 epochs x MAX_ROUNDS x clock stride
 *  | semaphore entries this node manages         |  ceil(maxSemaphores / N) x (count 8 B + N clocks)
 *  | allocation records and a scratch record      |  3 x ALLOCATION_RECORD_LENGTH
 *  | write-notice log (published)                |  see WriteNoticeLogLayout
 *  | write-notice scratch (peers' logs read here)|  same length
 *  +--------------------------------------------+
 * </pre>
 * A clock is stored as {@code N} little-endian longs. Lock {@code L} is managed by node {@code L mod N} at entry
 * {@code L / N}; semaphores likewise.
 */
public final class ControlRegionLayout
{
    /** Rounds of the dissemination barrier supported: enough for 2^8 nodes. */
    public static final int MAX_ROUNDS = 8;
    /** Bytes of one allocation record. */
    public static final int ALLOCATION_RECORD_LENGTH = 512;
    /** Outbox slot for a lock's clock written to its manager. */
    public static final int OUTBOX_LOCK = 0;
    /** Outbox slot for a grant's clock written to a successor. */
    public static final int OUTBOX_GRANT = 1;
    /** Outbox slot for a semaphore post's clock. */
    public static final int OUTBOX_SEMAPHORE = 2;
    /** First outbox slot for barrier rounds; round {@code r} uses {@code OUTBOX_BARRIER + r}. */
    public static final int OUTBOX_BARRIER = 3;
    /** Outbox slot for 8-byte scalars (next pointers). */
    public static final int OUTBOX_SCALAR = OUTBOX_BARRIER + MAX_ROUNDS;
    /** Slot clocks read from other nodes land in. */
    public static final int OUTBOX_INBOX = OUTBOX_SCALAR + 1;
    /** Number of outbox slots. */
    public static final int OUTBOX_SLOTS = OUTBOX_INBOX + 1;

    private final int nodeCount;
    private final int clockLength;
    private final int clockStride;
    private final int outboxOffset;
    private final int lockEntriesOffset;
    private final int lockEntryLength;
    private final int nextOffset;
    private final int grantOffset;
    private final int mailboxOffset;
    private final int semaphoreEntriesOffset;
    private final int semaphoreEntryLength;
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
        final long clock = BitUtil.align(n * Long.BYTES, BitUtil.CACHE_LINE_LENGTH);
        return BitUtil.CACHE_LINE_LENGTH + OUTBOX_SLOTS * clock +
            (config.maxLocks() + n - 1) / n * BitUtil.align(Long.BYTES + n * Long.BYTES, BitUtil.CACHE_LINE_LENGTH) +
            config.maxLocks() * (long)Long.BYTES + clock + BitUtil.CACHE_LINE_LENGTH + 2L * MAX_ROUNDS * clock +
            (config.maxSemaphores() + n - 1) / n * (Long.BYTES + n * n * Long.BYTES + BitUtil.CACHE_LINE_LENGTH) +
            3L * ALLOCATION_RECORD_LENGTH +
            2L * ((long)WriteNoticeLogLayout.HEADER_LENGTH +
            (long)config.logIntervals() * WriteNoticeLogLayout.INDEX_ENTRY_LENGTH +
            (long)config.logNotices() * WriteNoticeLogLayout.NOTICE_LENGTH) + 4096;
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
        int offset = BitUtil.CACHE_LINE_LENGTH;
        this.outboxOffset = offset;
        offset += OUTBOX_SLOTS * clockStride;
        this.lockEntriesOffset = offset;
        this.lockEntryLength = align(Long.BYTES + clockLength);
        offset += ceilDiv(config.maxLocks(), nodeCount) * lockEntryLength;
        this.nextOffset = offset;
        offset += align(config.maxLocks() * Long.BYTES);
        this.grantOffset = offset;
        offset += align(Long.BYTES + clockLength);
        this.mailboxOffset = offset;
        offset += 2 * MAX_ROUNDS * clockStride;
        this.semaphoreEntriesOffset = offset;
        this.semaphoreEntryLength = align(Long.BYTES + nodeCount * clockLength);
        offset += ceilDiv(config.maxSemaphores(), nodeCount) * semaphoreEntryLength;
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
     * Offset of the tail word of lock {@code lockId}, at its manager.
     *
     * @param lockId the lock.
     * @return its offset in the manager's region.
     */
    public int lockTail(final int lockId)
    {
        return lockEntriesOffset + (lockId / nodeCount) * lockEntryLength;
    }

    /**
     * Offset of the clock of lock {@code lockId}, at its manager: the clock of its last releaser.
     *
     * @param lockId the lock.
     * @return its offset in the manager's region.
     */
    public int lockClock(final int lockId)
    {
        return lockTail(lockId) + Long.BYTES;
    }

    /**
     * Offset of this node's next pointer for lock {@code lockId}: the successor's id plus one, or 0.
     *
     * @param lockId the lock.
     * @return its offset.
     */
    public int next(final int lockId)
    {
        return nextOffset + lockId * Long.BYTES;
    }

    /**
     * Offset of the grant slot's lock id.
     *
     * @return its offset.
     */
    public int grantLock()
    {
        return grantOffset;
    }

    /**
     * Offset of the grant slot's clock.
     *
     * @return its offset.
     */
    public int grantClock()
    {
        return grantOffset + Long.BYTES;
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
     * Offset of the count of semaphore {@code id}, at its manager.
     *
     * @param id the semaphore.
     * @return its offset in the manager's region.
     */
    public int semaphoreCount(final int id)
    {
        return semaphoreEntriesOffset + (id / nodeCount) * semaphoreEntryLength;
    }

    /**
     * Offset of the clock node {@code poster} left with semaphore {@code id}, at its manager.
     *
     * @param id     the semaphore.
     * @param poster the posting node.
     * @return its offset in the manager's region.
     */
    public int semaphoreClock(final int id, final int poster)
    {
        return semaphoreCount(id) + Long.BYTES + poster * clockLength;
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
