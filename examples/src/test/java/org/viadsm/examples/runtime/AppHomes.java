package org.viadsm.examples.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.viadsm.dsm.Placement;
import org.viadsm.dsm.SharedByteArray;
import org.viadsm.dsm.SharedDoubleArray;
import org.viadsm.dsm.SharedFloatArray;
import org.viadsm.dsm.SharedIntArray;
import org.viadsm.dsm.SharedLongArray;
import org.viadsm.dsm.array.ByteArray;
import org.viadsm.dsm.array.DoubleArray;
import org.viadsm.dsm.array.FloatArray;
import org.viadsm.dsm.array.IntArray;
import org.viadsm.dsm.array.LongArray;
import org.viadsm.dsm.launch.LocalCluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs an application on DSM nodes (threads of this JVM) with the placements it asks for, and then, on every node,
 * hands the homes of its shared arrays to a check: where the application put its data.
 */
public final class AppHomes
{
    private final Map<String, Object> arrays = new HashMap<>();
    private final int pageSize;

    private AppHomes(final int pageSize)
    {
        this.pageSize = pageSize;
    }

    /**
     * Runs the application and checks its homes on every node.
     *
     * @param factory makes each node's instance.
     * @param nodes   number of nodes.
     * @param check   what the homes must be; runs on each node after the application.
     * @param args    the application's arguments.
     */
    public static void check(
        final Supplier<? extends App> factory, final int nodes, final Check check, final String... args)
    {
        LocalCluster.run(nodes, "jvm", context -> context.maxLocks(4096).maxSemaphores(1024), dsm ->
        {
            final AppHomes homes = new AppHomes(dsm.pageSize());
            final Team team = homes.new Recording(
                new DsmTeam(dsm, new PrintStream(OutputStream.nullOutputStream())));
            AppHarness.parse(factory, args).run(team);
            check.verify(team.size(), homes);
        });
    }

    /**
     * The home of an element of an array the application allocated.
     *
     * @param name  the array's name.
     * @param index the element.
     * @return the node whose copy of the element's page is the master.
     * @throws IllegalArgumentException if the application allocated no such array.
     */
    public int of(final String name, final int index)
    {
        final Object array = arrays.get(name);
        if (array instanceof SharedDoubleArray)
        {
            return ((SharedDoubleArray)array).homeOf(index);
        }
        if (array instanceof SharedLongArray)
        {
            return ((SharedLongArray)array).homeOf(index);
        }
        if (array instanceof SharedIntArray)
        {
            return ((SharedIntArray)array).homeOf(index);
        }
        if (array instanceof SharedFloatArray)
        {
            return ((SharedFloatArray)array).homeOf(index);
        }
        if (array instanceof SharedByteArray)
        {
            return ((SharedByteArray)array).homeOf(index);
        }
        throw new IllegalArgumentException("no shared array '" + name + "' among " + arrays.keySet());
    }

    /**
     * Asserts that the pages holding most of elements {@code [from, to)} of an array live at {@code node}: every
     * page whose middle element (the last element, for a last page shorter than that) lies in the range.
     *
     * @param name the array's name.
     * @param from first element of the partition.
     * @param to   end of the partition, exclusive.
     * @param node the node that owns the partition.
     */
    public void expect(final String name, final int from, final int to, final int node)
    {
        final int perPage = pageSize / elementSize(name);
        final int length = length(name);
        for (int first = from / perPage * perPage; first < to; first += perPage)
        {
            final int middle = Math.min(first + perPage / 2, length - 1);
            if (middle >= from && middle < to)
            {
                final int page = first / perPage;
                assertEquals(node, of(name, first), () -> name + "[" + from + ", " + to + ") page " + page +
                    "'s home");
            }
        }
    }

    /**
     * Asserts that every page of an array lives at {@code node}.
     *
     * @param name the array's name.
     * @param node its owner.
     */
    public void expectAll(final String name, final int node)
    {
        expect(name, 0, length(name), node);
    }

    /**
     * The length of an array the application allocated.
     *
     * @param name the array's name.
     * @return its length.
     */
    public int length(final String name)
    {
        final Object array = arrays.get(name);
        if (array instanceof DoubleArray)
        {
            return ((DoubleArray)array).length();
        }
        if (array instanceof LongArray)
        {
            return ((LongArray)array).length();
        }
        if (array instanceof IntArray)
        {
            return ((IntArray)array).length();
        }
        if (array instanceof FloatArray)
        {
            return ((FloatArray)array).length();
        }
        if (array instanceof ByteArray)
        {
            return ((ByteArray)array).length();
        }
        throw new IllegalArgumentException("no shared array '" + name + "' among " + arrays.keySet());
    }

    private int elementSize(final String name)
    {
        final Object array = arrays.get(name);
        if (array instanceof DoubleArray || array instanceof LongArray)
        {
            return 8;
        }
        return array instanceof IntArray || array instanceof FloatArray ? 4 : 1;
    }

    /**
     * What the homes of a run must be.
     */
    @FunctionalInterface
    public interface Check
    {
        /**
         * Checks the homes, with JUnit assertions.
         *
         * @param nodes number of nodes.
         * @param homes the homes of the arrays.
         */
        void verify(int nodes, AppHomes homes);
    }

    private final class Recording extends DelegatingTeam
    {
        Recording(final Team team)
        {
            super(team);
        }

        @Override
        public DoubleArray doubles(final String name, final int length, final Placement placement)
        {
            return keep(name, super.doubles(name, length, placement));
        }

        @Override
        public FloatArray floats(final String name, final int length, final Placement placement)
        {
            return keep(name, super.floats(name, length, placement));
        }

        @Override
        public LongArray longs(final String name, final int length, final Placement placement)
        {
            return keep(name, super.longs(name, length, placement));
        }

        @Override
        public IntArray ints(final String name, final int length, final Placement placement)
        {
            return keep(name, super.ints(name, length, placement));
        }

        @Override
        public ByteArray bytes(final String name, final int length, final Placement placement)
        {
            return keep(name, super.bytes(name, length, placement));
        }

        private <T> T keep(final String name, final T array)
        {
            arrays.put(name, array);
            return array;
        }
    }
}
