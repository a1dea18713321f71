package org.viadsm.dsm;

import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.ByteReadView;
import org.viadsm.dsm.array.ByteView;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.array.DoubleView;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.FloatReadView;
import org.viadsm.dsm.array.FloatView;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.IntReadView;
import org.viadsm.dsm.array.IntView;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.array.LongReadView;
import org.viadsm.dsm.array.LongView;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The five element types, so that a test can run the same checks on every one: arrays and views are handled as
 * {@code Object}, values as longs that every type holds exactly (1 to 101).
 */
enum TypedViews
{
    DOUBLE(8), LONG(8), INT(4), FLOAT(4), BYTE(1);

    /** The view modes. */
    enum Mode
    {
        READ, WRITE, UPDATE
    }

    final int size;

    TypedViews(final int size)
    {
        this.size = size;
    }

    /** Elements per page of {@code pageSize} bytes. */
    int perPage(final int pageSize)
    {
        return pageSize / size;
    }

    Object allocate(final Dsm dsm, final String name, final int length, final Placement placement)
    {
        return switch (this)
        {
            case DOUBLE -> dsm.allocDoubles(name, length, placement);
            case LONG -> dsm.allocLongs(name, length, placement);
            case INT -> dsm.allocInts(name, length, placement);
            case FLOAT -> dsm.allocFloats(name, length, placement);
            case BYTE -> dsm.allocBytes(name, length, placement);
        };
    }

    Object plain(final int length)
    {
        return switch (this)
        {
            case DOUBLE -> DoubleArray.allocate(length);
            case LONG -> LongArray.allocate(length);
            case INT -> IntArray.allocate(length);
            case FLOAT -> FloatArray.allocate(length);
            case BYTE -> ByteArray.allocate(length);
        };
    }

    /** A value every type holds exactly. */
    static long value(final int index, final int salt)
    {
        return 1 + Math.floorMod(index * 31 + salt * 7, 100);
    }

    static Object view(final Mode mode, final Object array, final int from, final int to, final Object reuse)
    {
        return switch (mode)
        {
            case READ -> read(array, from, to, reuse);
            case WRITE -> write(array, from, to, reuse);
            case UPDATE -> update(array, from, to, reuse);
        };
    }

    static Object read(final Object array, final int from, final int to, final Object reuse)
    {
        return switch (array)
        {
            case DoubleArray a -> a.read(from, to, (DoubleReadView)reuse);
            case LongArray a -> a.read(from, to, (LongReadView)reuse);
            case IntArray a -> a.read(from, to, (IntReadView)reuse);
            case FloatArray a -> a.read(from, to, (FloatReadView)reuse);
            case ByteArray a -> a.read(from, to, (ByteReadView)reuse);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    static Object write(final Object array, final int from, final int to, final Object reuse)
    {
        return switch (array)
        {
            case DoubleArray a -> a.write(from, to, (DoubleView)reuse);
            case LongArray a -> a.write(from, to, (LongView)reuse);
            case IntArray a -> a.write(from, to, (IntView)reuse);
            case FloatArray a -> a.write(from, to, (FloatView)reuse);
            case ByteArray a -> a.write(from, to, (ByteView)reuse);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    static Object overwrite(final Object array, final int from, final int to, final Object reuse)
    {
        return switch (array)
        {
            case DoubleArray a -> a.overwrite(from, to, (DoubleView)reuse);
            case LongArray a -> a.overwrite(from, to, (LongView)reuse);
            case IntArray a -> a.overwrite(from, to, (IntView)reuse);
            case FloatArray a -> a.overwrite(from, to, (FloatView)reuse);
            case ByteArray a -> a.overwrite(from, to, (ByteView)reuse);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    static Object update(final Object array, final int from, final int to, final Object reuse)
    {
        return switch (array)
        {
            case DoubleArray a -> a.update(from, to, (DoubleView)reuse);
            case LongArray a -> a.update(from, to, (LongView)reuse);
            case IntArray a -> a.update(from, to, (IntView)reuse);
            case FloatArray a -> a.update(from, to, (FloatView)reuse);
            case ByteArray a -> a.update(from, to, (ByteView)reuse);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    /** Whether a view has {@code set}. */
    static boolean writable(final Object view)
    {
        return view instanceof DoubleView || view instanceof LongView || view instanceof IntView ||
            view instanceof FloatView || view instanceof ByteView;
    }

    static long get(final Object viewOrArray, final int index)
    {
        return switch (viewOrArray)
        {
            case DoubleReadView v -> (long)v.get(index);
            case LongReadView v -> v.get(index);
            case IntReadView v -> v.get(index);
            case FloatReadView v -> (long)v.get(index);
            case ByteReadView v -> v.get(index);
            case DoubleArray a -> (long)a.get(index);
            case LongArray a -> a.get(index);
            case IntArray a -> a.get(index);
            case FloatArray a -> (long)a.get(index);
            case ByteArray a -> a.get(index);
            default -> throw new IllegalArgumentException(String.valueOf(viewOrArray));
        };
    }

    static void set(final Object viewOrArray, final int index, final long value)
    {
        switch (viewOrArray)
        {
            case DoubleView v -> v.set(index, value);
            case LongView v -> v.set(index, value);
            case IntView v -> v.set(index, (int)value);
            case FloatView v -> v.set(index, value);
            case ByteView v -> v.set(index, (byte)value);
            case DoubleArray a -> a.set(index, value);
            case LongArray a -> a.set(index, value);
            case IntArray a -> a.set(index, (int)value);
            case FloatArray a -> a.set(index, value);
            case ByteArray a -> a.set(index, (byte)value);
            default -> throw new IllegalArgumentException(String.valueOf(viewOrArray));
        }
    }

    static int length(final Object array)
    {
        return switch (array)
        {
            case DoubleArray a -> a.length();
            case LongArray a -> a.length();
            case IntArray a -> a.length();
            case FloatArray a -> a.length();
            case ByteArray a -> a.length();
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    static Object range(final Object array, final int from, final int to)
    {
        return switch (array)
        {
            case DoubleArray a -> a.range(from, to);
            case LongArray a -> a.range(from, to);
            case IntArray a -> a.range(from, to);
            case FloatArray a -> a.range(from, to);
            case ByteArray a -> a.range(from, to);
            default -> throw new IllegalArgumentException(String.valueOf(array));
        };
    }

    /**
     * Bad ranges throw {@link IndexOutOfBoundsException} and leave {@code reuse} (a view of {@code [1, 2)}) as it
     * was.
     */
    static void assertBadRangesRefused(final Mode mode, final Object array, final Object reuse)
    {
        final int n = length(array);
        for (final int[] range : new int[][] {{-1, 1}, {2, 1}, {0, n + 1}, {n, n + 1}})
        {
            assertThrows(IndexOutOfBoundsException.class, () -> view(mode, array, range[0], range[1], reuse),
                () -> mode + " " + range[0] + ".." + range[1]);
        }
        assertEquals(1, from(reuse), "reuse unchanged");
        assertEquals(2, to(reuse), "reuse unchanged");
    }

    /**
     * Re-wraps {@code reuse} to {@code [10, 20)} and checks that indices outside throw, writing nothing.
     */
    static void assertIndicesChecked(final Mode mode, final Object array, final Object reuse)
    {
        final Object view = view(mode, array, 10, 20, reuse);
        assertSame(reuse, view, "a view of the same kind is re-wrapped");
        assertEquals(mode != Mode.READ, writable(view));
        assertThrows(IndexOutOfBoundsException.class, () -> get(view, 9));
        assertThrows(IndexOutOfBoundsException.class, () -> get(view, 20));
        if (writable(view))
        {
            assertThrows(IndexOutOfBoundsException.class, () -> set(view, 9, 99));
            assertThrows(IndexOutOfBoundsException.class, () -> set(view, 20, 99));
            assertThrows(IndexOutOfBoundsException.class, () -> set(view, Integer.MIN_VALUE, 99));
        }
    }

    /**
     * Makes a write and a read view of {@code [8, length - 8)} of {@code a} and loops over them 2 000 times (long
     * enough for C2 to compile the loops), then checks that an index outside the view (below, at the end, negative,
     * {@code MIN_VALUE}, {@code MAX_VALUE}) is refused with {@code "index <i>" + outside}, that a loop one past the
     * view and one from before it write or read every element inside before they throw, and that nothing outside
     * changed.
     *
     * @param a       an array of at least 17 elements, all 0.
     * @param outside the message's end, naming the view.
     * @return the write view, for checks of the caller's own.
     */
    static DoubleView assertOutsideNamedAfterCompiledLoops(final DoubleArray a, final String outside)
    {
        final int n = a.length();
        final DoubleView view = a.write(8, n - 8, null);
        final DoubleReadView read = a.read(8, n - 8, null);
        for (int round = 0; round < 2_000; round++)
        {
            fill(view, view.from(), view.to(), round);
            assertEquals(round * (double)(n - 16), sum(read, read.from(), read.to()), "round " + round);
        }
        for (final int index : new int[] {7, n - 8, -1, Integer.MIN_VALUE, Integer.MAX_VALUE})
        {
            assertEquals("index " + index + outside,
                assertThrows(IndexOutOfBoundsException.class, () -> view.set(index, -2)).getMessage());
            assertEquals("index " + index + outside,
                assertThrows(IndexOutOfBoundsException.class, () -> view.get(index)).getMessage());
            assertEquals("index " + index + outside,
                assertThrows(IndexOutOfBoundsException.class, () -> read.get(index)).getMessage());
        }
        assertEquals("index " + (n - 8) + outside, assertThrows(IndexOutOfBoundsException.class,
            () -> fill(view, view.from(), view.to() + 1, -1)).getMessage(), "a loop one past the view");
        assertEquals("index 7" + outside, assertThrows(IndexOutOfBoundsException.class,
            () -> sum(read, read.from() - 1, read.to())).getMessage(), "a loop from one before the view");
        for (int i = 0; i < n; i++)
        {
            assertEquals(i < 8 || i >= n - 8 ? 0 : -1, a.get(i), "element " + i);
        }
        return view;
    }

    private static void fill(final DoubleView view, final int from, final int to, final double value)
    {
        for (int i = from; i < to; i++)
        {
            view.set(i, value);
        }
    }

    private static double sum(final DoubleReadView view, final int from, final int to)
    {
        double sum = 0;
        for (int i = from; i < to; i++)
        {
            sum += view.get(i);
        }
        return sum;
    }

    static int from(final Object view)
    {
        return switch (view)
        {
            case DoubleReadView v -> v.from();
            case LongReadView v -> v.from();
            case IntReadView v -> v.from();
            case FloatReadView v -> v.from();
            case ByteReadView v -> v.from();
            default -> throw new IllegalArgumentException(String.valueOf(view));
        };
    }

    static int to(final Object view)
    {
        return switch (view)
        {
            case DoubleReadView v -> v.to();
            case LongReadView v -> v.to();
            case IntReadView v -> v.to();
            case FloatReadView v -> v.to();
            case ByteReadView v -> v.to();
            default -> throw new IllegalArgumentException(String.valueOf(view));
        };
    }
}
