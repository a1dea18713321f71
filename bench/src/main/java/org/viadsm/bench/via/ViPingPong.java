package org.viadsm.bench.via;

import org.viadsm.bench.BenchCase;
import org.viadsm.via.Vi;
import org.viadsm.via.descriptor.Descriptor;
import org.viadsm.via.memory.MemoryRegion;

/**
 * A ping-pong over a connected VI, each message a Send into the peer's posted receive buffer, or an RDMA Write
 * with immediate data into the peer's registered memory (which consumes a posted receive that carries the
 * immediate data). Waits are the VI's own {@code recvWait}/{@code sendWait}. Each side reuses one send and one
 * receive descriptor; a receive is reposted before the echo goes out, so a message never finds none posted. The
 * immediate data marks the last message (both kinds carry it).
 */
final class ViPingPong extends PingPong
{
    private final Vi vi;
    private final MemoryRegion region;
    private final int length;
    private final boolean rdmaWrite;
    private final int remoteHandle;
    private final Descriptor send = Descriptor.allocate(1);
    private final Descriptor recv = Descriptor.allocate(1);

    /**
     * A ping-pong side.
     *
     * @param endpoint     the connected endpoint.
     * @param length       bytes per message.
     * @param rdmaWrite    RDMA Write with immediate data, else Send.
     * @param remoteHandle the peer's region handle (for RDMA Write).
     */
    ViPingPong(final ViEndpoint endpoint, final int length, final boolean rdmaWrite, final int remoteHandle)
    {
        this.vi = endpoint.vi;
        this.region = endpoint.region;
        this.length = length;
        this.rdmaWrite = rdmaWrite;
        this.remoteHandle = remoteHandle;
    }

    @Override
    void start()
    {
        postRecv();
    }

    @Override
    void sent()
    {
        check(vi.sendWait(BenchCase.TIMEOUT_NS), "send");
    }

    @Override
    boolean receive()
    {
        final Descriptor received = vi.recvWait(BenchCase.TIMEOUT_NS);
        check(received, "receive");
        final boolean last = 0 != received.immediateData();
        if (!last)
        {
            postRecv();
        }
        return last;
    }

    private void postRecv()
    {
        recv.reset().send();
        if (!rdmaWrite)
        {
            recv.addSegment(region, ViEndpoint.RECV_OFFSET, length);
        }
        vi.postRecv(recv);
    }

    @Override
    void send(final boolean last)
    {
        send.reset();
        if (rdmaWrite)
        {
            send.rdmaWrite(remoteHandle, ViEndpoint.WRITE_OFFSET);
        }
        else
        {
            send.send();
        }
        vi.postSend(send.addSegment(region, ViEndpoint.SEND_OFFSET, length).immediateData(last ? 1 : 0));
    }

    private void check(final Descriptor descriptor, final String what)
    {
        if (null == descriptor)
        {
            throw new IllegalStateException(what + " did not complete within " + BenchCase.TIMEOUT_NS / 1_000_000 +
                " ms on VI " + vi.id() + " (state " + vi.state() + ")");
        }
        if (descriptor.isError())
        {
            throw new IllegalStateException(what + " failed on VI " + vi.id() + ": status=0x" +
                Integer.toHexString(descriptor.status()));
        }
    }
}
