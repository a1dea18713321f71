package org.viadsm.bench.via;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.viadsm.bench.BenchCase;
import org.viadsm.via.NicProviders;

/**
 * {@code tcp.send_recv_64B_rtt}: the round trip of a 64 B Send/Recv ping-pong between this process and the peer
 * process over the tcp provider on loopback, against a plain NIO ping-pong on loopback between the same two
 * processes. A round trip over TCP costs tens of µs, so this row times 1/25 of the base iteration count.
 */
final class TcpPingPongCase extends BenchCase
{
    static final String SCHEME = "tcp";
    private static final int LENGTH = 64;
    private static final int COST = 25;

    private final ViaRig rig;
    private final boolean blocking;

    /**
     * The case.
     *
     * @param rig      the shared rig.
     * @param blocking whether the NIO baseline blocks in reads (else it polls, waiting the VIA's way).
     */
    TcpPingPongCase(final ViaRig rig, final boolean blocking)
    {
        super("tcp.send_recv_64B_rtt", "us", "raw NIO SocketChannel ping-pong, 64 B, TCP_NODELAY, loopback, two " +
            "processes, " + (blocking ? "blocking reads" : "non-blocking reads polled with spin-then-park waits"),
            "<= 1.5");
        this.rig = rig;
        this.blocking = blocking;
    }

    @Override
    public String unavailableReason()
    {
        return NicProviders.all().containsKey(SCHEME) ? null :
            "the tcp provider is missing from this build (providers: " + NicProviders.all().keySet() + ")";
    }

    @Override
    public void open()
    {
        rig.tcp();
    }

    @Override
    public Histogram measure(final int warmup, final int iterations)
    {
        return rig.tcp().pingPong(rig.peer(), LENGTH, false, scaled(warmup), samples(iterations), budgetNs());
    }

    @Override
    public Histogram baseline(final int warmup, final int iterations)
    {
        final PeerProcess peer = rig.peer();
        try (ServerSocketChannel server = ServerSocketChannel.open())
        {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            server.configureBlocking(false);
            final int port = ((InetSocketAddress)server.getLocalAddress()).getPort();
            peer.send("nio " + port + " " + (blocking ? "blocking" : "polled") + " " + LENGTH);
            try (SocketChannel channel = accept(server))
            {
                return peer.initiate(new NioPingPong(channel, LENGTH, blocking), scaled(warmup),
                    samples(iterations), budgetNs());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("NIO baseline failed", ex);
        }
    }

    private static SocketChannel accept(final ServerSocketChannel server) throws IOException
    {
        final long deadlineNs = System.nanoTime() + BenchCase.TIMEOUT_NS;
        SocketChannel channel;
        while (null == (channel = server.accept()))
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the peer did not connect to port " +
                    ((InetSocketAddress)server.getLocalAddress()).getPort());
            }
            sleep();
        }
        return channel;
    }

    private static void sleep()
    {
        try
        {
            TimeUnit.MILLISECONDS.sleep(1);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private static int scaled(final int count)
    {
        return Math.max(1, count / COST);
    }

    @Override
    public int samples(final int iterations)
    {
        return scaled(iterations);
    }

    @Override
    public double figure(final double sampleNs)
    {
        return sampleNs / 1000;
    }
}
