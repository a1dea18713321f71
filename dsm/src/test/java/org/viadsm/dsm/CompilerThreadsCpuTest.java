package org.viadsm.dsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The compiler threads' CPU clock: the sum over the threads named as HotSpot names its compiler threads, over a
 * thread list laid out as Linux's, with the time of threads that ended kept; and this JVM's own clock on Linux.
 */
class CompilerThreadsCpuTest
{
    @Test
    void shouldSumTheCompilerThreadsAndKeepTheTimeOfThoseThatEnded(@TempDir final Path tasks) throws IOException
    {
        thread(tasks, 100, "main", 500_000);
        thread(tasks, 101, "C2 CompilerThre", 1_000);
        thread(tasks, 102, "C1 CompilerThre", 200);
        thread(tasks, 103, "VM Thread", 70_000);
        final CompilerThreadsCpu clock = new CompilerThreadsCpu(tasks);
        assertEquals(1_200, clock.getAsLong());

        thread(tasks, 101, "C2 CompilerThre", 1_500);
        assertEquals(1_700, clock.getAsLong());

        remove(tasks.resolve("102"));
        assertEquals(1_700, clock.getAsLong(), "an ended thread keeps the time it was last seen with");

        thread(tasks, 104, "C1 CompilerThre", 50);
        assertEquals(1_750, clock.getAsLong());
        assertEquals(1_750, clock.getAsLong(), "a thread counts once however often it is read after it ended");
    }

    @Test
    void shouldReadAThreadsNameOnceAndForgetThreadsThatEnded(@TempDir final Path tasks) throws IOException
    {
        final CompilerThreadsCpu clock = clockOverMainAndC2(tasks);

        Files.writeString(tasks.resolve("100").resolve("comm"), "C1 CompilerThre\n", StandardCharsets.US_ASCII);
        assertEquals(1_000, clock.getAsLong(), "a thread listed before keeps the kind its first name gave it");

        remove(tasks.resolve("100"));
        assertEquals(1_000, clock.getAsLong());
        thread(tasks, 100, "C1 CompilerThre", 300);
        assertEquals(1_300, clock.getAsLong(), "an id listed again after a listing without it is a new thread");

        remove(tasks.resolve("101"));
        assertEquals(1_300, clock.getAsLong(), "the ended compiler thread keeps its 1 000");
        thread(tasks, 101, "main", 9_000);
        thread(tasks, 100, "C1 CompilerThre", 400);
        assertEquals(1_400, clock.getAsLong(), "the new thread 101 is not a compiler thread");
    }

    @Test
    void shouldListTheThreadsAgainOnlyWhenTheirNumberChanged(@TempDir final Path tasks) throws IOException
    {
        final CompilerThreadsCpu clock = clockOverMainAndC2(tasks);
        assumeTrue(4 == (Integer)Files.getAttribute(tasks, "unix:nlink"),
            "the temporary directory's link count does not count its subdirectories");

        remove(tasks.resolve("100"));
        thread(tasks, 102, "C1 CompilerThre", 300);
        thread(tasks, 101, "C2 CompilerThre", 1_200);
        assertEquals(1_200, clock.getAsLong(), "as many threads as listed: the known compiler thread is read, " +
            "the list is not");

        thread(tasks, 103, "main", 7_000);
        assertEquals(1_500, clock.getAsLong(), "one thread more: the listing shows the compiler thread 102");
        remove(tasks.resolve("102"));
        thread(tasks, 104, "C1 CompilerThre", 400);
        assertEquals(1_500, clock.getAsLong(), "102 ended and 104 began: as many threads, 104 not seen yet");
        remove(tasks.resolve("103"));
        assertEquals(1_900, clock.getAsLong(), "one thread less: listed again, 102 keeps its 300, 104 counts");
    }

    @Test
    void shouldReadOnlyTheKnownCompilerThreadsAtAPhasesEnd(@TempDir final Path tasks) throws IOException
    {
        final CompilerThreadsCpu clock = clockOverMainAndC2(tasks);

        thread(tasks, 101, "C2 CompilerThre", 1_400);
        thread(tasks, 102, "C1 CompilerThre", 300);
        assertEquals(1_400, clock.knownThreadsNs(), "the new thread 102 is not looked for");
        assertEquals(1_700, clock.getAsLong(), "a full reading finds it");
        remove(tasks.resolve("101"));
        thread(tasks, 102, "C1 CompilerThre", 350);
        assertEquals(1_750, clock.knownThreadsNs(), "101 ended: it keeps its 1 400");
    }

    @Test
    void shouldNameTheListItCannotRead(@TempDir final Path dir)
    {
        final Path missing = dir.resolve("task");
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> new CompilerThreadsCpu(missing).getAsLong());
        assertEquals("cannot list the JVM's threads in " + missing, ex.getMessage());
    }

    @Test
    void shouldReadThisJvmsCompilerThreadsOnLinux()
    {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no per-thread scheduler statistics here");
        final CompilerThreadsCpu clock = CompilerThreadsCpu.ofThisJvm();
        assertNotNull(clock);
        final long first = clock.getAsLong();
        assertTrue(first > 0, "the JIT has compiled the test framework's code by now: " + first);
        final long second = clock.getAsLong();
        assertTrue(second >= first, first + " then " + second);
    }

    /** A clock over threads 100 ({@code main}) and 101 (a C2 compiler thread that ran 1 000 ns), read once. */
    private static CompilerThreadsCpu clockOverMainAndC2(final Path tasks) throws IOException
    {
        thread(tasks, 100, "main", 500_000);
        thread(tasks, 101, "C2 CompilerThre", 1_000);
        final CompilerThreadsCpu clock = new CompilerThreadsCpu(tasks);
        assertEquals(1_000, clock.getAsLong());
        return clock;
    }

    private static void thread(final Path tasks, final int id, final String name, final long runNs)
        throws IOException
    {
        final Path dir = Files.createDirectories(tasks.resolve(String.valueOf(id)));
        Files.writeString(dir.resolve("comm"), name + "\n", StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("schedstat"), runNs + " 4096 12\n", StandardCharsets.US_ASCII);
    }

    private static void remove(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(file);
            }
        }
    }
}
