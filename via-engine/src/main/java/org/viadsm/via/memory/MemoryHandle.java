package org.viadsm.via.memory;

/**
 * Encoding of a 32-bit memory handle: a registration-table index and a generation, so that a handle that outlived
 * its registration is refused even after the table slot has been reused.
 * <pre>
 *  31                                       b b-1                  0
 * +------------------------------------------+----------------------+
 * |        generation (32 - b bits)          |   table index (b)    |
 * +------------------------------------------+----------------------+
 * </pre>
 * The index takes {@code b = }{@link #indexBits(int)} bits, just enough for the NIC's table, and the generation
 * the rest: a table of 4096 entries leaves 20 bits, so one entry must be registered a million times before a
 * handle comes back. Decoding a handle therefore needs the index width of the table that issued it. Generation 0
 * is never issued, so the handle value 0 is never valid.
 */
public final class MemoryHandle
{
    /** Most bits an index may take. */
    public static final int MAX_INDEX_BITS = 20;
    /** Largest number of registration-table entries a handle can address. */
    public static final int MAX_ENTRIES = 1 << MAX_INDEX_BITS;
    /** A handle value no registration ever has. */
    public static final int NULL_HANDLE = 0;

    private MemoryHandle()
    {
    }

    /**
     * Bits of the index field for a table of {@code maxEntries} entries: enough for index {@code maxEntries - 1},
     * and at least 1.
     *
     * @param maxEntries entries of the table, from 1 to {@link #MAX_ENTRIES}.
     * @return the index width.
     * @throws IllegalArgumentException if {@code maxEntries} is out of range.
     */
    public static int indexBits(final int maxEntries)
    {
        if (maxEntries < 1 || maxEntries > MAX_ENTRIES)
        {
            throw new IllegalArgumentException(
                "maxEntries must be in [1, " + MAX_ENTRIES + "]: maxEntries=" + maxEntries);
        }
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(maxEntries - 1));
    }

    /**
     * Builds a handle.
     *
     * @param index      registration-table index, below {@code 1 << indexBits}.
     * @param generation generation of the entry; only its low {@code 32 - indexBits} bits are kept, and 0 becomes 1.
     * @param indexBits  the table's index width.
     * @return the handle.
     */
    public static int handle(final int index, final int generation, final int indexBits)
    {
        final int g = generation & generationMask(indexBits);
        return ((0 == g ? 1 : g) << indexBits) | (index & indexMask(indexBits));
    }

    /**
     * The registration-table index of a handle.
     *
     * @param handle    the handle.
     * @param indexBits the index width of the table that issued it.
     * @return its index.
     */
    public static int index(final int handle, final int indexBits)
    {
        return handle & indexMask(indexBits);
    }

    /**
     * The generation of a handle.
     *
     * @param handle    the handle.
     * @param indexBits the index width of the table that issued it.
     * @return its generation, never 0 for an issued handle.
     */
    public static int generation(final int handle, final int indexBits)
    {
        return (handle >>> indexBits) & generationMask(indexBits);
    }

    /**
     * The generation that follows {@code generation}, skipping 0.
     *
     * @param generation the current generation.
     * @param indexBits  the table's index width.
     * @return the next one.
     */
    public static int nextGeneration(final int generation, final int indexBits)
    {
        final int g = (generation + 1) & generationMask(indexBits);
        return 0 == g ? 1 : g;
    }

    private static int indexMask(final int indexBits)
    {
        return (1 << indexBits) - 1;
    }

    private static int generationMask(final int indexBits)
    {
        return -1 >>> indexBits;
    }
}
