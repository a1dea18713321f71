package org.viadsm.via.provider.ucx;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.descriptor.DataSegments;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.engine.CheckedRegion;
import org.viadsm.via.engine.RegistrationTable;

/**
 * The checks of the last atomic a link issued alone, remembered together: the local region its result went to and
 * the peer's region it reached, each in a {@link CheckedRegion} of its own, with the local region's memory and the
 * peer region's location and remote key. The next atomic on the same two handles passes with the descriptor's shape
 * and the two memos, instead of the local check, the mirror's check and the segment list between them; anything
 * else, or a registration changed since, takes the full checks, which remember it anew.
 * <p>
 * What the full checks read from the VI or the connection (atomics enabled on the VI, the peer VI's RDMA Read, the
 * agreed transfer size) is fixed for the link's life: checked once, before an atomic is remembered.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class AtomicRoute
{
    private final RegistrationTable localTable;
    private final RegistrationTable remoteTable;
    private final int localPtag;
    private final int peerPtag;
    private final int rights;
    private final CheckedRegion local = new CheckedRegion();
    private final CheckedRegion remote = new CheckedRegion();
    private AtomicBuffer localBuffer;
    private long remoteBase;
    private long remoteKey;

    /**
     * @param localTable  this NIC's registration table.
     * @param localPtag   the protection tag of the link's VI.
     * @param remoteTable the link's mirror of the peer's.
     * @param peerPtag    the protection tag of the peer VI.
     * @param rights      the enable bits an atomic needs on the peer's region.
     */
    AtomicRoute(
        final RegistrationTable localTable,
        final int localPtag,
        final RegistrationTable remoteTable,
        final int peerPtag,
        final int rights)
    {
        this.localTable = localTable;
        this.localPtag = localPtag;
        this.remoteTable = remoteTable;
        this.peerPtag = peerPtag;
        this.rights = rights;
    }

    /**
     * Whether an atomic passes both checks as the remembered one did: one 8-byte data segment, the descriptor's
     * length 8, an 8-byte aligned remote word, and both words in registrations the memos still pass. False says
     * nothing: check it in full.
     *
     * @param descriptor the posted atomic.
     * @param segments   its data segments.
     * @return true if it may be issued to {@link #remoteAddress} with {@link #remoteKey()}.
     */
    boolean passes(final Descriptor descriptor, final DataSegments segments)
    {
        final long remoteOffset = descriptor.remoteAddress();
        return 1 == segments.count() && 8 == segments.length(0) && 8 == descriptor.length() &&
            0 == (remoteOffset & 7) &&
            local.passes(localTable, segments.handle(0), localPtag, 0, segments.address(0), 8) &&
            remote.passes(remoteTable, descriptor.remoteHandle(), peerPtag, rights, remoteOffset, 8);
    }

    /**
     * Remembers an atomic that just passed the full checks. Should a registration have changed since, its memo
     * does not pass.
     *
     * @param descriptor the atomic.
     * @param buffer     the memory of its data segment's region.
     * @param base       the peer region's location in the peer process.
     * @param key        the peer region's remote key handle.
     */
    void remember(final Descriptor descriptor, final AtomicBuffer buffer, final long base, final long key)
    {
        local.remember(localTable, descriptor.segments().handle(0));
        remote.remember(remoteTable, descriptor.remoteHandle());
        localBuffer = buffer;
        remoteBase = base;
        remoteKey = key;
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
