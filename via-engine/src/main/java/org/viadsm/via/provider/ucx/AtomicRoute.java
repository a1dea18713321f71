package org.viadsm.via.provider.ucx;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.descriptor.DataSegments;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.CheckedRegion;
import org.viadsm.via.engine.RegistrationTable;

/**
 * The checks of the last atomic a link issued alone, remembered in one flat record: the local region its result went
 * to and the peer's region it reached, each by handle, table index, generation and the last offset an 8-byte word
 * fits at, with the peer region's location and remote key. The next atomic on the same two handles passes with the
 * loads of its descriptor, two range compares and the two entries' generations, instead of the local check, the
 * mirror's check and the segment list between them; anything else, or a registration changed since (its generation
 * moved), takes the full checks, which remember it anew. An entry's body changes only while its generation does
 * ({@link CheckedRegion}), so an unchanged generation names the same protection tag, rights and length as when the
 * full checks passed.
 * <p>
 * What the full checks read from the VI or the connection (atomics enabled on the VI, the peer VI's RDMA Read, the
 * agreed transfer size, the protection tags) is fixed for the link's life: checked once, when remembered.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class AtomicRoute
{
    private final RegistrationTable localTable;
    private final RegistrationTable remoteTable;
    private int localHandle;
    private int localIndex;
    private int localGeneration;
    private long localLimit;
    private AtomicBuffer localBuffer;
    private int remoteHandle;
    private int remoteIndex;
    private int remoteGeneration;
    private long remoteLimit;
    private long remoteBase;
    private long remoteKey;

    /**
     * @param localTable  this NIC's registration table.
     * @param remoteTable the link's mirror of the peer's.
     */
    AtomicRoute(final RegistrationTable localTable, final RegistrationTable remoteTable)
    {
        this.localTable = localTable;
        this.remoteTable = remoteTable;
    }

    /**
     * Whether an atomic passes both checks as the remembered one did: one 8-byte data segment of the remembered local
     * handle, the remembered remote handle, both words inside their regions (the remote one 8-byte aligned), and
     * neither registration changed since. False says nothing: check it in full.
     *
     * @param descriptor the posted atomic.
     * @param segments   its data segments.
     * @return true if it may be issued to {@link #remoteAddress} with {@link #remoteKey()}.
     */
    boolean passes(final Descriptor descriptor, final DataSegments segments)
    {
        final long remoteOffset = descriptor.remoteAddress();
        return 1 == segments.count() && localHandle == segments.handle(0) && 0 != localHandle &&
            remoteHandle == descriptor.remoteHandle() && 8 == segments.length(0) && 8 == descriptor.length() &&
            Long.compareUnsigned(segments.address(0), localLimit) <= 0 && 0 == (remoteOffset & 7) &&
            Long.compareUnsigned(remoteOffset, remoteLimit) <= 0 &&
            localTable.checkedGeneration(localIndex) == localGeneration &&
            remoteTable.checkedGeneration(remoteIndex) == remoteGeneration;
    }

    /**
     * Remembers an atomic that just passed the full checks: the local check's memo of its segment's region and the
     * mirror's of the peer's.
     *
     * @param descriptor the atomic.
     * @param local      the local check's memo of its data segment's region.
     * @param buffer     that region's memory.
     * @param remote     the mirror's memo of the peer's region.
     * @param base       the peer region's location in the peer process.
     * @param key        the peer region's remote key handle.
     */
    void remember(final Descriptor descriptor, final CheckedRegion local, final AtomicBuffer buffer,
        final CheckedRegion remote, final long base, final long key)
    {
        final int segmentHandle = descriptor.segments().handle(0);
        if (local.handle() != segmentHandle || remote.handle() != descriptor.remoteHandle() ||
            local.length() < 8 || remote.length() < 8)
        {
            localHandle = 0;
            return;
        }
        localIndex = local.index();
        localGeneration = localTable.handleGeneration(segmentHandle);
        localLimit = local.length() - 8L;
        localBuffer = buffer;
        remoteHandle = remote.handle();
        remoteIndex = remote.index();
        remoteGeneration = remoteTable.handleGeneration(remoteHandle);
        remoteLimit = remote.length() - 8L;
        remoteBase = base;
        remoteKey = key;
        localHandle = segmentHandle;
    }

    /**
     * The remembered local region's memory, where a passing atomic's result goes at its segment's offset.
     *
     * @return the buffer.
     */
    AtomicBuffer localBuffer()
    {
        return localBuffer;
    }

    /**
     * The address in the peer process of a passing atomic's word.
     *
     * @param descriptor the atomic.
     * @return the remote address.
     */
    long remoteAddress(final Descriptor descriptor)
    {
        return remoteBase + descriptor.remoteAddress();
    }

    /**
     * The remote key handle of the remembered peer region.
     *
     * @return the handle.
     */
    long remoteKey()
    {
        return remoteKey;
    }
}
