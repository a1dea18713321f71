package org.viadsm.via.engine;

import java.lang.invoke.VarHandle;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.via.internal.AgronaAccess;
import org.viadsm.via.internal.CheckedSpan;
import org.viadsm.via.memory.MemoryHandle;

import static org.viadsm.via.engine.RegistrationLayout.ALLOCATION_ID_OFFSET;
import static org.viadsm.via.engine.RegistrationLayout.ENTRY_LENGTH;
import static org.viadsm.via.engine.RegistrationLayout.FLAGS_OFFSET;
import static org.viadsm.via.engine.RegistrationLayout.FLAG_RDMA_READ;
import static org.viadsm.via.engine.RegistrationLayout.FLAG_RDMA_WRITE;
import static org.viadsm.via.engine.RegistrationLayout.GENERATION_OFFSET;
import static org.viadsm.via.engine.RegistrationLayout.LENGTH_OFFSET;
import static org.viadsm.via.engine.RegistrationLayout.LOCATION_OFFSET;
import static org.viadsm.via.engine.RegistrationLayout.PTAG_OFFSET;

/**
 * A NIC's registration table in its shared area: the owner publishes and retires entries, and anyone that reaches
 * the area checks memory handles against it.
 * <p>
 * <b>Note:</b> {@link #publish} and {@link #retire} are called by the owning NIC only, one call at a time;
 * {@link #check} and the readers may be called by any thread of any process that maps the area. An entry is
 * published like a seqlock: it is free (generation 0) while its body is written, and its generation is written
 * last with release semantics; a check reads the generation with acquire semantics, the body, and, after an acquire
 * fence, the generation again, so a concurrent retire or reuse is seen as a mismatch.
 * <p>
 * Handles are encoded with {@link MemoryHandle} at the index width {@link MemoryHandle#indexBits(int)} of the
 * table's capacity, which every side derives from the geometry in the area's header.
 */
public final class RegistrationTable
{
    /** Check outcome: the memory may be used. */
    public static final int CHECK_OK = 0;
    /** Check outcome: the handle names no live registration (unknown index, stale generation). */
    public static final int CHECK_INVALID_HANDLE = 1;
    /** Check outcome: the region is registered under another protection tag. */
    public static final int CHECK_PTAG_MISMATCH = 2;
    /** Check outcome: the range lies outside the region. */
    public static final int CHECK_OUT_OF_BOUNDS = 3;
    /** Check outcome: the region does not enable RDMA Write. */
    public static final int CHECK_RDMA_WRITE_DISABLED = 4;
    /** Check outcome: the region does not enable RDMA Read. */
    public static final int CHECK_RDMA_READ_DISABLED = 5;

    private final UnsafeBuffer buffer;
    // the entries, for check (it reads an entry only after checking the handle's index against the capacity)
    private final CheckedSpan entries;
    private final int offset;
    private final int capacity;
    private final int indexBits;

    /**
     * Wraps a table.
     *
     * @param buffer   the NIC area.
     * @param offset   offset of the table in the area.
     * @param capacity number of entries.
     */
    public RegistrationTable(final AtomicBuffer buffer, final int offset, final int capacity)
    {
        this.buffer = AgronaAccess.unsafeBuffer(buffer);
        this.indexBits = MemoryHandle.indexBits(capacity);
        this.entries = new CheckedSpan(buffer, offset, capacity * ENTRY_LENGTH);
        this.offset = offset;
        this.capacity = capacity;
    }

    /**
     * Number of entries.
     *
     * @return the table size.
     */
    public int capacity()
    {
        return capacity;
    }

    /**
     * The handle of a registration of this table.
     *
     * @param index      entry index.
     * @param generation the registration's generation.
     * @return the handle, never {@link MemoryHandle#NULL_HANDLE}.
     */
    public int handle(final int index, final int generation)
    {
        return MemoryHandle.handle(index, generation, indexBits);
    }

    /**
     * The generation that follows {@code generation} in this table's handles, skipping 0.
     *
     * @param generation the entry's last generation, 0 if never used.
     * @return the next generation.
     */
    public int nextGeneration(final int generation)
    {
        return MemoryHandle.nextGeneration(generation, indexBits);
    }

    /**
     * Owner side: publishes a registration on a free entry; the body first, then the generation with release
     * semantics.
     *
     * @param index        entry index, free.
     * @param generation   the registration's generation, never 0.
     * @param ptag         protection tag value.
     * @param flags        RDMA enable bits of {@link RegistrationLayout}.
     * @param length       region length.
     * @param allocationId provider-defined allocation id.
     * @param location     provider-defined location.
     */
    public void publish(
        final int index,
        final int generation,
        final int ptag,
        final int flags,
        final int length,
        final long allocationId,
        final long location)
    {
        final int entry = entryOffset(index);
        VarHandle.storeStoreFence();
        buffer.putInt(entry + PTAG_OFFSET, ptag);
        buffer.putInt(entry + FLAGS_OFFSET, flags);
        buffer.putInt(entry + LENGTH_OFFSET, length);
        buffer.putLong(entry + ALLOCATION_ID_OFFSET, allocationId);
        buffer.putLong(entry + LOCATION_OFFSET, location);
        buffer.putIntRelease(entry + GENERATION_OFFSET, generation);
    }

    /**
     * Owner side: retires a registration, so that its handle fails every later check.
     *
     * @param index entry index.
     */
    public void retire(final int index)
    {
        buffer.putIntVolatile(entryOffset(index) + GENERATION_OFFSET, 0);
    }

    /**
     * Checks that {@code [address, address + length)} of the region named by {@code handle} may be used by a VI
     * with protection tag {@code ptag} for an operation needing {@code requiredFlags}.
     *
     * @param handle        memory handle.
     * @param ptag          protection tag value of the VI.
     * @param requiredFlags RDMA enable bits the operation needs, 0 for local use.
     * @param address       offset into the region.
     * @param length        bytes.
     * @return {@link #CHECK_OK} or the first failing check.
     */
    public int check(final int handle, final int ptag, final int requiredFlags, final long address, final long length)
    {
        final int index = handleIndex(handle);
        final int generation = handleGeneration(handle);
        if (index >= capacity || 0 == generation)
        {
            return CHECK_INVALID_HANDLE;
        }
        final int entry = entryOffset(index);
        if (entries.getIntAcquire(entry + GENERATION_OFFSET) != generation)
        {
            return CHECK_INVALID_HANDLE;
        }
        final int regionPtag = entries.getInt(entry + PTAG_OFFSET);
        final int flags = entries.getInt(entry + FLAGS_OFFSET);
        final int regionLength = entries.getInt(entry + LENGTH_OFFSET);
        VarHandle.acquireFence();
        if (entries.getIntVolatile(entry + GENERATION_OFFSET) != generation)
        {
            return CHECK_INVALID_HANDLE;
        }
        if (regionPtag != ptag)
        {
            return CHECK_PTAG_MISMATCH;
        }
        if ((requiredFlags & FLAG_RDMA_WRITE) != 0 && (flags & FLAG_RDMA_WRITE) == 0)
        {
            return CHECK_RDMA_WRITE_DISABLED;
        }
        if ((requiredFlags & FLAG_RDMA_READ) != 0 && (flags & FLAG_RDMA_READ) == 0)
        {
            return CHECK_RDMA_READ_DISABLED;
        }
        if (address < 0 || length < 0 || address > regionLength - length)
        {
            return CHECK_OUT_OF_BOUNDS;
        }
        return CHECK_OK;
    }

    /**
     * The table index a handle of this table names.
     *
     * @param handle a memory handle.
     * @return its index, maybe beyond the table.
     */
    public int handleIndex(final int handle)
    {
        return MemoryHandle.index(handle, indexBits);
    }

    /**
     * The generation a handle of this table carries.
     *
     * @param handle a memory handle.
     * @return its generation, 0 only for handles never issued.
     */
    public int handleGeneration(final int handle)
    {
        return MemoryHandle.generation(handle, indexBits);
    }

    /**
     * The generation of an entry, read with acquire semantics.
     *
     * @param index entry index.
     * @return the generation, 0 if free.
     */
    public int generation(final int index)
    {
        return buffer.getIntAcquire(entryOffset(index) + GENERATION_OFFSET);
    }

    /**
     * The array holding the table's memory, null if it is native memory: with {@link #generationAddress(int)},
     * where {@link CheckedRegion} reads the generation of the entry it remembers on every access to its region.
     *
     * @return the array, or null.
     */
    Object generationBase()
    {
        return buffer.byteArray();
    }

    /**
     * Where the generation of an entry lies, relative to {@link #generationBase()}: for an index a {@link #check}
     * passed (so below the capacity).
     *
     * @param index the index of a handle that passed a check.
     * @return the address (or the offset in the array).
     */
    long generationAddress(final int index)
    {
        return buffer.addressOffset() + entryOffset(index) + GENERATION_OFFSET;
    }

    /**
     * Whether entry {@code index}, of a handle a {@link #check} passed, still holds the registration it held then:
     * the same generation over the same body, read like a check (the generation with acquire semantics, the body,
     * the generation again after an acquire fence), without a bounds check. The body is compared as well as the
     * generation because a handle's generation comes back once the entry's counter wrapped: a registration that
     * found it again over other bytes or with other rights is not the one checked.
     *
     * @param index        the index of a handle that passed a check.
     * @param generation   the handle's generation.
     * @param ptag         the protection tag the entry had.
     * @param flags        its RDMA enable bits.
     * @param length       its length.
     * @param allocationId its allocation id.
     * @param location     its location.
     * @return true if the entry is unchanged.
     */
    boolean holds(
        final int index,
        final int generation,
        final int ptag,
        final int flags,
        final int length,
        final long allocationId,
        final long location)
    {
        final int entry = entryOffset(index);
        if (entries.getIntAcquire(entry + GENERATION_OFFSET) != generation)
        {
            return false;
        }
        final boolean same = entries.getInt(entry + PTAG_OFFSET) == ptag &&
            entries.getInt(entry + FLAGS_OFFSET) == flags && entries.getInt(entry + LENGTH_OFFSET) == length &&
            entries.getLong(entry + ALLOCATION_ID_OFFSET) == allocationId &&
            entries.getLong(entry + LOCATION_OFFSET) == location;
        VarHandle.acquireFence();
        return same && entries.getIntVolatile(entry + GENERATION_OFFSET) == generation;
    }

    /**
     * Whether entry {@code index} is registration {@code generation} over the given bytes, read like a check: the
     * generation with acquire semantics, the body, and the generation again after an acquire fence.
     *
     * @param index        entry index.
     * @param generation   the registration's generation.
     * @param allocationId the allocation id the bytes lie in.
     * @param location     their location.
     * @param length       their length.
     * @return true if the entry is that registration and describes exactly those bytes.
     */
    public boolean describes(
        final int index, final int generation, final long allocationId, final long location, final int length)
    {
        final int entry = entryOffset(index);
        if (buffer.getIntAcquire(entry + GENERATION_OFFSET) != generation)
        {
            return false;
        }
        final boolean same = buffer.getLong(entry + ALLOCATION_ID_OFFSET) == allocationId &&
            buffer.getLong(entry + LOCATION_OFFSET) == location && buffer.getInt(entry + LENGTH_OFFSET) == length;
        VarHandle.acquireFence();
        return same && buffer.getIntVolatile(entry + GENERATION_OFFSET) == generation;
    }

    /**
     * The protection tag of an entry.
     *
     * @param index entry index.
     * @return the ptag value.
     */
    public int ptag(final int index)
    {
        return buffer.getInt(entryOffset(index) + PTAG_OFFSET);
    }

    /**
     * The RDMA enable bits of an entry.
     *
     * @param index entry index.
     * @return the flags.
     */
    public int flags(final int index)
    {
        return buffer.getInt(entryOffset(index) + FLAGS_OFFSET);
    }

    /**
     * The region length of an entry.
     *
     * @param index entry index.
     * @return bytes.
     */
    public int length(final int index)
    {
        return buffer.getInt(entryOffset(index) + LENGTH_OFFSET);
    }

    /**
     * The allocation id of an entry.
     *
     * @param index entry index.
     * @return the provider-defined allocation id.
     */
    public long allocationId(final int index)
    {
        return buffer.getLong(entryOffset(index) + ALLOCATION_ID_OFFSET);
    }

    /**
     * The location of an entry.
     *
     * @param index entry index.
     * @return the provider-defined location.
     */
    public long location(final int index)
    {
        return buffer.getLong(entryOffset(index) + LOCATION_OFFSET);
    }

    /**
     * Says what a check outcome means, for descriptor-error details.
     *
     * @param outcome a {@code CHECK_*} value.
     * @return a short phrase.
     */
    public static String describe(final int outcome)
    {
        switch (outcome)
        {
            case CHECK_OK:
                return "ok";
            case CHECK_INVALID_HANDLE:
                return "invalid or deregistered memory handle";
            case CHECK_PTAG_MISMATCH:
                return "protection tag mismatch";
            case CHECK_OUT_OF_BOUNDS:
                return "range out of the region's bounds";
            case CHECK_RDMA_WRITE_DISABLED:
                return "RDMA Write not enabled on the region";
            case CHECK_RDMA_READ_DISABLED:
                return "RDMA Read not enabled on the region";
            default:
                return "check outcome " + outcome;
        }
    }

    private int entryOffset(final int index)
    {
        return offset + index * ENTRY_LENGTH;
    }
}
