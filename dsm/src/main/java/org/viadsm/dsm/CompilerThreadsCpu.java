package org.viadsm.dsm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.function.LongSupplier;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

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
 * A reading reads the statistics of the compiler threads only, from files it keeps open, and lists the threads
 * (one directory listing, an entry per thread) only when their number changed since the last listing: the thread
 * list's link count, one {@code stat} call, is two plus the number of threads. A thread's name is read once, when
 * the listing first shows it. A program's measured phase ends with a reading, often inside the time the program
 * itself measures, so the reading has to be cheap: reading every thread's name and statistics again, a node's phase
 * end took 1.3 to 7.5 ms in the first warm runs of FFT and LU on one node (quick inputs, a loaded 2-core machine), as
 * long as such a run's whole computation; with a listing at every reading 0.1 to 0.15 ms there (0.2 to 0.4 ms with a
 * {@code FileChannel} per file, whose reads run more code until they are compiled), of which the listing was most.
 * The price: a compiler thread that starts while another thread ends, between two readings, is seen only at the
 * next reading after the number of threads changed. A phase's end reads only the compiler threads the clock knows
 * ({@link #knownThreadsNs()}): a compiler thread HotSpot starts during a phase counts from the next phase's begin.
 * <p>
 * <b>Note:</b> thread-safe; read it at phase boundaries, not per operation.
 */
final class CompilerThreadsCpu implements LongSupplier
{
    private static final String C1_PREFIX = "C1 CompilerThre";
    private static final String C2_PREFIX = "C2 CompilerThre";
    private static final int NO_LINKS = -1;

    private final Path tasks;
    /** The compiler threads the last listing showed, by thread id. */
    private final Long2ObjectHashMap<CompilerThread> compilers = new Long2ObjectHashMap<>();
    /** The other threads the last listing showed, with the number of the listing. */
    private final Long2LongHashMap others = new Long2LongHashMap(-1L);
    private final byte[] buffer = new byte[128];
    private long listing;
    /** The thread ids of the last listing. */
    private String[] lastIds = new String[0];
    private long endedNs;
    /** The thread list's link count at the last listing, where it counted the threads listed; else NO_LINKS. */
    private int listedLinks = NO_LINKS;

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
        final int links = links();
        if (NO_LINKS != listedLinks && links == listedLinks)
        {
            // as many threads as the last listing showed (the usual case): the same threads, no listing
            return endedNs + readCompilers();
        }
        final String[] ids = tasks.toFile().list();
        if (null == ids)
        {
            throw new UncheckedIOException("cannot list the JVM's threads in " + tasks,
                new IOException("not a readable directory: " + tasks));
        }
        // the count is trusted only where the directory's links count its threads, as Linux's and most file
        // systems' directories do (two plus one per subdirectory), and while no thread came or went meanwhile
        listedLinks = links == ids.length + 2 ? links : NO_LINKS;
        if (Arrays.equals(ids, lastIds))
        {
            // the same threads as at the last reading: no name to read, no thread to forget
            return endedNs + readCompilers();
        }
        lastIds = ids;
        final long now = ++listing;
        long aliveNs = 0;
        for (final String id : ids)
        {
            final long threadId = Long.parseLong(id);
            if (others.containsKey(threadId))
            {
                others.put(threadId, now);
                continue;
            }
            CompilerThread thread = compilers.get(threadId);
            if (null == thread)
            {
                thread = compilerThread(id);
                if (null == thread)
                {
                    others.put(threadId, now);
                    continue;
                }
                compilers.put(threadId, thread);
            }
            thread.listing = now;
            aliveNs += thread.read(buffer);
        }
        forgetEnded(now, ids.length);
        return endedNs + aliveNs;
    }

    /**
     * The CPU time of the compiler threads the last reading found, and of those that ended before, without looking for
     * threads started since (which {@link #getAsLong()} does, with a {@code stat} call and a listing when their number
     * changed): the compiler threads' statistics only, as a phase's end reads them.
     *
     * @return the sum, which never decreases and is at most what {@link #getAsLong()} would return now.
     */
    synchronized long knownThreadsNs()
    {
        return endedNs + readCompilers();
    }

    private long readCompilers()
    {
        long aliveNs = 0;
        for (final CompilerThread thread : compilers.values())
        {
            aliveNs += thread.read(buffer);
        }
        return aliveNs;
    }

    /**
     * The link count of the thread list: on Linux two plus the number of threads ({@code proc_task_getattr}), one
     * {@code stat} call where a listing reads an entry per thread; {@link #NO_LINKS} where it cannot be read.
     */
    private int links()
    {
        try
        {
            return (Integer)Files.getAttribute(tasks, "unix:nlink");
        }
        catch (final IOException | UnsupportedOperationException | IllegalArgumentException ex)
        {
            return NO_LINKS;
        }
    }

    /**
     * Closes the files of the compiler threads the listing {@code now} did not show, keeping their time, and forgets
     * the other threads it did not show.
     */
    private void forgetEnded(final long now, final int listed)
    {
        for (final Iterator<CompilerThread> it = compilers.values().iterator(); it.hasNext(); )
        {
            final CompilerThread thread = it.next();
            if (thread.listing != now)
            {
                endedNs += thread.lastNs;
                thread.close();
                it.remove();
            }
        }
        if (others.size() + compilers.size() > listed)
        {
            // some threads the map holds have ended: forget them, so that the map holds the living threads only
            final Long2LongHashMap.EntryIterator entries = others.entrySet().iterator();
            while (entries.hasNext())
            {
                entries.next();
                if (entries.getLongValue() != now)
                {
                    entries.remove();
                }
            }
        }
    }

    /** A compiler thread with its statistics file open, or null for another thread or one that ended. */
    private CompilerThread compilerThread(final String id)
    {
        final Path thread = tasks.resolve(id);
        try
        {
            final String name = Files.readString(thread.resolve("comm"), StandardCharsets.US_ASCII);
            if (!name.startsWith(C1_PREFIX) && !name.startsWith(C2_PREFIX))
            {
                return null;
            }
            return new CompilerThread(new RandomAccessFile(thread.resolve("schedstat").toFile(), "r"));
        }
        catch (final IOException ex)
        {
            // the thread ended between the listing and the read (the kernel answers ENOENT or ESRCH)
            return null;
        }
    }

    /** A compiler thread's open statistics file and the run time last read from it. */
    private static final class CompilerThread
    {
        private final RandomAccessFile schedstat;
        private long lastNs;
        private long listing;

        CompilerThread(final RandomAccessFile schedstat)
        {
            this.schedstat = schedstat;
        }

        /** The thread's run time now, or as last read if it ended meanwhile. */
        long read(final byte[] buffer)
        {
            try
            {
                // a RandomAccessFile rather than a FileChannel: a fraction of the code to run until it is compiled
                schedstat.seek(0);
                final int length = schedstat.read(buffer, 0, buffer.length);
                long ns = 0;
                int digits = 0;
                for (int i = 0; i < length; i++)
                {
                    final int digit = buffer[i] - '0';
                    if (digit < 0 || digit > 9)
                    {
                        break;
                    }
                    ns = ns * 10 + digit;
                    digits++;
                }
                if (digits > 0)
                {
                    lastNs = ns;
                }
            }
            catch (final IOException ex)
            {
                // the thread ended since the listing (ESRCH): it keeps its last reading
            }
            return lastNs;
        }

        void close()
        {
            try
            {
                schedstat.close();
            }
            catch (final IOException ex)
            {
                // nothing was written; the descriptor is released either way
            }
        }
    }
}
