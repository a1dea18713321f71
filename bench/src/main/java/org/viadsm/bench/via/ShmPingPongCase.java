package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;

/**
 * {@code shm.send_recv_64B_oneway} and {@code shm.rdma_write_4KiB_oneway}: half the round trip of a ping-pong
 * between this process and the peer process over the shm provider (Send/Recv, or RDMA Write with immediate data),
 * against the same ping-pong over two raw Agrona rings in a {@code /dev/shm} file the two processes map. Both
 * sides of both wait the VIA's way: spin, then park.
 */
final class ShmPingPongCase extends OneWayCase
{
    private final ViaRig rig;
    private final int length;
    private final boolean rdmaWrite;

    private ShmPingPongCase(final String metric, final String baselineName, final ViaRig rig, final int length,
        final boolean rdmaWrite)
    {
        super(metric, baselineName);
        this.rig = rig;
        this.length = length;
        this.rdmaWrite = rdmaWrite;
    }

    static ShmPingPongCase sendRecv(final ViaRig rig)
    {
        return new ShmPingPongCase("shm.send_recv_64B_oneway",
            "raw Agrona ring ping-pong, 64 B, two processes, rings in a /dev/shm file, spin-then-park waits",
            rig, 64, false);
    }

    static ShmPingPongCase rdmaWrite(final ViaRig rig)
    {
        return new ShmPingPongCase("shm.rdma_write_4KiB_oneway",
            "raw Agrona ring ping-pong, 4 KiB messages, two processes, rings in a /dev/shm file, spin-then-park waits",
            rig, 4096, true);
    }

    @Override
    public void open()
    {
        rig.shm();
        rig.raw();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return rig.shm().pingPong(rig.peer(), length, rdmaWrite, warmup, iterations, budgetNs());
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final PeerProcess peer = rig.peer();
        final RawMemory raw = rig.raw();
        peer.send("ring " + length);
        return peer.initiate(new RingPingPong(raw.ring(RawMemory.OUT_RING_OFFSET),
            raw.ring(RawMemory.IN_RING_OFFSET), length), warmup, iterations, budgetNs());
    }
}
