package org.viadsm.via.engine;

import org.agrona.collections.Int2IntHashMap;
import org.viadsm.via.memory.ProtectionTag;

/**
 * The protection tags of a NIC and how many VIs and registrations use each.
 * <p>
 * <b>Note:</b> not thread-safe; the NIC calls it under its lock.
 */
final class PtagTable
{
    private final long nicId;
    private final String address;
    private final Int2IntHashMap users = new Int2IntHashMap(-1);
    private int nextValue = 1;

    PtagTable(final long nicId, final String address)
    {
        this.nicId = nicId;
        this.address = address;
    }

    ProtectionTag create()
    {
        final int value = nextValue++;
        users.put(value, 0);
        return new ProtectionTag(nicId, value);
    }

    void destroy(final ProtectionTag ptag)
    {
        final int count = count(ptag);
        if (count > 0)
        {
            throw new IllegalStateException(
                "protection tag " + ptag.value() + " is still used by " + count + " VIs and registrations");
        }
        users.remove(ptag.value());
    }

    int acquire(final ProtectionTag ptag)
    {
        final int count = count(ptag);
        users.put(ptag.value(), count + 1);
        return ptag.value();
    }

    void release(final int value)
    {
        final int count = users.get(value);
        if (count > 0)
        {
            users.put(value, count - 1);
        }
    }

    private int count(final ProtectionTag ptag)
    {
        if (null == ptag)
        {
            throw new IllegalArgumentException("protection tag is null");
        }
        if (ptag.nicId() != nicId)
        {
            throw new IllegalArgumentException("protection tag " + ptag.value() + " belongs to another NIC, not " +
                address);
        }
        final int count = users.get(ptag.value());
        if (count < 0)
        {
            throw new IllegalArgumentException("protection tag " + ptag.value() + " was destroyed or never existed");
        }
        return count;
    }
}
