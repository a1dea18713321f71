package org.viadsm.via.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A many-to-one ring in a section of a NIC's area, from producers in any process that maps the area to the NIC's
 * owner, recoverable from a producer killed between claiming a record and committing it. The owner unblocks the
 * ring once it has made no progress while records were queued for a stall timeout: {@link RingBuffer#unblock()}
 * turns the uncommitted record at the head into padding and the records behind it flow again (a committed record
 * at the head, in a ring nobody drains, is left alone). A producer that was only slow then finds its claim released
 * and its commit fails; it reports the record lost.
 * <p>
 * Subclasses encode their records ({@link #tryClaim}, then {@link #commit}) and decode them for a consumer of their
 * own type ({@link #onRecord}), checking every record against its length first: other processes write the area,
 * and a record that is not what a producer writes is dropped, as is the whole queue when a header claims more than
 * the ring holds, so that nothing another process writes makes the owner fail, loop or allocate beyond a record.
 * <p>
 * <b>Note:</b> producers may call {@link #tryClaim} and {@link #commit} from any thread; {@link #drain} and
 * {@link #unblockIfStalled} are called by the owner, one thread at a time.
 *
 * @param <C> the consumer of decoded records.
 */
abstract class AreaRing<C> implements MessageHandler
{
    private static final VarHandle SEEN;

    static
    {
        try
        {
            SEEN = MethodHandles.lookup().findVarHandle(AreaRing.class, "consumerPositionSeen", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final RingBuffer ring;
    // where the ring's trailer keeps its positions, read on every call into the NIC: one load each from this ring,
    // without the ring's checks per access or a span object between
    private final Object positionsBase;
    private final long tailPositionAddress;
    private final long headPositionAddress;
    private long lastConsumerPosition = -1;
    // the consumer position as last read here: only the owner moves it, so a ring whose producer position equals
    // it is empty; an older value (a drain by another thread not yet seen) only sends isEmpty to read the position.
    // Opaque: several threads may read and write it, none waits for another's value
    @SuppressWarnings("unused") // through SEEN
    private long consumerPositionSeen;
    private long sinceNs;
    private C consumer;

    AreaRing(final AtomicBuffer area, final int offset, final int length)
    {
        this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(area, offset, length));
        final long trailer = area.addressOffset() + offset + ring.capacity();
        this.positionsBase = area.byteArray();
        this.tailPositionAddress = trailer + RingBufferDescriptor.TAIL_POSITION_OFFSET;
        this.headPositionAddress = trailer + RingBufferDescriptor.HEAD_POSITION_OFFSET;
    }

    /**
     * Whether no record is queued: a volatile read of {@link RingBuffer#producerPosition()}, compared with the
     * consumer position this ring last read, and only if they differ a volatile read of
     * {@link RingBuffer#consumerPosition()}. No write but that of the position read. The consumer position only
     * moves forward, behind the producer position, so a producer position equal to one it held is equal to it.
     *
     * @return true if empty.
     */
    final boolean isEmpty()
    {
        final long tail = UnsafeApi.getLongVolatile(positionsBase, tailPositionAddress);
        if (tail == (long)SEEN.getOpaque(this))
        {
            return true;
        }
        final long head = UnsafeApi.getLongVolatile(positionsBase, headPositionAddress);
        SEEN.setOpaque(this, head);
        return tail == head;
    }

    /**
     * Owner side: unblocks the ring if its consumer position has not moved for {@code stallNs} while records were
     * queued.
     *
     * @param nowNs   the time now.
     * @param stallNs how long the consumer position may stay still while records are queued.
     * @return true if the ring was unblocked.
     */
    final boolean unblockIfStalled(final long nowNs, final long stallNs)
    {
        final long position = ring.consumerPosition();
        if (ring.producerPosition() == position || position != lastConsumerPosition)
        {
            lastConsumerPosition = position;
            sinceNs = nowNs;
            return false;
        }
        if (nowNs - sinceNs < stallNs)
        {
            return false;
        }
        sinceNs = nowNs;
        return ring.unblock();
    }

    /**
     * Owner side: takes every queued record off the ring.
     *
     * @param consumer receives them in order, decoded.
     * @return the number taken.
     */
    final int drain(final C consumer)
    {
        this.consumer = consumer;
        try
        {
            return ring.read(this);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            // a record header claims more than the ring holds: the area was scribbled on, not written by a producer
            discardQueued();
            return 0;
        }
        finally
        {
            this.consumer = null;
        }
    }

    /**
     * Drops every queued record and zeroes the ring, whose records can no longer be told apart; producers go on.
     */
    private void discardQueued()
    {
        final AtomicBuffer buffer = ring.buffer();
        final int capacity = ring.capacity();
        final long tail = buffer.getLongVolatile(capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET);
        buffer.setMemory(0, capacity, (byte)0);
        buffer.putLongRelease(capacity + RingBufferDescriptor.HEAD_CACHE_POSITION_OFFSET, tail);
        buffer.putLongRelease(capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET, tail);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public final void onMessage(final int typeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        onRecord(consumer, typeId, buffer, index, length);
    }

    /**
     * Decodes one record for the consumer.
     *
     * @param consumer the consumer {@link #drain} was given.
     * @param typeId   the record's type.
     * @param buffer   the ring's buffer.
     * @param index    the record's offset in it.
     * @param length   its length.
     */
    abstract void onRecord(C consumer, int typeId, MutableDirectBuffer buffer, int index, int length);

    /**
     * The longest record.
     *
     * @return bytes.
     */
    final int maxRecordLength()
    {
        return ring.maxMsgLength();
    }

    /**
     * Claims a record to write in place.
     *
     * @param typeId the record's type, positive.
     * @param length its length.
     * @return its offset in {@link #buffer()}, or a value of at most 0 if the ring is full.
     */
    final int tryClaim(final int typeId, final int length)
    {
        return ring.tryClaim(typeId, length);
    }

    /**
     * The ring's buffer, to write a claimed record into.
     *
     * @return the buffer.
     */
    final AtomicBuffer buffer()
    {
        return ring.buffer();
    }

    /**
     * Commits a claimed record.
     *
     * @param index the offset {@link #tryClaim} returned.
     * @return false if the owner took this producer for dead and unblocked the ring past its record.
     */
    final boolean commit(final int index)
    {
        try
        {
            ring.commit(index);
            return true;
        }
        catch (final IllegalStateException ex)
        {
            return false;
        }
    }
}
