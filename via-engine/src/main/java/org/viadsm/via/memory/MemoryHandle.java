package org.viadsm.via.memory;

/**
 * Encoding of a 32-bit memory handle: a registration-table index and a generation, so that a handle that outlived
 * its registration is refused even after the table slot has been reused.
 * <pre>
 *  31                    20 19                                   0
 * +------------------------+--------------------------------------+
 * |  generation (12 bits)  |         table index (20 bits)        |
 * +------------------------+--------------------------------------+
 * </pre>
 * Generation 0 is never issued, so the handle value 0 is never valid.
 */
public final class MemoryHandle
{
    /** Bits of the table index. */
    public static final int INDEX_BITS = 20;
    /** Largest number of registration-table entries a handle can address. */
    public static final int MAX_ENTRIES = 1 << INDEX_BITS;
    /** A handle value no registration ever has. */
    public static final int NULL_HANDLE = 0;

    private static final int INDEX_MASK = MAX_ENTRIES - 1;
    private static final int GENERATION_MASK = (1 << (32 - INDEX_BITS)) - 1;

    private MemoryHandle()
    {
    }

    /**
     * Builds a handle.
     *
     * @param index      registration-table index, below {@link #MAX_ENTRIES}.
     * @param generation generation of the entry; only its low 12 bits are kept, and 0 becomes 1.
     * @return the handle.
     */
    public static int handle(final int index, final int generation)
    {
        final int g = generation & GENERATION_MASK;
        return ((0 == g ? 1 : g) << INDEX_BITS) | (index & INDEX_MASK);
    }

    /**
     * The registration-table index of a handle.
     *
     * @param handle the handle.
     * @return its index.
     */
    public static int index(final int handle)
    {
        return handle & INDEX_MASK;
    }

    /**
     * The generation of a handle.
     *
     * @param handle the handle.
     * @return its generation, never 0 for an issued handle.
     */
    public static int generation(final int handle)
    {
        return (handle >>> INDEX_BITS) & GENERATION_MASK;
    }

    /**
     * The generation that follows {@code generation}, skipping 0.
     *
     * @param generation the current generation.
     * @return the next one.
     */
    public static int nextGeneration(final int generation)
    {
        final int g = (generation + 1) & GENERATION_MASK;
        return 0 == g ? 1 : g;
    }
}
