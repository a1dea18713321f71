package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;


/**
 * The lock under which NIC files are judged stale, deleted and linked in place: an exclusive lock on the file
 * {@code viadsm.<user>.lock} of the directory between processes, and a monitor between the threads of this one (a
 * JVM holds a file lock for all its threads). Without it, two processes opening the same stale name could each
 * delete the file the other had just linked, and a closing NIC could delete a file another NIC had put in its place.
 * The lock is per user because only a file's owner can delete it in a shared, sticky directory such as
 * {@code /dev/shm}, and another user's lock file could not be opened for writing; where the lock file cannot be
 * had at all, the files are handled unlocked, as before there was a lock.
 */
final class ShmLock implements AutoCloseable
{
    /** Name of the lock file: {@code viadsm.<user>.lock}, outside the {@code viadsm-*} names the sweep looks at. */
    static final String LOCK_FILE = "viadsm." + System.getProperty("user.name", "user")
        .replaceAll("[^A-Za-z0-9_.-]", "_") + ".lock";

    private static final ReentrantLock IN_JVM = new ReentrantLock();

    private final FileChannel channel;

    private ShmLock(final FileChannel channel)
    {
        this.channel = channel;
    }

    /**
     * Takes the directory's lock, waiting for other processes and threads; if the lock file cannot be opened or
     * locked, only the monitor of this JVM.
     */
    static ShmLock acquire(final Path directory)
    {
        IN_JVM.lock();
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            channel.lock();
            return new ShmLock(channel);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly(channel);
            return new ShmLock(null);
        }
    }

    @Override
    public void close()
    {
        closeQuietly(channel);
        IN_JVM.unlock();
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (null != channel)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing the channel releases the lock; nothing more to do
            }
        }
    }
}
