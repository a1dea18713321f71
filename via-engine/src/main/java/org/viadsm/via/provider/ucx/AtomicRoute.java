package org.viadsm.via.provider.ucx;

import java.nio.ByteOrder;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.descriptor.DescriptorLayout;
import org.viadsm.via.engine.CheckedRegion;
import org.viadsm.via.engine.RegistrationTable;

/**
 * The checks of the last atomic a link issued alone, remembered together: the local region its result went to and
 * the peer's region it reached, each in a {@link CheckedRegion} of its own, with the local region's memory and the
 * peer region's location and remote key. The next atomic on the same two handles passes with the descriptor's shape
 * and the two memos, instead of the local check, the mirror's check and the segment list between them; anything
 * else, or a registration changed since, takes the full checks, which remember it anew.
 * <p>
 * The descriptor's words are read straight from its memory at their layout offsets, once each, after one check that
 * the memory holds a data segment: the accessors of {@link org.viadsm.via.descriptor.DataSegments} check each read
 * of a segment against the buffer's bounds.
 * <p>
 * What the full checks read from the VI or the connection (atomics enabled on the VI, the peer VI's RDMA Read, the
 * agreed transfer size) is fixed for the link's life: checked once, before an atomic is remembered.
 * <p>
 * <b>Note:</b> not thread-safe; used under the lock of its link.
 */
final class AtomicRoute
{
    /** The descriptor's length with one data segment: the least memory {@link #passes} reads. */
    private static final int ONE_SEGMENT_LENGTH = DescriptorLayout.length(1);
    private static final int SEGMENT_HANDLE = DescriptorLayout.DATA_SEGMENTS_OFFSET +
        DescriptorLayout.SEGMENT_HANDLE_OFFSET;
    private static final int SEGMENT_ADDRESS = DescriptorLayout.DATA_SEGMENTS_OFFSET +
        DescriptorLayout.SEGMENT_ADDRESS_OFFSET;
    private static final int SEGMENT_LENGTH = DescriptorLayout.DATA_SEGMENTS_OFFSET +
        DescriptorLayout.SEGMENT_LENGTH_OFFSET;
    /** The segment count and control words of a fetch-and-add with one segment, read as one int. */
    private static final int ADD_SHAPE = ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder() ?
        1 | (DescriptorLayout.OP_ATOMIC | DescriptorLayout.CONTROL_ATOMIC_ADD) << 16 :
        1 << 16 | DescriptorLayout.OP_ATOMIC | DescriptorLayout.CONTROL_ATOMIC_ADD;

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
    private int localOffset;
    private long remoteAddress;
    // the fetch-and-add route (passesAdd): open once both memos grant the access and the local region is native
    private boolean addOpen;
    private int addRemoteHandle;
    // the segment's handle and length words as one long, as passesAdd reads them
    private long addSegmentWords;
    private long localMemory;
    private long resultAddress;
    private long operandAddress;

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
     * nothing: check it in full. On true, {@link #localOffset()} and {@link #remoteAddress()} locate its two words.
     *
     * @param descriptor the posted atomic.
     * @return true if it may be issued to {@link #remoteAddress()} with {@link #remoteKey()}.
     */
    boolean passes(final Descriptor descriptor)
    {
        final AtomicBuffer fields = descriptor.buffer();
        if (fields.capacity() < ONE_SEGMENT_LENGTH)
        {
            return false;
        }
        final Object array = fields.byteArray();
        final long at = fields.addressOffset();
        final long segmentAddress = UnsafeApi.getLong(array, at + SEGMENT_ADDRESS);
        final long remoteOffset = UnsafeApi.getLong(array, at + DescriptorLayout.REMOTE_ADDRESS_OFFSET);
        if (1 == UnsafeApi.getShort(array, at + DescriptorLayout.SEGMENT_COUNT_OFFSET) &&
            8 == UnsafeApi.getInt(array, at + SEGMENT_LENGTH) &&
            8 == UnsafeApi.getInt(array, at + DescriptorLayout.LENGTH_OFFSET) && 0 == (remoteOffset & 7) &&
            local.passes(UnsafeApi.getInt(array, at + SEGMENT_HANDLE), localPtag, 0, segmentAddress, 8) &&
            remote.passes(UnsafeApi.getInt(array, at + DescriptorLayout.REMOTE_HANDLE_OFFSET), peerPtag, rights,
                remoteOffset, 8))
        {
            // below the region's length, which is an int
            localOffset = (int)segmentAddress;
            remoteAddress = remoteBase + remoteOffset;
            return true;
        }
        return false;
    }

    /**
     * Whether a fetch-and-add passes as the remembered atomic did, on the route of the common case: a descriptor in
     * native memory of one segment, whose count and control words ({@link #ADD_SHAPE}) and whose segment's handle and
     * length words ({@code addSegmentWords}) each match in one compare, to the remembered handles, in a native local
     * region, with the descriptor's length 8, an 8-byte aligned remote word, and both words in registrations the memos
     * still cover (their tag and enable bits checked once, when remembered). False says nothing: try {@link #passes}.
     * On true, {@link #operandAddress()}, {@link #resultAddress()} and {@link #remoteAddress()} locate its words.
     *
     * @param descriptor the posted atomic.
     * @return true if it may be issued as a fetch-and-add from {@link #operandAddress()} into
     *         {@link #resultAddress()}.
     */
    boolean passesAdd(final Descriptor descriptor)
    {
        final AtomicBuffer fields = descriptor.buffer();
        if (!addOpen || null != fields.byteArray() || fields.capacity() < ONE_SEGMENT_LENGTH)
        {
            return false;
        }
        final long at = fields.addressOffset();
        final long segmentAddress = UnsafeApi.getLong(null, at + SEGMENT_ADDRESS);
        final long remoteOffset = UnsafeApi.getLong(null, at + DescriptorLayout.REMOTE_ADDRESS_OFFSET);
        if (ADD_SHAPE == UnsafeApi.getInt(null, at + DescriptorLayout.SEGMENT_COUNT_OFFSET) &&
            addSegmentWords == UnsafeApi.getLong(null, at + SEGMENT_HANDLE) &&
            addRemoteHandle == UnsafeApi.getInt(null, at + DescriptorLayout.REMOTE_HANDLE_OFFSET) &&
            8 == UnsafeApi.getInt(null, at + DescriptorLayout.LENGTH_OFFSET) && 0 == (remoteOffset & 7) &&
            local.coversWord(segmentAddress) && remote.coversWord(remoteOffset))
        {
            operandAddress = at + DescriptorLayout.COMPARE_OR_ADD_OFFSET;
            resultAddress = localMemory + segmentAddress;
            remoteAddress = remoteBase + remoteOffset;
            return true;
        }
        return false;
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
        final int handle = descriptor.segments().handle(0);
        addRemoteHandle = descriptor.remoteHandle();
        local.remember(localTable, handle);
        remote.remember(remoteTable, addRemoteHandle);
        localBuffer = buffer;
        remoteBase = base;
        remoteKey = key;
        addSegmentWords = ByteOrder.LITTLE_ENDIAN == ByteOrder.nativeOrder() ?
            handle & 0xFFFF_FFFFL | (long)Long.BYTES << 32 : (long)handle << 32 | Long.BYTES;
        localMemory = buffer.addressOffset();
        addOpen = null == buffer.byteArray() && local.grants(localPtag, 0) && remote.grants(peerPtag, rights);
    }

    /**
     * The address of the operand of the fetch-and-add that last {@link #passesAdd passed}: its descriptor's word.
     *
     * @return the address.
     */
    long operandAddress()
    {
        return operandAddress;
    }

    /**
     * The address of the result word of the fetch-and-add that last {@link #passesAdd passed}.
     *
     * @return the address.
     */
    long resultAddress()
    {
        return resultAddress;
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
     * The offset in {@link #localBuffer()} of the result word of the atomic that last {@link #passes passed}.
     *
     * @return the offset.
     */
    int localOffset()
    {
        return localOffset;
    }

    /**
     * The address in the peer process of the word of the atomic that last {@link #passes passed}.
     *
     * @return the remote address.
     */
    long remoteAddress()
    {
        return remoteAddress;
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
