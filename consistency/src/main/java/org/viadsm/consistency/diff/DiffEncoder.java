package org.viadsm.consistency.diff;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Finds the runs of a page that differ from its twin, at the granularity of the array's elements.
 * <p>
 * A run's start is found with the JDK's vectorised mismatch ({@link ByteMismatch}), which skips unchanged stretches
 * at memory speed; its end, the first element at or after the start that equals the twin's, 64 bytes at a time while
 * none does, then a word at a time: the word's bytes are XORed with the twin's and a zero element is found with the
 * carry trick ({@link #equalElements}), so that a run of changed elements costs two loads and a few instructions per
 * 8 bytes, whatever the element size, and one branch per 64.
 * A run never includes an element this node did not change. That is what lets several nodes write different
 * elements of one page, even of one 8-byte word (adjacent ints or bytes), without one node's diff writing back a
 * stale copy of another's element.
 */
public final class DiffEncoder
{
    /** Bit 0 of each byte, of each 2-byte, 4-byte and 8-byte element: index by log2 of the element size. */
    private static final long[] LOW_BITS = {0x0101010101010101L, 0x0001000100010001L, 0x0000000100000001L, 1L};
    /** Bit 7 of each byte, bit 15 of each 2-byte element, and so on. */
    private static final long[] HIGH_BITS =
        {0x8080808080808080L, 0x8000800080008000L, 0x8000000080000000L, 0x8000000000000000L};

    /** Bytes of a changed run tested together before the word that ends it is looked for. */
    private static final int BLOCK = 64;

    private DiffEncoder()
    {
    }

    /**
     * Computes the runs where {@code page} differs from {@code twin}.
     *
     * @param page        the current contents.
     * @param pageOffset  where the page starts in {@code page}.
     * @param twin        the contents when the page was first written.
     * @param twinOffset  where the twin starts in {@code twin}.
     * @param length      bytes to compare, a multiple of 8.
     * @param elementSize 1, 2, 4 or 8: bytes per array element, the smallest unit a run may start or end on.
     * @param runs        cleared, then filled with the runs, offsets relative to the page.
     * @return the number of runs.
     * @throws IndexOutOfBoundsException if a range lies outside its buffer.
     */
    public static int encode(
        final DirectBuffer page,
        final int pageOffset,
        final DirectBuffer twin,
        final int twinOffset,
        final int length,
        final int elementSize,
        final DiffRuns runs)
    {
        runs.clear();
        page.boundsCheck(pageOffset, length);
        twin.boundsCheck(twinOffset, length);
        final byte[] pageBytes = page.byteArray();
        final long pageAddress = page.addressOffset() + pageOffset;
        final byte[] twinBytes = twin.byteArray();
        final long twinAddress = twin.addressOffset() + twinOffset;
        final int sizeShift = Integer.numberOfTrailingZeros(elementSize);
        final long lowBits = LOW_BITS[sizeShift];
        final long highBits = HIGH_BITS[sizeShift];
        int at = 0;
        while (at < length)
        {
            final int changed = ByteMismatch.find(page, pageOffset + at, twin, twinOffset + at, length - at);
            if (changed < 0)
            {
                break;
            }
            final int start = (at + changed) & -elementSize;
            int word = start & -Long.BYTES;
            // the word's bytes before the start count as changed, so that they cannot end the run
            final long before = (1L << ((start - word) << 3)) - 1;
            long equal = equalElements(differences(pageBytes, pageAddress, twinBytes, twinAddress, word) | before,
                lowBits, highBits);
            if (0 == equal)
            {
                word += Long.BYTES;
                while (word + BLOCK <= length &&
                    0 == equalInBlock(pageBytes, pageAddress, twinBytes, twinAddress, word, lowBits, highBits))
                {
                    word += BLOCK;
                }
                while (word < length && 0 == (equal = equalElements(
                    differences(pageBytes, pageAddress, twinBytes, twinAddress, word), lowBits, highBits)))
                {
                    word += Long.BYTES;
                }
            }
            final int end = 0 == equal ? length : word + ((Long.numberOfTrailingZeros(equal) >>> 3) & -elementSize);
            runs.add(start, end - start);
            at = end;
        }
        return runs.count();
    }

    /**
     * Whether any element of the 8 words at {@code offset} equals the twin's, as the union of
     * {@link #equalElements} of each (zero if and only if none does): one branch per 64 bytes of a long changed run,
     * where a word at a time took one per word, and eight independent loads and tests in flight.
     */
    private static long equalInBlock(
        final byte[] pageBytes, final long pageAddress, final byte[] twinBytes, final long twinAddress,
        final int offset, final long lowBits, final long highBits)
    {
        long equal = 0;
        for (int i = 0; i < BLOCK; i += Long.BYTES)
        {
            equal |= equalElements(differences(pageBytes, pageAddress, twinBytes, twinAddress, offset + i), lowBits,
                highBits);
        }
        return equal;
    }

    /**
     * The XOR of the page's and the twin's 8 bytes at {@code offset}, byte {@code i} of the memory in bits
     * {@code 8i} to {@code 8i + 7} on every platform.
     */
    private static long differences(
        final byte[] pageBytes, final long pageAddress, final byte[] twinBytes, final long twinAddress,
        final int offset)
    {
        return UnsafeApi.getLongUnaligned(pageBytes, pageAddress + offset, false) ^
            UnsafeApi.getLongUnaligned(twinBytes, twinAddress + offset, false);
    }

    /**
     * The elements of a word that are zero, as the top bit of each: subtracting 1 from every element borrows
     * through a zero element only, so the lowest bit set marks the first zero element exactly (the ones above it
     * may be marked falsely, which no caller looks at).
     *
     * @param differences the XOR of the page's and the twin's word.
     * @param lowBits     bit 0 of each element.
     * @param highBits    the top bit of each element.
     * @return 0 if every element differs, else a mask whose lowest bit is the top bit of the first equal element.
     */
    static long equalElements(final long differences, final long lowBits, final long highBits)
    {
        return (differences - lowBits) & ~differences & highBits;
    }
}
