package org.viadsm.dsm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

import org.agrona.collections.Long2LongHashMap;

/**
 * The CPU time this JVM's JIT compiler threads have run so far, in ns, from Linux's scheduler statistics of each
 * thread ({@code /proc/self/task/TID/schedstat}, whose first field is the time the thread ran) for the threads
 * HotSpot names {@code C1 CompilerThreadN} and {@code C2 CompilerThreadN} (the kernel keeps 15 characters of a
 * name). Unlike the compilation bean's sum of each compilation's elapsed time, it does not count a compiler
 * thread's own waits for a core, which on an oversubscribed machine can be most of that elapsed time.
 * <p>
 * HotSpot starts and stops compiler threads as its queues grow and shrink, so the clock remembers each thread's
 * last reading: a thread that has ended keeps the time it was last seen with, and only what it ran after that
 * reading is lost. The sum therefore never decreases.
 * <p>
 * <b>Note:</b> thread-safe; each reading lists the JVM's threads, so read it at phase boundaries, not per operation.
 */
final class CompilerThreadsCpu implements LongSupplier
{
    private static final String C1_PREFIX = "C1 CompilerThre";
    private static final String C2_PREFIX = "C2 CompilerThre";

    private final Path tasks;
    private final Long2LongHashMap lastNsByThread = new Long2LongHashMap(-1L);
    private long endedNs;

    /**
     * A clock over the threads listed in {@code tasks}.
     *
     * @param tasks a directory of one directory per thread, named by its id, each with {@code comm} and
     *              {@code schedstat} files, as {@code /proc/self/task}.
     */
    CompilerThreadsCpu(final Path tasks)
    {
        this.tasks = tasks;
    }

    /**
     * This JVM's clock, or null where the system lists no threads with scheduler statistics (not Linux, or
     * {@code /proc} not mounted).
     *
     * @return the clock, or null.
     */
    static CompilerThreadsCpu ofThisJvm()
    {
        final Path tasks = Path.of("/proc/self/task");
        return Files.isReadable(tasks.resolve(String.valueOf(ProcessHandle.current().pid())).resolve("schedstat")) ?
            new CompilerThreadsCpu(tasks) : null;
    }

    /**
     * The CPU time the compiler threads have run so far, in ns.
     *
     * @return the sum over the compiler threads alive now and those seen before that have ended.
     * @throws UncheckedIOException if the thread list cannot be read.
     */
    @Override
    public synchronized long getAsLong()
    {
        final Long2LongHashMap seen = new Long2LongHashMap(-1L);
        long aliveNs = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks))
        {
            for (final Path thread : threads)
            {
                final long ns = compilerThreadNs(thread);
                if (ns >= 0)
                {
                    seen.put(Long.parseLong(thread.getFileName().toString()), ns);
                    aliveNs += ns;
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list the JVM's threads in " + tasks, ex);
        }
        lastNsByThread.forEach((thread, ns) ->
        {
            if (!seen.containsKey(thread))
            {
                endedNs += ns;
            }
        });
        lastNsByThread.clear();
        lastNsByThread.putAll(seen);
        return endedNs + aliveNs;
    }

    /** A compiler thread's run time, or -1 for another thread or one that ended while it was being read. */
    private static long compilerThreadNs(final Path thread)
    {
        try
        {
            final String name = Files.readString(thread.resolve("comm"), StandardCharsets.US_ASCII);
            if (!name.startsWith(C1_PREFIX) && !name.startsWith(C2_PREFIX))
            {
                return -1;
            }
            final String schedstat = Files.readString(thread.resolve("schedstat"), StandardCharsets.US_ASCII);
            final int end = schedstat.indexOf(' ');
            return Long.parseLong(-1 == end ? schedstat.strip() : schedstat.substring(0, end));
        }
        catch (final IOException ex)
        {
            // the thread ended between the listing and the read (the kernel answers ENOENT or ESRCH)
            return -1;
        }
    }
}
