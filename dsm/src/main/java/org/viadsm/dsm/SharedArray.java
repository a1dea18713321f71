package org.viadsm.dsm;

/**
 * What every shared array is, whatever its element type: a handle to memory allocated collectively by
 * {@link Dsm}, which {@link Dsm#free(SharedArray)} (or an {@link AllocationScope}) gives back.
 * <p>
 * An array's ranges ({@link SharedDoubleArray#range(int, int)} and so on) are handles to the same allocation.
 */
public sealed interface SharedArray
    permits SharedDoubleArray, SharedLongArray, SharedIntArray, SharedFloatArray, SharedByteArray
{
    /**
     * The array's name, as allocated.
     *
     * @return the name.
     */
    String name();

    /**
     * Number of elements this handle covers.
     *
     * @return the length.
     */
    int length();

    /**
     * Whether the array has been freed; every access to a freed array throws {@link IllegalStateException}.
     *
     * @return true once freed.
     */
    boolean isFreed();
}
