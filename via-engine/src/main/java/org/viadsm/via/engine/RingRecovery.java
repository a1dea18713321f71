package org.viadsm.via.engine;

import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Recovery of an Agrona many-to-one ring from a producer killed between claiming a record and committing it. The
 * consumer unblocks the ring once it has made no progress while records were queued for a stall timeout:
 * {@link RingBuffer#unblock()} turns the uncommitted record at the head into padding and the records behind it flow
 * again (a committed record at the head, in a ring nobody drains, is left alone). A producer that was only slow then
 * finds its claim released and its commit fails; it reports the record lost.
 * <p>
 * <b>Note:</b> {@link #unblockIfStalled} is called by the ring's consumer, one thread at a time; {@link #commit} by
 * any producer.
 */
final class RingRecovery
{
    private final RingBuffer ring;
    private long lastConsumerPosition = -1;
    private long sinceNs;

    RingRecovery(final RingBuffer ring)
    {
        this.ring = ring;
    }

    /**
     * Looks for a stall and unblocks the ring after {@code stallNs} of one.
     *
     * @param nowNs   the time now.
     * @param stallNs how long the consumer position may stay still while records are queued.
     * @return true if the ring was unblocked.
     */
    boolean unblockIfStalled(final long nowNs, final long stallNs)
    {
        final long consumer = ring.consumerPosition();
        if (ring.producerPosition() == consumer || consumer != lastConsumerPosition)
        {
            lastConsumerPosition = consumer;
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
     * Commits a claimed record.
     *
     * @param index the index {@code tryClaim} returned.
     * @return false if the consumer took this producer for dead and unblocked the ring past its record.
     */
    boolean commit(final int index)
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
