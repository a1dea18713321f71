package org.viadsm.dsm;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.viadsm.consistency.ControlRegionLayout;
import org.viadsm.dsm.wire.WireCodec;

/**
 * What a node did in its {@code sequence}-th collective allocation, free or condition, which every node reads from
 * every other's control region (a length-prefixed message in a slot of
 * {@link ControlRegionLayout#ALLOCATION_RECORD_LENGTH} bytes) to check they agree.
 *
 * @param sequence   the collective's number on this node, from 1.
 * @param kind       {@link #ALLOCATE}, {@link #FREE} or {@link #CONDITION}.
 * @param type       the element type's ordinal.
 * @param name       the array's name.
 * @param length     its length in elements; for a condition, the lock.
 * @param placement  the placement's fingerprint.
 * @param allocation the allocations alone numbered: an allocation's own number, or for a free the number of the
 *                   allocation it frees. A condition takes its turn among the allocations (conditions are
 *                   made collectively too): its allocation is the condition's number.
 * @param handle     the memory handle under which the node registered its copy (0 for a free).
 */
record AllocationRecord(
    long sequence, int kind, int type, String name, long length, long placement, long allocation, int handle)
{
    /** Kind of a record that allocates an array. */
    static final int ALLOCATE = 0;
    /** Kind of a record that frees one. */
    static final int FREE = 1;
    /** Kind of a record that makes a condition of a lock: its length is the lock, its allocation the condition. */
    static final int CONDITION = 2;
    /** Room the other fields may take in a record's slot, beside the name (Kryo's variable-length encoding). */
    private static final int FIELDS_BYTES = 64;
    /** Longest name, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = ControlRegionLayout.ALLOCATION_RECORD_LENGTH - FIELDS_BYTES;

    /**
     * A codec for the messages a node exchanges while joining and allocating.
     *
     * @return a new codec, for one thread.
     */
    static WireCodec codec()
    {
        return new WireCodec(
            ControlRegionLayout.ALLOCATION_RECORD_LENGTH, List.of(Hello.class, AllocationRecord.class));
    }

    /**
     * This node's record of a collective.
     */
    static AllocationRecord of(final long sequence, final int kind, final Allocation allocation, final int handle)
    {
        return new AllocationRecord(sequence, kind, allocation.type().ordinal(),
            new String(allocation.nameBytes(), StandardCharsets.UTF_8), allocation.length(), allocation.placement(),
            allocation.number(), handle);
    }

    /**
     * This node's record of making a condition of a lock.
     */
    static AllocationRecord condition(final long sequence, final int condition, final int lockId)
    {
        return new AllocationRecord(sequence, CONDITION, 0, "", lockId, 0L, condition, 0);
    }

    /** Whether two records describe the same collective (the handle may differ). */
    boolean sameAs(final AllocationRecord other)
    {
        return sequence == other.sequence && kind == other.kind && allocation == other.allocation &&
            type == other.type && length == other.length && placement == other.placement && name.equals(other.name);
    }

    String describe()
    {
        if (CONDITION == kind)
        {
            return "condition #" + allocation + " of lock " + length;
        }
        final ElementType[] types = ElementType.values();
        final String typeName = type >= 0 && type < types.length ? types[type].label() : "type#" + type;
        return (FREE == kind ? "free of allocation #" : "allocation #") + allocation + " " + typeName + " '" +
            name + "'[" + length + "] with placement fingerprint " + Long.toHexString(placement);
    }
}
