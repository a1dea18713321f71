package org.viadsm.bench.via;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The baselines' shared memory between the two processes: one file in the shm directory, mapped by both, holding
 * the two rings of the raw ping-pong and two areas of cold pages, one the peer fills (the raw counterpart of the
 * peer's registered memory) and one the initiator fills (the counterpart of its own registered memory).
 * <pre>
 *   ring initiator-to-peer | ring peer-to-initiator | peer's cold pages | initiator's cold pages
 * </pre>
 */
final class RawMemory implements AutoCloseable
{
    static final int OUT_RING_OFFSET = 0;
    static final int IN_RING_OFFSET = RingPingPong.RING_LENGTH;
    static final int PEER_COLD_OFFSET = BitUtil.align(2 * RingPingPong.RING_LENGTH, ViEndpoint.PAGE_LENGTH);

    private final MappedByteBuffer mapping;
    private final int coldLength;
    final UnsafeBuffer buffer;

    private RawMemory(final MappedByteBuffer mapping, final int coldLength)
    {
        this.mapping = mapping;
        this.coldLength = coldLength;
        this.buffer = new UnsafeBuffer(mapping);
    }

    /**
     * Creates and maps a new file, and touches the initiator's cold pages.
     *
     * @param file       the file; must not exist.
     * @param coldLength bytes of each cold area, a multiple of the page length.
     * @return the memory.
     */
    static RawMemory create(final Path file, final int coldLength)
    {
        final RawMemory memory = new RawMemory(IoUtil.mapNewFile(file.toFile(), length(coldLength), false), coldLength);
        ViEndpoint.touch(memory.buffer, memory.localColdOffset(), coldLength);
        return memory;
    }

    /**
     * Maps the file the initiator created, and touches the peer's cold pages.
     *
     * @param file       the file.
     * @param coldLength bytes of each cold area, as created.
     * @return the memory.
     */
    static RawMemory map(final Path file, final int coldLength)
    {
        final File f = file.toFile();
        final RawMemory memory = new RawMemory(IoUtil.mapExistingFile(f, "bench raw memory"), coldLength);
        ViEndpoint.touch(memory.buffer, PEER_COLD_OFFSET, coldLength);
        return memory;
    }

    private static int length(final int coldLength)
    {
        return PEER_COLD_OFFSET + 2 * coldLength;
    }

    /**
     * Where the initiator's cold pages start.
     *
     * @return the offset.
     */
    int localColdOffset()
    {
        return PEER_COLD_OFFSET + coldLength;
    }

    /**
     * The ring memory at {@code offset}, as a buffer of its own.
     *
     * @param offset {@link #OUT_RING_OFFSET} or {@link #IN_RING_OFFSET}.
     * @return the ring's memory.
     */
    UnsafeBuffer ring(final int offset)
    {
        return new UnsafeBuffer(buffer, offset, RingPingPong.RING_LENGTH);
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapping);
    }
}
