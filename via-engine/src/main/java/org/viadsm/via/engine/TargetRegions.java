package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The target registrations one connection's RDMAs and atomics resolved, one per slot of their table index modulo
 * {@link #SLOTS}: an operation on a registration resolved before, and not changed since, is checked against the
 * remembered entry alone; any other takes the target table's full check, and its region is remembered in its slot.
 * A DSM node's operations on one connection alternate between regions (pages of its arrays, lock and barrier words,
 * message buffers), and with one region remembered most of them took the full check.
 * <p>
 * <b>Note:</b> not thread-safe: one instance per connection, used with its {@link TargetAccess}.
 */
final class TargetRegions
{
    private static final int SLOTS = 16;

    private final PeerNic target;
    private final ViRecord targetVi;
    private final TargetRegion[] resolved = new TargetRegion[SLOTS];
    private String detail;

    TargetRegions(final PeerNic target, final ViRecord targetVi)
    {
        this.target = target;
        this.targetVi = targetVi;
        for (int i = 0; i < SLOTS; i++)
        {
            resolved[i] = new TargetRegion();
        }
    }

    /**
     * Resolves a range of the target's memory after the target's checks (the rights, the ptag of the target VI,
     * the bounds, the registration's generation).
     *
     * @param handle  target memory handle.
     * @param address offset into the target region.
     * @param length  bytes.
     * @param flags   the {@link RegistrationLayout} rights the operation needs.
     * @return the region's memory, or null if a check failed ({@link #detail()} says which).
     */
    AtomicBuffer resolve(final int handle, final long address, final int length, final int flags)
    {
        final RegistrationTable table = target.area().table();
        final TargetRegion region = resolved[table.handleIndex(handle) & (SLOTS - 1)];
        final AtomicBuffer buffer = region.resolve(table, handle, targetVi.ptag(), flags, address, length);
        return null != buffer ? buffer : resolveAnew(region, handle, address, length, flags);
    }

    /**
     * What the last failed {@link #resolve} found.
     *
     * @return a sentence.
     */
    String detail()
    {
        return detail;
    }

    /**
     * A registration not resolved in its slot, or one changed since: the full check and the peer's view of the
     * region, remembered in the slot; out of {@link #resolve}, so that the common case compiles small.
     */
    private AtomicBuffer resolveAnew(
        final TargetRegion region, final int handle, final long address, final int length, final int flags)
    {
        final RegistrationTable table = target.area().table();
        final int check = table.check(handle, targetVi.ptag(), flags, address, length);
        if (RegistrationTable.CHECK_OK != check)
        {
            detail = RegistrationTable.describe(check) + ": handle 0x" + Integer.toHexString(handle) +
                " address " + address + " length " + length + " on " + target.address();
            return null;
        }
        final AtomicBuffer buffer = target.regionBuffer(table.handleIndex(handle), table.handleGeneration(handle));
        if (null == buffer)
        {
            detail = "memory of handle 0x" + Integer.toHexString(handle) + " on " + target.address() +
                " cannot be reached";
            return null;
        }
        region.remember(table, handle, buffer);
        return buffer;
    }
}
