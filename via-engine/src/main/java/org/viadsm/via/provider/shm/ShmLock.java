package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * The lock under which NIC files are judged stale, deleted and linked in place: an exclusive lock on the file
 * {@code viadsm.lock} of the directory between processes, and a monitor between the threads of this one (a JVM holds
 * a file lock for all its threads). Without it, two processes opening the same stale name could each delete the file
 * the other had just linked, and a closing NIC could delete a file another NIC had put in its place.
 */
final class ShmLock implements AutoCloseable
{
    static final String LOCK_FILE = "viadsm.lock";

    private static final ReentrantLock IN_JVM = new ReentrantLock();

    private final FileChannel channel;

    private ShmLock(final FileChannel channel)
    {
        this.channel = channel;
    }

    /**
     * Takes the directory's lock, waiting for other processes and threads.
     *
     * @throws ViaException with {@link ViaError#ERROR_RESOURCE} if the lock file cannot be opened or locked.
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
            IN_JVM.unlock();
            throw new ViaException(ViaError.ERROR_RESOURCE, "cannot lock " + directory.resolve(LOCK_FILE), ex);
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
