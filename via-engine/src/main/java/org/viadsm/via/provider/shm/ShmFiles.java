package org.viadsm.via.provider.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

import org.viadsm.via.engine.NicLayout;

/**
 * Names of the shm provider's files, and the removal of files whose owner process is dead.
 * <pre>
 *   viadsm-&lt;name&gt;.nic                     the NIC's shared area; its header names the owner
 *   viadsm-&lt;name&gt;-&lt;pid&gt;-&lt;id&gt;.mem         memory from allocateMemory, owner in the name
 *   viadsm-&lt;name&gt;-&lt;pid&gt;-&lt;id&gt;.bell        a bell's UNIX-domain socket, owner in the name
 *   viadsm-&lt;name&gt;.nic.&lt;pid&gt;.&lt;n&gt;.tmp       a NIC area being laid out before it is linked in place
 * </pre>
 */
final class ShmFiles
{
    static final String PREFIX = "viadsm-";
    static final String NIC_SUFFIX = ".nic";
    static final String MEM_SUFFIX = ".mem";
    static final String BELL_SUFFIX = ".bell";
    static final String TMP_SUFFIX = ".tmp";
    private static final long START_TOLERANCE_MS = 1000;

    private ShmFiles()
    {
    }

    static Path nicFile(final Path directory, final String name)
    {
        return directory.resolve(PREFIX + name + NIC_SUFFIX);
    }

    static Path tmpNicFile(final Path directory, final String name, final long pid, final long unique)
    {
        return directory.resolve(PREFIX + name + NIC_SUFFIX + '.' + pid + '.' + unique + TMP_SUFFIX);
    }

    static Path memFile(final Path directory, final String name, final long pid, final long allocationId)
    {
        return directory.resolve(PREFIX + name + '-' + pid + '-' + allocationId + MEM_SUFFIX);
    }

    static Path bellFile(final Path directory, final String name, final long pid, final int bellId)
    {
        return directory.resolve(PREFIX + name + '-' + pid + '-' + bellId + BELL_SUFFIX);
    }

    static long currentStartMs()
    {
        return startMs(ProcessHandle.current());
    }

    static boolean isAlive(final long pid, final long startMs)
    {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive())
        {
            return false;
        }
        final long actualMs = startMs(handle.get());
        return 0 == startMs || 0 == actualMs || Math.abs(actualMs - startMs) <= START_TOLERANCE_MS;
    }

    /**
     * Whether the NIC file's owner is gone: dead, or the file is closed or unreadable.
     */
    static boolean isStale(final Path nicFile)
    {
        final ByteBuffer header = readHeader(nicFile);
        if (null == header)
        {
            return Files.exists(nicFile);
        }
        return NicLayout.MAGIC != header.getLong(NicLayout.MAGIC_OFFSET) ||
            NicLayout.STATE_CLOSED == header.getInt(NicLayout.STATE_OFFSET) ||
            !isAlive(header.getLong(NicLayout.OWNER_PID_OFFSET), header.getLong(NicLayout.OWNER_START_MS_OFFSET));
    }

    /**
     * The NIC id in a NIC file's header.
     *
     * @return the id, or 0 if the file cannot be read.
     */
    static long nicIdOf(final Path nicFile)
    {
        final ByteBuffer header = readHeader(nicFile);
        return null == header ? 0 : header.getLong(NicLayout.NIC_ID_OFFSET);
    }

    /**
     * Deletes every viadsm file in the directory whose owner process is dead.
     *
     * @return the number of files deleted.
     */
    static int sweep(final Path directory)
    {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, PREFIX + "*"))
        {
            for (final Path file : files)
            {
                if (isOrphan(file) && deleteQuietly(file))
                {
                    deleted++;
                }
            }
        }
        catch (final IOException ex)
        {
            return deleted;
        }
        return deleted;
    }

    static boolean deleteQuietly(final Path file)
    {
        try
        {
            return Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static boolean isOrphan(final Path file)
    {
        final String name = file.getFileName().toString();
        if (name.endsWith(NIC_SUFFIX))
        {
            return isStale(file);
        }
        final String stem;
        if (name.endsWith(MEM_SUFFIX) || name.endsWith(BELL_SUFFIX))
        {
            stem = name.substring(0, name.lastIndexOf('-'));
            return isDeadPid(stem.substring(stem.lastIndexOf('-') + 1));
        }
        if (name.endsWith(TMP_SUFFIX))
        {
            stem = name.substring(0, name.lastIndexOf('.', name.length() - TMP_SUFFIX.length() - 1));
            return isDeadPid(stem.substring(stem.lastIndexOf('.') + 1));
        }
        return false;
    }

    private static boolean isDeadPid(final String pid)
    {
        try
        {
            return !isAlive(Long.parseLong(pid), 0);
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    private static ByteBuffer readHeader(final Path nicFile)
    {
        try (FileChannel channel = FileChannel.open(nicFile, StandardOpenOption.READ))
        {
            final ByteBuffer header = ByteBuffer.allocate(NicLayout.HEADER_LENGTH).order(ByteOrder.nativeOrder());
            int read;
            do
            {
                read = channel.read(header);
            }
            while (read >= 0 && header.hasRemaining());
            return header.hasRemaining() ? null : header.flip();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private static long startMs(final ProcessHandle handle)
    {
        final Optional<Instant> start = handle.info().startInstant();
        return start.isPresent() ? start.get().toEpochMilli() : 0;
    }
}
