package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;
import org.agrona.BufferUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code jvm.send_recv_64B_oneway}: half the round trip of a 64 B Send/Recv ping-pong between two threads of this
 * JVM over the jvm provider, against the same ping-pong over two Agrona rings in plain memory. Both wait the VIA's
 * way: spin, then park.
 */
final class JvmPingPongCase extends OneWayCase
{
    private static final int LENGTH = 64;

    private final String name = "vb" + ProcessHandle.current().pid() + "j" + System.nanoTime();
    private ViEndpoint a;
    private ViEndpoint b;
    private UnsafeBuffer ringAb;
    private UnsafeBuffer ringBa;

    JvmPingPongCase()
    {
        super("jvm.send_recv_64B_oneway",
            "raw Agrona ring ping-pong, 64 B, two threads of one JVM, spin-then-park waits");
    }

    @Override
    public void open()
    {
        a = new ViEndpoint("jvm:" + name + "a", 0);
        b = new ViEndpoint("jvm:" + name + "b", 0);
        a.connectRequest(b.nic.address());
        b.connectRequest(a.nic.address());
        a.connectWait();
        b.connectWait();
        ringAb = new UnsafeBuffer(BufferUtil.allocateDirectAligned(RingPingPong.RING_LENGTH, 64));
        ringBa = new UnsafeBuffer(BufferUtil.allocateDirectAligned(RingPingPong.RING_LENGTH, 64));
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return PingPong.inThreads(new ViPingPong(a, LENGTH, false, 0), new ViPingPong(b, LENGTH, false, 0),
            warmup, iterations, budgetNs());
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        return PingPong.inThreads(new RingPingPong(ringAb, ringBa, LENGTH), new RingPingPong(ringBa, ringAb, LENGTH),
            warmup, iterations, budgetNs());
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(a, b);
        a = null;
        b = null;
    }
}
