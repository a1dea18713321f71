package org.viadsm.bench.dsm;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.viadsm.bench.via.ViEndpoint;

/**
 * The baselines' memory, one file in the shm directory that every node process of the cluster maps:
 * <pre>
 *   control (one page: the raw barrier's words) | helper's cold pages | measurer's cold pages
 * </pre>
 * The helper (node 1) fills its cold pages, the measurer (node 0) copies them into its own.
 */
final class RawShared implements AutoCloseable
{
    static final int BARRIER_COUNT_OFFSET = 0;
    static final int BARRIER_SENSE_OFFSET = 64;
    static final int HELPER_COLD_OFFSET = ViEndpoint.PAGE_LENGTH;

    private final MappedByteBuffer mapping;
    private final int coldLength;
    final UnsafeBuffer buffer;

    private RawShared(final MappedByteBuffer mapping, final int coldLength)
    {
        this.mapping = mapping;
        this.coldLength = coldLength;
        this.buffer = new UnsafeBuffer(mapping);
    }

    /**
     * Creates and maps the file (zero-filled, sparse).
     *
     * @param file       the file; must not exist.
     * @param coldLength bytes of each cold area, a multiple of the page length.
     * @return the memory.
     */
    static RawShared create(final Path file, final int coldLength)
    {
        return new RawShared(IoUtil.mapNewFile(file.toFile(), HELPER_COLD_OFFSET + 2L * coldLength, false),
            coldLength);
    }

    /**
     * Maps the file another node created.
     *
     * @param file       the file.
     * @param coldLength bytes of each cold area, as created.
     * @return the memory.
     */
    static RawShared map(final Path file, final int coldLength)
    {
        return new RawShared(IoUtil.mapExistingFile(file.toFile(), "bench dsm raw memory"), coldLength);
    }

    int coldLength()
    {
        return coldLength;
    }

    int measurerColdOffset()
    {
        return HELPER_COLD_OFFSET + coldLength;
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapping);
    }
}
