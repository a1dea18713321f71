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
 *  |                Head (long): consumer, own cache line          |  64
 *  +---------------------------------------------------------------+
 *  |                Tail (long): producers, own cache line         |  128
 *  +---------------------------------------------------------------+
 *  |   Slots: entry (long), 0 when empty; (viId * 2 + recv) + 1    |  192 + 8 * i
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class CqLayout
{
    /** Offset of the logical capacity. */
    public static final int CAPACITY_OFFSET = 0;
    /** Offset of the consumer's head index. */
    public static final int HEAD_OFFSET = 64;
    /** Offset of the producers' tail index. */
    public static final int TAIL_OFFSET = 128;
    /** Offset of the first slot. */
    public static final int SLOTS_OFFSET = 192;
    /** Length of one slot. */
    public static final int SLOT_LENGTH = 8;

    private CqLayout()
    {
    }

    /**
     * Bytes of a completion queue.
     *
     * @param slots entries it can hold at most.
     * @return the length.
     */
    public static int length(final int slots)
    {
        return SLOTS_OFFSET + slots * SLOT_LENGTH;
    }

    /**
     * Encodes a completion entry.
     *
     * @param viId      the VI with a completed descriptor.
     * @param recvQueue whether it is on the receive queue.
     * @return the entry, never 0.
     */
    public static long entry(final int viId, final boolean recvQueue)
    {
        return (((long)viId << 1) | (recvQueue ? 1 : 0)) + 1;
    }

    /**
     * The VI of an entry.
     *
     * @param entry a non-zero entry.
     * @return the VI id.
     */
    public static int viId(final long entry)
    {
        return (int)((entry - 1) >>> 1);
    }

    /**
     * The queue of an entry.
     *
     * @param entry a non-zero entry.
     * @return true for the receive queue.
     */
    public static boolean isRecvQueue(final long entry)
    {
        return ((entry - 1) & 1) != 0;
    }
}
