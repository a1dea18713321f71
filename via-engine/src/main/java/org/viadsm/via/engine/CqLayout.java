package org.viadsm.via.engine;

/**
 * Layout of a completion queue in a NIC's shared area: a many-to-one ring of 8-byte entries with a logical
 * capacity at most its number of slots, so that {@code resize} needs no new storage.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     Logical Capacity                          |  0
 *  +---------------------------------------------------------------+
 *  |      Overrun: 1 once a lost completion was reported           |  8
 *  +---------------------------------------------------------------+
 *  |      Sleeper: bell of the thread asleep on the queue + 1  |  16
 *  +---------------------------------------------------------------+
 *  |                Head (long): consumer, own cache line          |  64
 *  +---------------------------------------------------------------+
 *  |                Tail (long): producers, own cache line         |  128
 *  +---------------------------------------------------------------+
 *  |   Slots (long): lap(29) | full(1) | entry(34)                 |  192 + 8 * i
 *  +---------------------------------------------------------------+
 * </pre>
 * A slot holds the lap of the index it serves next ({@code index / slots}, so that zeroed memory is every slot
 * empty for lap 0), a full bit, and the entry, {@code ((incarnation mod 2^16) * 2^17 + viId * 2 + recv) + 1}, never 0
 * (the VI record's incarnation tells an entry of a destroyed VI from one of the VI that took its id). A producer
 * fills the slot of
 * the index it reserved only from that lap's empty value, so a producer that comes late to a slot the consumer has
 * skipped or emptied for a later lap cannot write into it.
 */
final class CqLayout
{
    /** Offset of the logical capacity. */
    static final int CAPACITY_OFFSET = 0;
    /**
     * Offset of the overrun flag: set by the producer that reports a lost completion, cleared by the consumer when it
     * takes an entry, so that a full queue costs one asynchronous error per overrun, not one per lost completion.
     */
    static final int OVERRUN_OFFSET = 8;
    /**
     * Offset of the sleeper word: 0 unless the consumer's thread is about to sleep, or sleeps, waiting on the queue;
     * then the id of the bell that wakes it, plus 1 (see {@link WaitSlot}).
     */
    static final int SLEEPER_OFFSET = 16;
    /** Offset of the consumer's head index. */
    static final int HEAD_OFFSET = 64;
    /** Offset of the producers' tail index. */
    static final int TAIL_OFFSET = 128;
    /** Offset of the first slot. */
    static final int SLOTS_OFFSET = 192;
    /** Length of one slot. */
    static final int SLOT_LENGTH = 8;

    private static final int VI_MASK = 0xFFFF;
    private static final int INCARNATION_SHIFT = 17;
    private static final int INCARNATION_MASK = 0xFFFF;
    private static final int ENTRY_BITS = 34;
    private static final long ENTRY_MASK = (1L << ENTRY_BITS) - 1;
    private static final long FULL_BIT = 1L << ENTRY_BITS;
    private static final int LAP_SHIFT = ENTRY_BITS + 1;
    private static final long LAP_MASK = (1L << (64 - LAP_SHIFT)) - 1;

    private CqLayout()
    {
    }

    /**
     * The value of a slot that is empty, waiting for its index of lap {@code lap}.
     *
     * @param lap the index's lap.
     * @return the slot value.
     */
    static long emptySlot(final long lap)
    {
        return (lap & LAP_MASK) << LAP_SHIFT;
    }

    /**
     * The value of a slot holding {@code entry} for its index of lap {@code lap}.
     *
     * @param lap   the index's lap.
     * @param entry a non-zero entry.
     * @return the slot value.
     */
    static long fullSlot(final long lap, final long entry)
    {
        return emptySlot(lap) | FULL_BIT | (entry & ENTRY_MASK);
    }

    /**
     * Whether a slot value holds an entry for lap {@code lap}.
     *
     * @param value the slot value.
     * @param lap   the lap of the index read.
     * @return true if full for that lap.
     */
    static boolean isFull(final long value, final long lap)
    {
        return (value & ~ENTRY_MASK) == (emptySlot(lap) | FULL_BIT);
    }

    /**
     * The entry in a full slot value.
     *
     * @param value the slot value.
     * @return the entry.
     */
    static long slotEntry(final long value)
    {
        return value & ENTRY_MASK;
    }

    /**
     * Bytes of a completion queue.
     *
     * @param slots entries it can hold at most.
     * @return the length.
     */
    static int length(final int slots)
    {
        return SLOTS_OFFSET + slots * SLOT_LENGTH;
    }

    /**
     * Encodes a completion entry.
     *
     * @param viId        the VI with a completed descriptor.
     * @param recvQueue   whether it is on the receive queue.
     * @param incarnation the VI record's incarnation ({@link ViRecord#incarnation()}).
     * @return the entry, never 0.
     */
    static long entry(final int viId, final boolean recvQueue, final int incarnation)
    {
        return ((long)(incarnation & INCARNATION_MASK) << INCARNATION_SHIFT |
            (long)(viId & VI_MASK) << 1 | (recvQueue ? 1 : 0)) + 1;
    }

    /**
     * The VI of an entry.
     *
     * @param entry a non-zero entry.
     * @return the VI id.
     */
    static int viId(final long entry)
    {
        return (int)((entry - 1) >>> 1) & VI_MASK;
    }

    /**
     * Whether an entry was made by the VI record's incarnation {@code incarnation}.
     *
     * @param entry       a non-zero entry.
     * @param incarnation the record's current incarnation.
     * @return true if the entry belongs to that VI, not to an earlier VI with the same id.
     */
    static boolean isOf(final long entry, final int incarnation)
    {
        return ((entry - 1) >>> INCARNATION_SHIFT) == (incarnation & INCARNATION_MASK);
    }

    /**
     * The queue of an entry.
     *
     * @param entry a non-zero entry.
     * @return true for the receive queue.
     */
    static boolean isRecvQueue(final long entry)
    {
        return ((entry - 1) & 1) != 0;
    }
}
