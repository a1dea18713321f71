package org.viadsm.dsm.rendezvous;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.viadsm.dsm.wire.WireException;

/**
 * A rendezvous in a shared directory: rank {@code r}'s value of topic {@code t} is the file {@code t-r}, written
 * under a temporary name and renamed into place (atomic on POSIX file systems, NFS included), so a reader sees a
 * whole entry or none. Readers poll. Every entry carries the job's size, which catches a directory left by an
 * earlier job of another size; the job's key (its directory's name) makes reuse by the same job unlikely.
 * <p>
 * Clean-up: a rank withdraws its entries with {@link #retract}, rank 0 deletes the entries of a {@link #gather}
 * after reading them, and whoever empties the directory removes it.
 */
final class FileRendezvous extends RankedRendezvous
{
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Path directory;

    FileRendezvous(final Path directory, final int rank, final int size)
    {
        super(rank, size);
        this.directory = directory;
    }

    @Override
    public List<String> allGather(final String topic, final String value, final long timeoutNs)
    {
        publish(topic, value);
        final List<String> values = collect(topic, timeoutNs);
        final List<Integer> missing = missing(values);
        if (!missing.isEmpty())
        {
            throw new RendezvousException("rank " + rank + ": rank(s) " + missing + " did not publish '" + topic +
                "' in " + directory + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s");
        }
        return values;
    }

    @Override
    public List<String> gather(final String topic, final String value, final long timeoutNs)
    {
        publish(topic, value);
        if (0 != rank)
        {
            return List.of();
        }
        final List<String> values = collect(topic, timeoutNs);
        for (int other = 0; other < size; other++)
        {
            deleteQuietly(entry(topic, other));
        }
        removeDirectoryIfEmpty();
        return values;
    }

    @Override
    public void retract(final String topic)
    {
        deleteQuietly(entry(topic, rank));
        removeDirectoryIfEmpty();
    }

    private Path entry(final String topic, final int owner)
    {
        return directory.resolve(topic + "-" + owner);
    }

    private void publish(final String topic, final String value)
    {
        final int length = codec.encode(new RendezvousEntry(topic, rank, size, value));
        final Path target = entry(topic, rank);
        final Path temporary = directory.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() +
            ".tmp");
        try
        {
            Files.createDirectories(directory);
            Files.write(temporary, Arrays.copyOf(codec.bytes(), length));
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            deleteQuietly(temporary);
            throw new RendezvousException("rank " + rank + " cannot publish '" + topic + "' in " + directory + ": " +
                ex, ex);
        }
    }

    /** Every rank's value, null for a rank whose entry did not appear in time. */
    private List<String> collect(final String topic, final long timeoutNs)
    {
        final String[] values = new String[size];
        final long deadlineNs = System.nanoTime() + timeoutNs;
        int found = 0;
        while (true)
        {
            for (int other = 0; other < size; other++)
            {
                if (null == values[other] && null != (values[other] = read(topic, other)))
                {
                    found++;
                }
            }
            if (found == size || System.nanoTime() - deadlineNs >= 0)
            {
                return Arrays.asList(values);
            }
            LockSupport.parkNanos(POLL_NS);
        }
    }

    private String read(final String topic, final int owner)
    {
        final Path file = entry(topic, owner);
        final byte[] bytes;
        try
        {
            if (Files.size(file) > RendezvousEntry.MAX_LENGTH)
            {
                throw new RendezvousException(file + " is not a rendezvous entry: " + Files.size(file) + " bytes");
            }
            bytes = Files.readAllBytes(file);
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
        catch (final IOException ex)
        {
            throw new RendezvousException("rank " + rank + " cannot read " + file + ": " + ex, ex);
        }
        final RendezvousEntry entry;
        try
        {
            entry = codec.decode(bytes, 0, bytes.length, RendezvousEntry.class);
        }
        catch (final WireException ex)
        {
            throw new RendezvousException(file + " is not a rendezvous entry: " + ex.getMessage(), ex);
        }
        if (entry.rank() != owner || !entry.topic().equals(topic) || entry.size() != size)
        {
            throw new RendezvousException(file + " says rank " + entry.rank() + " of " + entry.size() +
                " published '" + entry.topic() + "', but this is rank " + rank + " of " + size +
                " (a directory left by another job? remove it)");
        }
        return entry.value();
    }

    private void removeDirectoryIfEmpty()
    {
        try
        {
            Files.deleteIfExists(directory);
        }
        catch (final DirectoryNotEmptyException ignore)
        {
            // another rank's entries are still there; the last one out removes it
        }
        catch (final IOException ignore)
        {
            // best effort, as for any temporary file
        }
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignore)
        {
            // best effort
        }
    }
}
