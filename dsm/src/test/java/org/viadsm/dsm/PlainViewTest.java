package org.viadsm.dsm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.viadsm.dsm.array.DoubleArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.viadsm.dsm.TypedViews.get;
import static org.viadsm.dsm.TypedViews.set;
import static org.viadsm.dsm.TypedViews.value;

/**
 * Views of plain arrays behave as views of shared arrays do: the array's indices, index checks against the range,
 * read views without {@code set}, re-wrapping, bad ranges that change nothing, and an index outside a view named in
 * the exception once the loop over the view is compiled.
 */
class PlainViewTest
{
    @ParameterizedTest
    @EnumSource(TypedViews.class)
    void shouldReadAndWriteThroughViewsWithTheArraysIndices(final TypedViews type)
    {
        final int n = 100;
        final Object a = type.plain(n);
        final Object w = TypedViews.write(a, 0, 50, null);
        for (int i = 0; i < 50; i++)
        {
            set(w, i, value(i, 3));
        }
        final Object u = TypedViews.update(a, 50, n, null);
        for (int i = 50; i < n; i++)
        {
            set(u, i, get(u, i) + value(i, 3));
        }
        final Object r = TypedViews.read(a, 0, n, null);
        for (int i = 0; i < n; i++)
        {
            assertEquals(value(i, 3), get(r, i), "element " + i + " through a read view");
            assertEquals(value(i, 3), get(a, i), "element " + i + " of the array");
        }
        assertEquals(50, TypedViews.from(u));
        assertEquals(n, TypedViews.to(u));
        assertFalse(TypedViews.writable(r), "a read view has no set");
    }

    @ParameterizedTest
    @EnumSource(TypedViews.class)
    void shouldRefuseBadRangesAndIndicesAndChangeNothing(final TypedViews type)
    {
        final int n = 64;
        final Object a = type.plain(n);
        for (final TypedViews.Mode mode : TypedViews.Mode.values())
        {
            final Object reuse = TypedViews.view(mode, a, 1, 2, null);
            TypedViews.assertBadRangesRefused(mode, a, reuse);
            TypedViews.assertIndicesChecked(mode, a, reuse);
        }
        for (int i = 0; i < n; i++)
        {
            assertEquals(0, get(a, i), "nothing written at " + i);
        }
    }

    @Test
    void shouldNameTheViewOfAnIndexOutsideItAlsoAfterItsLoopIsCompiled()
    {
        TypedViews.assertOutsideNamedAfterCompiledLoops(DoubleArray.wrap(new double[1024]),
            " is outside view [8, 1016)");
    }

    @ParameterizedTest
    @EnumSource(TypedViews.class)
    void shouldUseASubArraysIndices(final TypedViews type)
    {
        final Object a = type.plain(30);
        final Object sub = TypedViews.range(a, 10, 20);
        set(TypedViews.update(sub, 0, 10, null), 3, 77);
        assertEquals(77, get(a, 13));
        assertThrows(IndexOutOfBoundsException.class, () -> TypedViews.read(sub, 0, 11, null));
    }

    @ParameterizedTest
    @EnumSource(TypedViews.class)
    void shouldNotReuseAViewOfAnotherMode(final TypedViews type)
    {
        final Object a = type.plain(8);
        final Object update = TypedViews.update(a, 0, 8, null);
        final Object read = TypedViews.read(a, 0, 8, update);
        assertNotSame(update, read, "a read view is never a writable one");
        assertFalse(TypedViews.writable(read));
    }
}
