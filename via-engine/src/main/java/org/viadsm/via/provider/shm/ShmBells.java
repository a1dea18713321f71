package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.viadsm.via.engine.Bell;

/**
 * The bells of a shm NIC, made on first need and lent to sleeping threads, one each: as many exist as threads
 * ever slept on the NIC at once, at most one per queue. If one cannot be made (no UNIX-domain sockets, a directory
 * path too long for a socket's), the NIC lends none from then on and its waits poll.
 * <p>
 * <b>Note:</b> thread-safe.
 */
final class ShmBells implements AutoCloseable
{
    private final Path directory;
    private final String name;
    private final long pid;
    private final int max;
    private final AtomicLong heard = new AtomicLong();
    private final ArrayList<ShmBell> all = new ArrayList<>();
    private final ArrayDeque<ShmBell> free = new ArrayDeque<>();
    private boolean failed;
    private boolean closed;

    /**
     * Makes no bell yet.
     *
     * @param directory the NIC files' directory.
     * @param name      the NIC's name.
     * @param pid       this process.
     * @param max       the most bells to make: the NIC's queues that can have a sleeper.
     */
    ShmBells(final Path directory, final String name, final long pid, final int max)
    {
        this.directory = directory;
        this.name = name;
        this.pid = pid;
        this.max = max;
    }

    synchronized Bell acquire()
    {
        if (closed || failed)
        {
            return null;
        }
        ShmBell bell = free.pollFirst();
        if (null == bell && all.size() < max)
        {
            final int id = all.size();
            try
            {
                bell = ShmBell.open(id, ShmFiles.bellFile(directory, name, pid, id), heard);
                all.add(bell);
            }
            catch (final IOException | RuntimeException ex)
            {
                failed = true;
            }
        }
        return bell;
    }

    synchronized void release(final Bell bell)
    {
        if (!closed)
        {
            free.addFirst((ShmBell)bell);
        }
    }

    /**
     * Rings heard by this NIC's bells.
     */
    long heard()
    {
        return heard.get();
    }

    /**
     * Bells made so far.
     */
    synchronized int made()
    {
        return all.size();
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        for (final ShmBell bell : all)
        {
            bell.close();
        }
        all.clear();
        free.clear();
    }
}
