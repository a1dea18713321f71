package org.viadsm.via.engine;

import java.lang.invoke.VarHandle;

import org.agrona.UnsafeApi;

/**
 * The registration a user of a {@link RegistrationTable} checked last, remembered so that the next check of the
 * same handle reads one word of the table, its generation, instead of the whole entry. An entry's body changes only
 * while its generation does (retired to 0, then published under a newer one), so a handle whose generation is still
 * the entry's names the same protection tag, enable bits and length as when it was remembered. The memo keeps where
 * that word lies and the generation the handle carries, so that a check reads the word without going through the
 * table.
 * <p>
 * <b>Note:</b> not thread-safe; one per user of the table (a VI's initiator, a connection's mirror).
 */
public final class CheckedRegion
{
    private int handle;
    private int index;
    private int ptag;
    private int flags;
    private int length;
    private int generation;
    private Object generationBase;
    private long generationAddress;

    /**
     * A memo that remembers nothing yet.
     */
    public CheckedRegion()
    {
    }

    /**
     * Whether {@link #remember remembered} handle {@code handle} still names a live registration under
     * {@code ptag}, with {@code requiredFlags} enabled and covering {@code [address, address + length)}: the
     * outcome {@link RegistrationTable#check} of the table it was remembered from would give, read with acquire
     * semantics like it.
     *
     * @param handle        a memory handle.
     * @param ptag          the protection tag the access runs under.
     * @param requiredFlags RDMA enable bits the access needs.
     * @param address       offset in the region.
     * @param length        bytes.
     * @return true if the access passes; false says nothing (check it in full).
     */
    public boolean passes(
        final int handle,
        final int ptag,
        final int requiredFlags,
        final long address,
        final long length)
    {
        return handle == this.handle && grants(ptag, requiredFlags) && covers(address, length);
    }

    /**
     * Whether the remembered registration grants an access under {@code ptag} with {@code requiredFlags}: what
     * {@link #passes} compares on every call, for a user whose tag and flags are the same on every access and who
     * asks once after {@link #remember}, then calls {@link #coversWord}.
     *
     * @param ptag          the protection tag the accesses run under.
     * @param requiredFlags RDMA enable bits they need.
     * @return true if it does (as long as {@link #coversWord} passes).
     */
    public boolean grants(final int ptag, final int requiredFlags)
    {
        return 0 != handle && ptag == this.ptag && (requiredFlags & flags) == requiredFlags;
    }

    /**
     * Whether the remembered registration is still live and covers {@code [address, address + 8)}: {@link #passes}
     * for the remembered handle, less what {@link #grants} answered once.
     *
     * @param address offset in the region.
     * @return true if the access passes; false says nothing (check it in full).
     */
    public boolean coversWord(final long address)
    {
        return covers(address, Long.BYTES);
    }

    private boolean covers(final long address, final long length)
    {
        return address >= 0 && length >= 0 && address <= this.length - length &&
            UnsafeApi.getIntAcquire(generationBase, generationAddress) == generation;
    }

    /**
     * Remembers a handle that just passed {@link RegistrationTable#check}. The entry is read again: should it have
     * changed since the check, its generation did too, and {@link #passes} fails.
     *
     * @param table  the table.
     * @param handle the handle.
     */
    public void remember(final RegistrationTable table, final int handle)
    {
        final int entry = table.handleIndex(handle);
        this.index = entry;
        this.ptag = table.ptag(entry);
        this.flags = table.flags(entry);
        this.length = table.length(entry);
        this.generation = table.handleGeneration(handle);
        this.generationBase = table.generationBase();
        this.generationAddress = table.generationAddress(entry);
        this.handle = handle;
        // the body's loads come before any later load of the generation in passes
        VarHandle.acquireFence();
    }

    /**
     * The table index of the remembered handle.
     *
     * @return the index.
     */
    public int index()
    {
        return index;
    }
}
