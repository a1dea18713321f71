package org.viadsm.dsm;

import java.nio.charset.StandardCharsets;

import org.agrona.MutableDirectBuffer;
import org.viadsm.consistency.ControlRegionLayout;

/**
 * Flyweight over an allocation record in a control region: what a node did in its {@code sequence}-th collective
 * allocation, free or condition, which every node reads from every other to check they agree.
 * <pre>
 *   0  sequence (long)        8  kind (int)            12  element type (int)
 *  16  length (long)         24  placement fingerprint (long)
 *  32  allocation (long)     40  region handle (int)  44  name length (int)
 *  48  name (UTF-8)
 * </pre>
 * {@code allocation} numbers the allocations alone: an allocation's own number, or for a free the number of the
 * allocation it frees. A record that makes a condition of a lock takes its turn among the allocations (conditions
 * are made collectively too): its {@code allocation} is the condition's number and its {@code length} the lock.
 */
final class AllocationRecord
{
    /** Kind of a record that allocates an array. */
    static final int ALLOCATE = 0;
    /** Kind of a record that frees one. */
    static final int FREE = 1;
    /** Kind of a record that makes a condition of a lock: its length is the lock, its allocation the condition. */
    static final int CONDITION = 2;
    static final int MAX_NAME_BYTES = ControlRegionLayout.ALLOCATION_RECORD_LENGTH - 48;

    private static final int SEQUENCE_OFFSET = 0;
    private static final int KIND_OFFSET = 8;
    private static final int TYPE_OFFSET = 12;
    private static final int LENGTH_OFFSET = 16;
    private static final int PLACEMENT_OFFSET = 24;
    private static final int ALLOCATION_OFFSET = 32;
    private static final int HANDLE_OFFSET = 40;
    private static final int NAME_LENGTH_OFFSET = 44;
    private static final int NAME_OFFSET = 48;

    private MutableDirectBuffer buffer;
    private int offset;

    AllocationRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    AllocationRecord write(
        final long sequence, final int kind, final Allocation allocation, final int handle)
    {
        final byte[] name = allocation.nameBytes();
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence);
        buffer.putInt(offset + KIND_OFFSET, kind);
        buffer.putInt(offset + TYPE_OFFSET, allocation.type().ordinal());
        buffer.putLong(offset + LENGTH_OFFSET, allocation.length());
        buffer.putLong(offset + PLACEMENT_OFFSET, allocation.placement());
        buffer.putLong(offset + ALLOCATION_OFFSET, allocation.number());
        buffer.putInt(offset + HANDLE_OFFSET, handle);
        buffer.putInt(offset + NAME_LENGTH_OFFSET, name.length);
        buffer.putBytes(offset + NAME_OFFSET, name);
        return this;
    }

    AllocationRecord writeCondition(final long sequence, final int condition, final int lockId)
    {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence);
        buffer.putInt(offset + KIND_OFFSET, CONDITION);
        buffer.putInt(offset + TYPE_OFFSET, 0);
        buffer.putLong(offset + LENGTH_OFFSET, lockId);
        buffer.putLong(offset + PLACEMENT_OFFSET, 0L);
        buffer.putLong(offset + ALLOCATION_OFFSET, condition);
        buffer.putInt(offset + HANDLE_OFFSET, 0);
        buffer.putInt(offset + NAME_LENGTH_OFFSET, 0);
        return this;
    }

    long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET);
    }

    int kind()
    {
        return buffer.getInt(offset + KIND_OFFSET);
    }

    int type()
    {
        return buffer.getInt(offset + TYPE_OFFSET);
    }

    long length()
    {
        return buffer.getLong(offset + LENGTH_OFFSET);
    }

    long placement()
    {
        return buffer.getLong(offset + PLACEMENT_OFFSET);
    }

    long allocation()
    {
        return buffer.getLong(offset + ALLOCATION_OFFSET);
    }

    int handle()
    {
        return buffer.getInt(offset + HANDLE_OFFSET);
    }

    String name()
    {
        final int nameLength = Math.min(Math.max(0, buffer.getInt(offset + NAME_LENGTH_OFFSET)), MAX_NAME_BYTES);
        final byte[] bytes = new byte[nameLength];
        buffer.getBytes(offset + NAME_OFFSET, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Whether two records describe the same collective (the handle may differ). */
    boolean sameAs(final AllocationRecord other)
    {
        return sequence() == other.sequence() && kind() == other.kind() && allocation() == other.allocation() &&
            type() == other.type() && length() == other.length() && placement() == other.placement() &&
            name().equals(other.name());
    }

    String describe()
    {
        if (CONDITION == kind())
        {
            return "condition #" + allocation() + " of lock " + length();
        }
        final ElementType[] types = ElementType.values();
        final String typeName = type() >= 0 && type() < types.length ? types[type()].label() : "type#" + type();
        return (FREE == kind() ? "free of allocation #" : "allocation #") + allocation() + " " + typeName + " '" +
            name() + "'[" + length() + "] with placement fingerprint " + Long.toHexString(placement());
    }
}
