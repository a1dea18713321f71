package org.viadsm.consistency.diff;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;

/**
 * Finds the first byte at which two buffers differ with the JDK's vectorised mismatch (tens of bytes per cycle),
 * so that a diff skips the unchanged stretches of a page instead of comparing them a word at a time: a release
 * that changed a few words of a page costs a scan of the page at memory speed, not 512 compares.
 * <p>
 * Off-heap buffers are compared through one segment over the whole address space, made once, so a call allocates
 * nothing; heap buffers through {@link Arrays#mismatch(byte[], int, int, byte[], int, int)}. A pair of one of each,
 * or a JVM that denies native access, is compared a word at a time.
 */
final class ByteMismatch
{
    private static final MemorySegment ADDRESS_SPACE = addressSpace();

    private ByteMismatch()
    {
    }

    /**
     * The offset of the first byte at which {@code a} and {@code b} differ within {@code length} bytes.
     *
     * @param a       one buffer.
     * @param aOffset where the bytes start in {@code a}.
     * @param b       the other buffer.
     * @param bOffset where the bytes start in {@code b}.
     * @param length  bytes to compare.
     * @return the offset relative to the starts, or -1 if the bytes are equal.
     * @throws IndexOutOfBoundsException if a range lies outside its buffer.
     */
    static int find(final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset, final int length)
    {
        a.boundsCheck(aOffset, length);
        b.boundsCheck(bOffset, length);
        final byte[] aBytes = a.byteArray();
        final byte[] bBytes = b.byteArray();
        if (null == aBytes && null == bBytes && null != ADDRESS_SPACE)
        {
            final long aAddress = a.addressOffset() + aOffset;
            final long bAddress = b.addressOffset() + bOffset;
            return (int)MemorySegment.mismatch(ADDRESS_SPACE, aAddress, aAddress + length, ADDRESS_SPACE, bAddress,
                bAddress + length);
        }
        if (null != aBytes && null != bBytes)
        {
            final int aStart = (int)(a.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET) + aOffset;
            final int bStart = (int)(b.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET) + bOffset;
            return Arrays.mismatch(aBytes, aStart, aStart + length, bBytes, bStart, bStart + length);
        }
        return wordByWord(a, aOffset, b, bOffset, length);
    }

    private static int wordByWord(
        final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset, final int length)
    {
        int at = 0;
        while (at + Long.BYTES <= length && a.getLong(aOffset + at) == b.getLong(bOffset + at))
        {
            at += Long.BYTES;
        }
        while (at < length)
        {
            if (a.getByte(aOffset + at) != b.getByte(bOffset + at))
            {
                return at;
            }
            at++;
        }
        return -1;
    }

    @SuppressWarnings("restricted") // one segment over all memory, so that comparing off-heap pages allocates nothing
    private static MemorySegment addressSpace()
    {
        try
        {
            return MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
        }
        catch (final IllegalCallerException ex)
        {
            return null; // native access denied: compare word by word
        }
    }
}
