package org.viadsm.via.engine;

import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Unblocks an Agrona many-to-one ring whose consumer has made no progress while records were queued for a stall
 * timeout: the record at the head was claimed by a producer that never committed it (killed between the two), so
 * {@link RingBuffer#unblock()} turns it into padding and the records behind it flow again. A committed record at the
 * head (a ring nobody drains) is left alone by {@code unblock}.
 * <p>
 * <b>Note:</b> not thread-safe; called by the ring's consumer, one thread at a time.
 */
final class StallDetector
{
    private final RingBuffer ring;
    private long lastConsumerPosition = -1;
    private long sinceNs;

    StallDetector(final RingBuffer ring)
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
}
