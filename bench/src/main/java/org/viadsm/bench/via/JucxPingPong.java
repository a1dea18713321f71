package org.viadsm.bench.via;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openucx.jucx.ucp.UcpRequest;

/**
 * The raw baseline of a ucx message ping-pong: jucx active messages between the two processes' workers, the last
 * mark in the 8-byte header and {@code length} bytes of data, copied on arrival into this side's memory (as a VIA
 * Send lands in the receiver's registered memory). Waits progress the worker, spinning then parking as the VIA's
 * waits do ({@link SpinParkIdle}).
 */
final class JucxPingPong extends PingPong
{
    private static final int AM_ID = 7;
    /** {@code UCP_AM_SEND_FLAG_EAGER}, as the provider sends its messages. */
    private static final long EAGER = 1 << 1;

    private final RawUcx ucx;
    private final int length;
    private final UnsafeBuffer header = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final UnsafeBuffer data;
    private final UnsafeBuffer received = new UnsafeBuffer(0, 0);
    private final SpinParkIdle idle = new SpinParkIdle("jucx ping-pong");
    private UcpRequest sending;
    private int arrived;
    private long lastMark;

    /**
     * A ping-pong side over a connected {@link RawUcx}.
     *
     * @param ucx    this side's UCX.
     * @param length bytes per message, at most the memory's length.
     */
    JucxPingPong(final RawUcx ucx, final int length)
    {
        this.ucx = ucx;
        this.length = length;
        this.data = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(length, 64), 64));
    }

    @Override
    void start()
    {
        ucx.worker().setAmRecvHandler(AM_ID, (headerAddress, headerLength, amData, replyEndpoint) ->
        {
            received.wrap(headerAddress, Long.BYTES);
            lastMark = received.getLong(0);
            received.wrap(amData.getDataAddress(), length);
            ucx.buffer().putBytes(0, received, 0, length);
            arrived++;
            return 0;
        });
    }

    @Override
    void send(final boolean last)
    {
        header.putLong(0, last ? 1 : 0);
        sending = ucx.endpoint().sendAmNonBlocking(AM_ID, header.addressOffset(), Long.BYTES, data.addressOffset(),
            length, EAGER, null);
    }

    @Override
    boolean receive()
    {
        while (0 == arrived)
        {
            idle.idle(ucx.progress());
        }
        idle.reset();
        arrived--;
        return 0 != lastMark;
    }

    @Override
    void sent()
    {
        if (null != sending)
        {
            ucx.await(sending, idle);
            sending = null;
        }
    }
}
