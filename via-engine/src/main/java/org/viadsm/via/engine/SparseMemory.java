package org.viadsm.via.engine;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.agrona.IoUtil;
import org.viadsm.via.ViaError;
import org.viadsm.via.ViaException;

/**
 * Sparse, zeroed, page-aligned memory from memory-mapped files: untouched pages cost nothing, which lets a NIC
 * area or a large shared space be reserved up front.
 */
public final class SparseMemory
{
    private SparseMemory()
    {
    }

    /**
     * Creates a sparse file of {@code length} bytes and maps it.
     *
     * @param file   the file; must not exist.
     * @param length bytes, positive.
     * @return the mapping.
     * @throws ViaException with {@link ViaError#ERROR_RESOURCE} if the file cannot be created or mapped.
     */
    public static MappedByteBuffer mapNew(final Path file, final int length)
    {
        try
        {
            return IoUtil.mapNewFile(file.toFile(), length, false);
        }
        catch (final RuntimeException ex)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "cannot map " + length + " bytes at " + file, ex);
        }
    }

    /**
     * Maps sparse memory backed by a file that is deleted at once, so the memory goes back to the system when the
     * mapping is unmapped or garbage collected, even if the process dies.
     *
     * @param directory where the file is made, e.g. {@link org.viadsm.via.NicContext#shmDirectory()}.
     * @param length    bytes, positive.
     * @return the mapping.
     * @throws ViaException with {@link ViaError#ERROR_RESOURCE} if the memory cannot be had.
     */
    public static MappedByteBuffer mapUnlinked(final Path directory, final int length)
    {
        final File file;
        try
        {
            file = Files.createTempFile(directory, "viadsmtmp-", ".map").toFile();
        }
        catch (final IOException ex)
        {
            throw new ViaException(ViaError.ERROR_RESOURCE, "cannot create a file in " + directory, ex);
        }
        try
        {
            IoUtil.delete(file, true);
            return mapNew(file.toPath(), length);
        }
        finally
        {
            IoUtil.delete(file, true);
        }
    }

    /**
     * Maps an existing file whole.
     *
     * @param file  the file.
     * @param label what it is, for messages.
     * @return the mapping.
     * @throws ViaException with {@link ViaError#NOT_REACHABLE} if the file cannot be mapped.
     */
    public static MappedByteBuffer mapExisting(final Path file, final String label)
    {
        try
        {
            return IoUtil.mapExistingFile(file.toFile(), label);
        }
        catch (final RuntimeException ex)
        {
            throw new ViaException(ViaError.NOT_REACHABLE, "cannot map " + label + " at " + file, ex);
        }
    }

    /**
     * Unmaps a mapping now; the buffer must not be touched afterwards.
     *
     * @param buffer a mapping from this class.
     */
    public static void unmap(final ByteBuffer buffer)
    {
        if (buffer instanceof MappedByteBuffer)
        {
            IoUtil.unmap((MappedByteBuffer)buffer);
        }
    }
}
