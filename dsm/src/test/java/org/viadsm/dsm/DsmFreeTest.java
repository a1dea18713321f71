package org.viadsm.dsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.viadsm.dsm.array.DoubleReadView;
import org.viadsm.dsm.launch.ClusterFailure;
import org.viadsm.dsm.launch.DsmProgram;
import org.viadsm.dsm.launch.LocalCluster;
import org.viadsm.via.NicContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Collective free: a freed array refuses every access, its registration is given back and its memory kept for the
 * next array of its length on every node, its name can be allocated again, and nodes that free differently fail
 * naming the node that disagreed.
 */
@Timeout(120)
class DsmFreeTest
{
    private static final int LENGTH = 3000;

    @ParameterizedTest
    @MethodSource("org.viadsm.testsupport.Providers#all")
    void shouldRefuseAccessAfterFreeAndAllocateTheNameAgainZeroed(final String provider)
    {
        LocalCluster.run(2, provider, context -> { }, dsm ->
        {
            final SharedLongArray kept = dsm.allocLongs("kept", 4);
            final SharedDoubleArray a = dsm.allocDoubles("a", LENGTH, Placement.cyclic());
            final SharedDoubleArray part = a.range(10, 20);
            writeHalf(dsm, a, 1.0);
            if (0 == dsm.nodeId())
            {
                kept.set(0, 42);
            }
            final DoubleReadView view = a.read(0, 8, null);
            dsm.free(part);

            assertTrue(a.isFreed());
            assertTrue(part.isFreed());
            assertFalse(kept.isFreed());
            assertEquals(42, kept.get(0), "free is a barrier: node 0's write is visible everywhere");
            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> a.get(0));
            assertEquals("shared array 'a' was freed", ex.getMessage());
            assertThrows(IllegalStateException.class, () -> a.set(LENGTH - 1, 2.0));
            assertThrows(IllegalStateException.class, () -> a.get(0, new double[8], 0, 8));
            assertThrows(IllegalStateException.class, () -> a.set(0, new double[8], 0, 8));
            assertThrows(IllegalStateException.class, () -> a.fill(3.0));
            assertThrows(IllegalStateException.class, () -> part.get(0));
            assertThrows(IllegalStateException.class, () -> a.homeOf(0));
            assertThrows(IllegalStateException.class, () -> view.get(0), "a view expires at the free");
            assertEquals("shared array 'a' was freed",
                assertThrows(IllegalStateException.class, () -> a.update(0, 8, null)).getMessage());
            assertEquals("shared array 'a' was freed",
                assertThrows(IllegalStateException.class, () -> dsm.free(a)).getMessage());

            final SharedDoubleArray again = dsm.allocDoubles("a", LENGTH, Placement.cyclic());
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(0.0, again.get(i), "a new allocation is zero-filled");
            }
            dsm.barrier();
            writeHalf(dsm, again, 2.0);
            dsm.barrier();
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(i < LENGTH / 2 ? 2.0 : 3.0, again.get(i));
            }
            dsm.barrier();
        });
    }

    @Test
    void shouldKeepAFreedArraysMemoryForTheNextArrayOfItsLengthAndRemoveItsFilesAtClose()
    {
        final String pid = "-" + ProcessHandle.current().pid() + "-";
        final long outside = memoryFiles(pid);
        LocalCluster.run(2, "shm", context -> { }, dsm ->
        {
            dsm.barrier();
            final long before = memoryFiles(pid);
            dsm.barrier();
            final SharedByteArray a = dsm.allocBytes("a", 1 << 20);
            a.set(dsm.nodeId(), (byte)1);
            dsm.barrier();
            assertEquals(before + 2, memoryFiles(pid), "one file per node for the array");
            dsm.barrier();
            dsm.free(a);
            final SharedByteArray b = dsm.allocBytes("b", 1 << 20);
            assertEquals(0, b.get(0), "the memory taken back is zeroed");
            assertEquals(0, b.get(1), "the memory taken back is zeroed");
            b.set(2 + dsm.nodeId(), (byte)(5 + dsm.nodeId()));
            dsm.barrier();
            assertEquals(before + 2, memoryFiles(pid), "the array of the same length took the freed memory back");
            assertEquals(5, b.get(2));
            assertEquals(6, b.get(3));
            dsm.barrier();
            final SharedByteArray c = dsm.allocBytes("c", 1 << 19);
            dsm.barrier();
            assertEquals(before + 4, memoryFiles(pid), "an array of another length maps memory of its own");
            dsm.barrier();
            dsm.free(c);
            dsm.free(b);
        });
        assertEquals(outside, memoryFiles(pid), "closing the nodes removes the files of the memory they kept");
    }

    @Test
    void shouldDeregisterAFreedArraySoRegistrationsDoNotRunOut()
    {
        LocalCluster.run(2, "jvm", context -> context.nicContext(new NicContext().maxRegions(16)), dsm ->
        {
            for (int round = 0; round < 40; round++)
            {
                final SharedIntArray a = dsm.allocInts("round", 2048);
                a.set(dsm.nodeId() * 1024, round);
                dsm.barrier();
                assertEquals(round, a.get((1 - dsm.nodeId()) * 1024));
                dsm.free(a);
            }
        });
    }

    @Test
    void shouldFreeWhatAScopeAllocatedNewestFirstAndKeepTheRest()
    {
        LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedIntArray outside = dsm.allocInts("outside", 8);
            final SharedIntArray first;
            final SharedIntArray inner;
            final SharedIntArray second;
            try (AllocationScope _ = dsm.allocationScope())
            {
                first = dsm.allocInts("first", 8);
                try (AllocationScope _ = dsm.allocationScope())
                {
                    inner = dsm.allocInts("inner", 8);
                }
                assertTrue(inner.isFreed());
                assertFalse(first.isFreed());
                second = dsm.allocInts("second", 8);
                dsm.free(first);
            }
            assertTrue(second.isFreed());
            assertFalse(outside.isFreed());
            outside.set(dsm.nodeId(), 7);
            dsm.barrier();
            assertEquals(7, outside.get(1 - dsm.nodeId()));
        });
    }

    @Test
    void shouldFailEveryNodeWhenNodesFreeDifferentArrays()
    {
        final List<Throwable> all = failures(3, dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("a", 10);
            final SharedIntArray b = dsm.allocInts("b", 20);
            dsm.free(2 == dsm.nodeId() ? b : a);
        });
        assertEquals(3, all.size(), "every node fails");
        for (final Throwable ex : all)
        {
            final String message = assertInstanceOf(DsmException.class, ex).getMessage();
            assertTrue(message.contains("free mismatch"), message);
            assertTrue(message.contains("free of allocation #2 ints 'b'[20]"), message);
            assertTrue(message.contains("free of allocation #1 doubles 'a'[10]"), message);
            assertTrue(message.contains("node 2"), message);
            assertTrue(message.endsWith("every node must free the same arrays in the same order") ||
                message.endsWith("every node must allocate the same arrays in the same order"), message);
        }
    }

    @Test
    void shouldFailEveryNodeWhenOneAllocatesWhileTheOtherFrees()
    {
        final List<Throwable> all = failures(2, dsm ->
        {
            final SharedDoubleArray a = dsm.allocDoubles("a", 10);
            if (0 == dsm.nodeId())
            {
                dsm.free(a);
            }
            else
            {
                dsm.allocDoubles("b", 10);
            }
        });
        assertEquals(2, all.size(), "every node fails");
        for (final Throwable ex : all)
        {
            final String message = assertInstanceOf(DsmException.class, ex).getMessage();
            assertTrue(message.contains("node 1 made allocation #2 doubles 'b'[10]"), message);
            assertTrue(message.contains("node 0 made free of allocation #1 doubles 'a'[10]"), message);
        }
    }

    @Test
    void shouldRefuseToFreeAnotherNodesArray()
    {
        final AtomicReference<SharedLongArray> ofNode1 = new AtomicReference<>();
        LocalCluster.run(2, "jvm", context -> { }, dsm ->
        {
            final SharedLongArray a = dsm.allocLongs("a", 10);
            if (1 == dsm.nodeId())
            {
                ofNode1.set(a);
            }
            dsm.barrier();
            if (0 == dsm.nodeId())
            {
                final IllegalArgumentException ex =
                    assertThrows(IllegalArgumentException.class, () -> dsm.free(ofNode1.get()));
                assertEquals("shared array 'a' belongs to another node", ex.getMessage());
                assertFalse(a.isFreed());
            }
            dsm.free(a);
        });
    }

    private static void writeHalf(final Dsm dsm, final SharedDoubleArray array, final double base)
    {
        final int from = 0 == dsm.nodeId() ? 0 : LENGTH / 2;
        for (int i = from; i < from + LENGTH / 2; i++)
        {
            array.set(i, base + dsm.nodeId());
        }
    }

    /** Runs a cluster that must fail and gathers every node's exception. */
    private static List<Throwable> failures(final int nodes, final DsmProgram program)
    {
        final ClusterFailure failure = assertThrows(ClusterFailure.class,
            () -> LocalCluster.run(nodes, "jvm", context -> { }, program));
        final List<Throwable> all = new ArrayList<>(List.of(failure.getCause()));
        all.addAll(List.of(failure.getSuppressed()));
        return all;
    }

    private static long memoryFiles(final String pid)
    {
        // Where the shm NICs put their files: the property, the environment variable or the default, as they read it.
        final Path dir = new NicContext().conclude().shmDirectory();
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(file -> file.getFileName().toString())
                .filter(name -> name.contains(pid) && name.endsWith(".mem")).count();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
