package org.viadsm.bench.via;

import org.HdrHistogram.Histogram;

/**
 * {@code ucx.send_recv_64B_oneway} and {@code ucx.rdma_write_4KiB_oneway}: half the round trip of a ping-pong
 * between this process and the peer process over the ucx provider (Send/Recv, or RDMA Write with immediate data),
 * against the same ping-pong of jucx active messages between the same two processes ({@link JucxPingPong}).
 */
final class UcxPingPongCase extends OneWayCase
{
    private final ViaRig rig;
    private final int length;
    private final boolean rdmaWrite;

    private UcxPingPongCase(final String metric, final String baselineName, final ViaRig rig, final int length,
        final boolean rdmaWrite)
    {
        super(metric, baselineName, "<= 1.5");
        this.rig = rig;
        this.length = length;
        this.rdmaWrite = rdmaWrite;
    }

    static UcxPingPongCase sendRecv(final ViaRig rig)
    {
        return new UcxPingPongCase("ucx.send_recv_64B_oneway",
            "raw jucx active-message ping-pong, 64 B, two processes, UCX's shared-memory transports", rig, 64, false);
    }

    static UcxPingPongCase rdmaWrite(final ViaRig rig)
    {
        return new UcxPingPongCase("ucx.rdma_write_4KiB_oneway",
            "raw jucx active-message ping-pong, 4 KiB, two processes, UCX's shared-memory transports", rig, 4096,
            true);
    }

    @Override
    public String unavailableReason()
    {
        return ViaRig.ucxUnavailableReason();
    }

    @Override
    public void open()
    {
        rig.openUcx();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return rig.ucx().pingPong(rig.peer(), length, rdmaWrite, warmup, iterations, budgetNs());
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final PeerProcess peer = rig.peer();
        peer.send("jucx-echo " + length);
        return peer.initiate(new JucxPingPong(rig.rawUcx(), length), warmup, iterations, budgetNs());
    }
}
