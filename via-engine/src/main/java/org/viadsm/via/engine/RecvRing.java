package org.viadsm.via.engine;

import org.agrona.concurrent.AtomicBuffer;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.internal.CheckedSpan;

import static org.viadsm.via.engine.RecvEntryLayout.CAPACITY_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.IMMEDIATE_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.LENGTH_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.SEGMENT_ADDRESS_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.SEGMENT_COUNT_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.SEGMENT_HANDLE_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.SEGMENT_LENGTH_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.SEQUENCE_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.STATUS_OFFSET;
import static org.viadsm.via.engine.RecvEntryLayout.segmentOffset;
import static org.viadsm.via.engine.ViRecordLayout.RECV_CONSUMER_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_ENTRIES_OFFSET;
import static org.viadsm.via.engine.ViRecordLayout.RECV_PRODUCER_OFFSET;

/**
 * Flyweight over the receive ring of one VI record: the VI's receive work queue as the NIC sees it.
 * <p>
 * The owner posts entries in order and publishes each by writing its sequence word (index + 1) with release
 * semantics, then advances the producer index, which only a reused record's owner reads. Whoever completes the
 * oldest unclaimed entry (an initiator's Send or RDMA Write with immediate data, or a flush) first claims it by
 * advancing the consumer index with compare-and-set, after seeing the entry's sequence word say it is posted, so
 * that a flush racing an initiator never completes an entry twice; then it writes length and immediate data, and
 * the status last with release semantics. The consumer index shares its word with the record's connection epoch
 * ({@link ViRecordLayout#RECV_CONSUMER_OFFSET}), so an initiator's claim, made for the epoch it connected at, fails
 * once the record has been connected again.
 * The owner reads the status with acquire semantics and frees the entry only after that, so an entry is rewritten
 * by the owner only once it has completed.
 * <p>
 * <b>Note:</b> {@link #post} is called by the owning VI's receive-queue thread only; {@link #claim},
 * {@link #complete} and the readers by any thread of any process that maps the area.
 */
final class RecvRing
{
    /** What {@link #claim(long)} returns when the record has been connected again since the claimer connected. */
    static final long EPOCH_MISMATCH = -2;

    private final CheckedSpan buffer;
    private final int recordOffset;
    private final int entriesOffset;
    private final int entryLength;
    private final int mask;
    private final int maxSegments;

    /**
     * Binds a flyweight to the ring of a record.
     *
     * @param area     the NIC area.
     * @param geometry the area's geometry.
     * @param viId     the VI id.
     */
    RecvRing(final AtomicBuffer area, final NicGeometry geometry, final int viId)
    {
        this.recordOffset = geometry.viRecordOffset(viId);
        this.buffer = new CheckedSpan(area, recordOffset, geometry.viRecordLength());
        this.entriesOffset = recordOffset + RECV_ENTRIES_OFFSET;
        this.entryLength = RecvEntryLayout.length(geometry.maxSegments());
        this.mask = geometry.queueDepth() - 1;
        this.maxSegments = geometry.maxSegments();
    }

    /**
     * Entries the ring holds.
     *
     * @return the queue depth.
     */
    int capacity()
    {
        return mask + 1;
    }

    /**
     * Data segments one entry holds.
     *
     * @return the segment limit.
     */
    int maxSegments()
    {
        return maxSegments;
    }

    /**
     * Owner side: copies a receive descriptor's segments into entry {@code index}, clears its status, publishes it
     * by writing its sequence word with release semantics, and advances the producer index to {@code index + 1}.
     *
     * @param index      the producer index; the entry it reuses must have completed and been taken.
     * @param descriptor the receive descriptor.
     */
    void post(final long index, final Descriptor descriptor)
    {
        final int entry = entryOffset(index);
        final int count = descriptor.segments().count();
        long capacity = 0;
        if (count <= maxSegments)
        {
            for (int i = 0; i < count; i++)
            {
                final int segment = entry + segmentOffset(i);
                final int length = descriptor.segments().length(i);
                buffer.putLong(segment + SEGMENT_ADDRESS_OFFSET, descriptor.segments().address(i));
                buffer.putInt(segment + SEGMENT_HANDLE_OFFSET, descriptor.segments().handle(i));
                buffer.putInt(segment + SEGMENT_LENGTH_OFFSET, length);
                capacity += length;
            }
        }
        buffer.putInt(entry + SEGMENT_COUNT_OFFSET, count);
        buffer.putLong(entry + CAPACITY_OFFSET, capacity);
        buffer.putInt(entry + LENGTH_OFFSET, 0);
        buffer.putInt(entry + IMMEDIATE_OFFSET, 0);
        buffer.putInt(entry + STATUS_OFFSET, 0);
        buffer.putLongRelease(entry + SEQUENCE_OFFSET, index + 1);
        buffer.putLongRelease(recordOffset + RECV_PRODUCER_OFFSET, index + 1);
    }

    /**
     * Claims the oldest posted entry that nobody has claimed, whatever the connection epoch: for flushes.
     *
     * @return its index, or -1 if every posted entry is claimed.
     */
    long claim()
    {
        return claim(-1);
    }

    /**
     * Claims the oldest posted entry that nobody has claimed, for a sender of the connection of epoch {@code epoch}.
     * If the entry's slot turns out to hold another entry because others claimed and the owner posted again
     * meanwhile, it looks again.
     *
     * @param epoch the epoch the sender connected at ({@link ViRecord#recvEpoch()}), or -1 for any.
     * @return its index, -1 if every posted entry is claimed, or {@link #EPOCH_MISMATCH}.
     */
    long claim(final long epoch)
    {
        final int consumerOffset = recordOffset + RECV_CONSUMER_OFFSET;
        long word = buffer.getLongVolatile(consumerOffset);
        while (true)
        {
            if (epoch >= 0 && ViRecordLayout.consumerEpoch(word) != epoch)
            {
                return EPOCH_MISMATCH;
            }
            final long index = ViRecordLayout.consumerIndex(word);
            if (buffer.getLongAcquire(entryOffset(index) + SEQUENCE_OFFSET) != index + 1)
            {
                final long again = buffer.getLongVolatile(consumerOffset);
                if (again == word)
                {
                    return -1;
                }
                word = again;
            }
            else if (buffer.compareAndSetLong(consumerOffset, word, word + 1))
            {
                return index;
            }
            else
            {
                word = buffer.getLongVolatile(consumerOffset);
            }
        }
    }

    /**
     * Completes a claimed entry: length and immediate data, then the status with release semantics.
     *
     * @param index     a claimed entry.
     * @param status    status bits, {@code DONE} included.
     * @param length    bytes received.
     * @param immediate immediate data received.
     */
    void complete(final long index, final int status, final int length, final int immediate)
    {
        final int entry = entryOffset(index);
        buffer.putInt(entry + LENGTH_OFFSET, length);
        buffer.putInt(entry + IMMEDIATE_OFFSET, immediate);
        buffer.putIntRelease(entry + STATUS_OFFSET, status);
    }

    /**
     * Completes a claimed entry whose completer is known to be dead, unless it completed after all or its slot no
     * longer holds it (the owner took it back and posted another entry there). The sequence check and the
     * compare-and-set are one step for the entry: the owner posts into the slot again only after taking the entry
     * completed, and an entry abandoned by a dead completer is completed by this call alone.
     *
     * @param index  a claimed entry.
     * @param status status bits.
     * @return true if this call completed it.
     */
    boolean forceComplete(final long index, final int status)
    {
        final int entry = entryOffset(index);
        return buffer.getLongAcquire(entry + SEQUENCE_OFFSET) == index + 1 &&
            buffer.compareAndSetInt(entry + STATUS_OFFSET, 0, status);
    }

    /**
     * The status of an entry, read with acquire semantics.
     *
     * @param index entry index.
     * @return status bits, 0 while not completed.
     */
    int status(final long index)
    {
        return buffer.getIntAcquire(entryOffset(index) + STATUS_OFFSET);
    }

    /**
     * The received length of a completed entry.
     *
     * @param index entry index.
     * @return bytes.
     */
    int length(final long index)
    {
        return buffer.getInt(entryOffset(index) + LENGTH_OFFSET);
    }

    /**
     * The received immediate data of a completed entry.
     *
     * @param index entry index.
     * @return the immediate data.
     */
    int immediate(final long index)
    {
        return buffer.getInt(entryOffset(index) + IMMEDIATE_OFFSET);
    }

    /**
     * The segment count as posted.
     *
     * @param index entry index.
     * @return the count; above {@link #maxSegments()} no segment was stored.
     */
    int segmentCount(final long index)
    {
        return buffer.getInt(entryOffset(index) + SEGMENT_COUNT_OFFSET);
    }

    /**
     * The sum of the segment lengths.
     *
     * @param index entry index.
     * @return bytes the entry can receive.
     */
    long entryCapacity(final long index)
    {
        return buffer.getLong(entryOffset(index) + CAPACITY_OFFSET);
    }

    /**
     * Address of a stored segment.
     *
     * @param index   entry index.
     * @param segment segment index.
     * @return offset into its region.
     */
    long segmentAddress(final long index, final int segment)
    {
        return buffer.getLong(entryOffset(index) + segmentOffset(segment) + SEGMENT_ADDRESS_OFFSET);
    }

    /**
     * Handle of a stored segment.
     *
     * @param index   entry index.
     * @param segment segment index.
     * @return its memory handle.
     */
    int segmentHandle(final long index, final int segment)
    {
        return buffer.getInt(entryOffset(index) + segmentOffset(segment) + SEGMENT_HANDLE_OFFSET);
    }

    /**
     * Length of a stored segment.
     *
     * @param index   entry index.
     * @param segment segment index.
     * @return bytes.
     */
    int segmentLength(final long index, final int segment)
    {
        return buffer.getInt(entryOffset(index) + segmentOffset(segment) + SEGMENT_LENGTH_OFFSET);
    }

    private int entryOffset(final long index)
    {
        return entriesOffset + ((int)index & mask) * entryLength;
    }
}
