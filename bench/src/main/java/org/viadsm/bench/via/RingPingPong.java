package org.viadsm.bench.via;

import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The raw baseline of a message ping-pong: two Agrona {@link OneToOneRingBuffer}s, one per direction, in memory
 * both sides map (a {@code /dev/shm} file between processes, plain memory between threads). A message is one copy
 * from the sender's buffer into the ring, as a VIA Send or RDMA Write is one copy into the peer's memory; the
 * receiver reads its first word (the last-message mark) in place. Waits spin then park as the VIA's do
 * ({@link SpinParkIdle}).
 */
final class RingPingPong extends PingPong implements MessageHandler
{
    /** Capacity of each ring: room for several 4 KiB messages (a ring's largest message is an eighth of it). */
    static final int RING_CAPACITY = 256 * 1024;
    /** Bytes of each ring's memory. */
    static final int RING_LENGTH = RING_CAPACITY + RingBufferDescriptor.TRAILER_LENGTH;
    private static final int MSG_TYPE_ID = 1;

    private final RingBuffer out;
    private final RingBuffer in;
    private final int length;
    private final UnsafeBuffer source;
    private final SpinParkIdle idle = new SpinParkIdle("ring ping-pong");
    private long lastMark;

    /**
     * A ping-pong side.
     *
     * @param outRing memory of the ring this side writes, {@link #RING_LENGTH} bytes.
     * @param inRing  memory of the ring this side reads.
     * @param length  bytes per message.
     */
    RingPingPong(final AtomicBuffer outRing, final AtomicBuffer inRing, final int length)
    {
        this.out = new OneToOneRingBuffer(outRing);
        this.in = new OneToOneRingBuffer(inRing);
        this.length = length;
        this.source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(length, 64), 64));
    }

    @Override
    void send(final boolean last)
    {
        source.putLong(0, last ? 1 : 0);
        while (!out.write(MSG_TYPE_ID, source, 0, length))
        {
            idle.idle();
        }
        idle.reset();
    }

    @Override
    boolean receive()
    {
        while (0 == in.read(this, 1))
        {
            idle.idle();
        }
        idle.reset();
        return 0 != lastMark;
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        lastMark = buffer.getLong(index);
    }
}
