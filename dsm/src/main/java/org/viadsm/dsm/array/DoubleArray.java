package org.viadsm.dsm.array;

/**
 * An array of doubles that kernels read and write the same way whether it is a plain Java {@code double[]} or a
 * {@code SharedDoubleArray} shared across nodes.
 * <p>
 * Indices are checked: an index outside {@code [0, length())} throws {@link IndexOutOfBoundsException} and
 * nothing is read or written. Code written against this interface runs unchanged on {@link #wrap(double[])} (a
 * sequential or threaded baseline) and on a shared array (a DSM run); within one JVM that uses only one of the two,
 * the JIT compiles calls as if they were direct.
 */
public interface DoubleArray
{
    /**
     * Wraps a plain array; reads and writes go straight to it.
     *
     * @param array the array.
     * @return a view of the whole array.
     */
    static DoubleArray wrap(final double[] array)
    {
        return new PlainDoubleArray(array, 0, array.length);
    }

    /**
     * Allocates a plain array of {@code length} zeros.
     *
     * @param length number of elements.
     * @return the new array.
     */
    static DoubleArray allocate(final int length)
    {
        return wrap(new double[length]);
    }

    /**
     * Number of elements.
     *
     * @return the length.
     */
    int length();

    /**
     * Reads one element.
     *
     * @param index element index.
     * @return the element.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     */
    double get(int index);

    /**
     * Writes one element.
     *
     * @param index element index.
     * @param value the new value.
     * @throws IndexOutOfBoundsException if {@code index} is outside the array.
     */
    void set(int index, double value);

    /**
     * Copies {@code length} elements starting at {@code from} into {@code dst}.
     *
     * @param from      first element to read.
     * @param dst       destination.
     * @param dstOffset first index written in {@code dst}.
     * @param length    number of elements.
     * @throws IndexOutOfBoundsException if either range is out of bounds; nothing is copied.
     */
    void get(int from, double[] dst, int dstOffset, int length);

    /**
     * Copies {@code length} elements of {@code src} into this array starting at {@code from}.
     *
     * @param from      first element to write.
     * @param src       source.
     * @param srcOffset first index read in {@code src}.
     * @param length    number of elements.
     * @throws IndexOutOfBoundsException if either range is out of bounds; nothing is written.
     */
    void set(int from, double[] src, int srcOffset, int length);

    /**
     * Sets every element to {@code value}.
     *
     * @param value the value.
     */
    void fill(double value);

    /**
     * Sets the elements of {@code [from, to)} to {@code value}.
     *
     * @param from  first element, inclusive.
     * @param to    last element, exclusive.
     * @param value the value.
     * @throws IndexOutOfBoundsException if the range is out of bounds; nothing is written.
     */
    void fill(int from, int to, double value);

    /**
     * A view of the elements {@code [from, to)}: its index 0 is this array's {@code from}.
     *
     * @param from first element, inclusive.
     * @param to   last element, exclusive.
     * @return the view, of the same kind as this array.
     * @throws IndexOutOfBoundsException if the range is out of bounds.
     */
    DoubleArray range(int from, int to);
}
