package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The target's registration a connection's one-sided operations resolved last, and its bytes, remembered so that
 * the next operation on the same handle reads the table entry once, to see that it still holds that registration
 * ({@link RegistrationTable#holds}), instead of the full check and the peer's view of the region, which read it
 * twice more. An initiator's RDMA and atomics mostly go to one region after another of the same (a DSM node's
 * control words, the page frame it writes again).
 * <p>
 * <b>Note:</b> not thread-safe; one per {@link TargetAccess}.
 */
final class TargetRegion
{
    private int handle;
    private int index;
    private int generation;
    private int ptag;
    private int flags;
    private int length;
    private long allocationId;
    private long location;
    private AtomicBuffer buffer;

    /**
     * The bytes of the remembered registration if {@code handle} is its handle, the entry still holds it, and it
     * admits the access: the outcome a full check and the peer's view would give.
     *
     * @param table         the target's registration table.
     * @param handle        a memory handle.
     * @param ptag          the target VI's protection tag.
     * @param requiredFlags RDMA enable bits the access needs.
     * @param address       offset in the region.
     * @param length        bytes.
     * @return the region's buffer, or null: nothing is known, check in full.
     */
    AtomicBuffer resolve(
        final RegistrationTable table,
        final int handle,
        final int ptag,
        final int requiredFlags,
        final long address,
        final int length)
    {
        return handle == this.handle && 0 != handle && ptag == this.ptag && (requiredFlags & flags) == requiredFlags &&
            address >= 0 && length >= 0 && address <= this.length - length &&
            table.holds(index, generation, this.ptag, flags, this.length, allocationId, location) ? buffer : null;
    }

    /**
     * Remembers a handle that just passed {@link RegistrationTable#check}, with the bytes the peer's view gave for
     * it. The entry is read again and kept only if it reads the same twice: one that changes meanwhile is not
     * remembered.
     *
     * @param table  the table.
     * @param handle the handle.
     * @param bytes  the region's buffer.
     */
    void remember(final RegistrationTable table, final int handle, final AtomicBuffer bytes)
    {
        this.handle = 0;
        final int entry = table.handleIndex(handle);
        final int entryGeneration = table.handleGeneration(handle);
        final int entryPtag = table.ptag(entry);
        final int entryFlags = table.flags(entry);
        final int entryLength = table.length(entry);
        final long entryAllocationId = table.allocationId(entry);
        final long entryLocation = table.location(entry);
        if (table.holds(entry, entryGeneration, entryPtag, entryFlags, entryLength, entryAllocationId, entryLocation))
        {
            this.index = entry;
            this.generation = entryGeneration;
            this.ptag = entryPtag;
            this.flags = entryFlags;
            this.length = entryLength;
            this.allocationId = entryAllocationId;
            this.location = entryLocation;
            this.buffer = bytes;
            this.handle = handle;
        }
    }
}
