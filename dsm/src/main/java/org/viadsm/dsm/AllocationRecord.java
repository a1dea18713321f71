package org.viadsm.dsm;

import java.nio.charset.StandardCharsets;

import org.agrona.MutableDirectBuffer;
import org.viadsm.consistency.ControlRegionLayout;

/**
 * Flyweight over an allocation record in a control region: what a node allocated as its {@code sequence}-th
 * shared array, which every node reads from every other to check they agree.
 * <pre>
 *   0  sequence (long)        8  element type (int)    12  name length (int)
 *  16  length (long)         24  placement fingerprint (long)
 *  32  region handle (int)   36  pages (int)           40  name (UTF-8)
 * </pre>
 */
final class AllocationRecord
{
    static final int MAX_NAME_BYTES = ControlRegionLayout.ALLOCATION_RECORD_LENGTH - 40;

    private static final int SEQUENCE_OFFSET = 0;
    private static final int TYPE_OFFSET = 8;
    private static final int NAME_LENGTH_OFFSET = 12;
    private static final int LENGTH_OFFSET = 16;
    private static final int PLACEMENT_OFFSET = 24;
    private static final int HANDLE_OFFSET = 32;
    private static final int PAGES_OFFSET = 36;
    private static final int NAME_OFFSET = 40;

    private MutableDirectBuffer buffer;
    private int offset;

    AllocationRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    AllocationRecord write(
        final long sequence, final ElementType type, final byte[] name, final long length, final long placement,
        final int handle, final int pages)
    {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence);
        buffer.putInt(offset + TYPE_OFFSET, type.ordinal());
        buffer.putInt(offset + NAME_LENGTH_OFFSET, name.length);
        buffer.putLong(offset + LENGTH_OFFSET, length);
        buffer.putLong(offset + PLACEMENT_OFFSET, placement);
        buffer.putInt(offset + HANDLE_OFFSET, handle);
        buffer.putInt(offset + PAGES_OFFSET, pages);
        buffer.putBytes(offset + NAME_OFFSET, name);
        return this;
    }

    long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET);
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

    /** Whether two records describe the same allocation (the handle may differ). */
    boolean sameAllocation(final AllocationRecord other)
    {
        return sequence() == other.sequence() && type() == other.type() && length() == other.length() &&
            placement() == other.placement() && name().equals(other.name());
    }

    String describe()
    {
        final ElementType[] types = ElementType.values();
        final String typeName = type() >= 0 && type() < types.length ? types[type()].label() : "type#" + type();
        return "allocation #" + sequence() + " " + typeName + " '" + name() + "'[" + length() + "]";
    }
}
